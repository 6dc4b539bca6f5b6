"""What the server gives the web client: the page at `/` and the generated API module."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_page_is_a_shell_that_loads_only_its_own_files():
    response = Client().get("/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self';" in policy
    body = response.content.decode()
    assert 'type="module"' in body
    assert "webclient/app.js" in body
    # No game state is rendered by the server: the page reads it from the API.
    assert "hand" not in body.lower()


@pytest.mark.parametrize(
    ("meta", "feed"),
    [
        # The test client is a bare WSGI server: it cannot stream.
        ({}, "long-poll"),
        # The served layout's WSGI side (pusoy_api.serving): its server streams.
        ({"pusoy.streams": True}, "stream"),
    ],
)
def test_the_page_streams_the_feed_only_where_the_server_streams(meta, feed):
    body = Client().get("/", **meta).content.decode()
    assert f'data-feed="{feed}"' in body


def test_the_api_module_is_javascript_generated_from_the_schema_and_revalidated():
    client = Client()
    response = client.get("/app/api.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    source = response.content.decode()
    assert "export function games_moves_list(" in source
    assert 'import { call } from "/static/webclient/http.js";' in source
    again = client.get("/app/api.js", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    assert client.post("/app/api.js").status_code == 405


def test_the_client_static_files_are_served():
    for name in ("app.js", "http.js", "style.css"):
        response = Client().get(f"/static/webclient/{name}")
        assert response.status_code == 200, name


def test_the_site_has_an_icon_where_browsers_look_for_one():
    response = Client().get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    assert Client().post("/favicon.ico").status_code == 405


def test_redoc_is_served_from_here_without_its_cdn_logo():
    page = Client().get("/api/redoc/").content.decode()
    assert "/api/redoc-dist/bundles/redoc.standalone.js" in page
    client = Client()
    response = client.get("/api/redoc-dist/bundles/redoc.standalone.js")
    assert response.status_code == 200
    bundle = response.content.decode()
    assert "cdn.redoc.ly" not in bundle
    assert "Redoc" in bundle
    again = client.get(response.wsgi_request.path, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_the_client_puts_content_on_pages_only_through_its_append_helper():
    """The DOM's own append writes "null" for a missing value (it did, on five screens);
    dom.js's append adds nothing for it and refuses NaN and objects."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "webclient" / "static" / "webclient"
    offenders = [
        f"{path.name}:{number}"
        for path in sorted(folder.glob("*.js"))
        if path.name not in ("dom.js", "cards.js")  # cards.js appends its own spans only
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if ".append(" in line or ".prepend(" in line or ".innerHTML" in line
    ]
    assert offenders == []
