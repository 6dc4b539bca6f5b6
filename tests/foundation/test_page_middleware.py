"""The session, CSRF, auth and messages middleware run for the pages and the admin, not
for the bearer-token API (pusoy_api/page_middleware.py); closed by default: a session
cookie never authenticates an API request, and the CSRF check still guards any view
there that is not exempt."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.core import checks
from django.http import HttpResponse
from django.test import AsyncClient, Client, override_settings
from django.urls import include, path

from games.models import Game
from pusoy_api import page_middleware
from tests.api.helpers import client_for

pytestmark = pytest.mark.django_db


def form_write(request):
    return HttpResponse("written")


# A plain Django view under the API's prefix, not CSRF-exempt (DRF's views all are).
urlpatterns = [
    path("api/v1/form-write", form_write),
    path("", include("pusoy_api.urls")),
]


def test_a_session_cookie_does_not_authenticate_an_api_request(admin_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin_user)
    assert client.get("/admin/").status_code == 200  # the cookie is a good one
    me = client.get("/api/v1/players/me")
    assert me.status_code == 401
    assert me.json()["error"]["code"] == "not_authenticated"
    created = client.post(
        "/api/v1/games", {"seats": [{"type": "human"}] * 4}, content_type="application/json"
    )
    assert created.status_code == 401
    assert not Game.objects.exists()


def test_nor_under_the_asgi_handler(admin_user):
    client = AsyncClient()

    async def statuses() -> list[int]:
        await client.aforce_login(admin_user)
        return [(await client.get(p)).status_code for p in ("/admin/", "/api/v1/players/me")]

    assert async_to_sync(statuses)() == [200, 401]


def test_an_api_answer_sets_no_session_or_csrf_cookie_and_keeps_its_headers():
    response = client_for("ann").get("/api/v1/players/me")
    assert response.status_code == 200
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")
    assert response["X-Frame-Options"] == "DENY"
    assert not hasattr(response.wsgi_request, "session")


def test_the_pages_still_have_their_session_and_csrf(admin_user):
    client = Client(enforce_csrf_checks=True)
    login = client.get("/admin/login/")
    assert login.status_code == 200
    assert "csrftoken" in login.cookies
    # A write without the token is refused, with the cookie or without it.
    refused = client.post("/admin/login/", {"username": "admin", "password": "password"})
    assert refused.status_code == 403
    client.force_login(admin_user)
    assert client.get("/admin/").status_code == 200


@override_settings(ROOT_URLCONF=__name__)
def test_a_view_under_the_api_prefix_that_is_not_exempt_is_still_csrf_checked():
    client = Client(enforce_csrf_checks=True)
    assert client.post("/api/v1/form-write", {"a": "1"}).status_code == 403


def test_they_are_djangos_middleware_for_the_admins_checks():
    errors = [e for e in checks.run_checks() if e.id.startswith("admin.")]
    assert errors == []


@pytest.mark.parametrize(
    ("path_info", "expected"),
    [
        ("/api/v1/players/me", True),
        ("/api/v1/", True),
        ("/api/v1", False),
        ("/api/schema/", False),
        ("/api/docs/", False),
        ("/admin/", False),
        ("/", False),
        ("/API/v1/players/me", False),
    ],
)
def test_what_counts_as_an_api_request(rf, path_info, expected):
    assert page_middleware.is_api(rf.get(path_info)) is expected
