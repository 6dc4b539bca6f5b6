"""Static files are served by the app under WSGI and ASGI; async requests pass through."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient

from pusoy_api.static import AsyncWhiteNoiseMiddleware


def test_static_file_through_the_sync_stack(client):
    response = client.get("/static/admin/css/base.css")
    assert response.status_code == 200
    assert b"".join(response.streaming_content)


@pytest.mark.django_db
def test_static_file_and_api_through_the_async_stack():
    async def fetch():
        client = AsyncClient()
        return (
            await client.get("/static/admin/css/base.css"),
            await client.get("/api/v1/players/me"),
        )

    static, api = async_to_sync(fetch)()
    assert static.status_code == 200
    assert api.status_code == 401
    assert api.json()["error"]["code"] == "not_authenticated"


def test_middleware_is_async_capable():
    async def downstream(request):
        return None

    middleware = AsyncWhiteNoiseMiddleware(downstream)
    assert AsyncWhiteNoiseMiddleware.async_capable
    from asgiref.sync import iscoroutinefunction

    assert iscoroutinefunction(middleware)


def test_the_missing_static_manifest_is_found_before_a_page_fails(settings, tmp_path):
    # gunicorn's on_starting logs an error naming it (pusoy_api/gunicorn_conf.py).
    from pusoy_api.static import missing_manifest

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    settings.STATIC_ROOT = tmp_path
    assert missing_manifest() == tmp_path / "staticfiles.json"
    (tmp_path / "staticfiles.json").write_text("{}")
    assert missing_manifest() is None
