"""Sign-up, tokens, logout, profiles and the leaderboard through HTTP."""

from __future__ import annotations

import pytest
from knox.models import AuthToken

from players.models import Player

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-staple"


def register(api_client, username="ana", password=PASSWORD):
    return api_client.post(
        "/api/v1/auth/register", {"username": username, "password": password}, format="json"
    )


def test_register_returns_id_username_and_a_working_token(api_client):
    response = register(api_client)
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "username", "token"}
    assert body["username"] == "ana"
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    me = api_client.get("/api/v1/players/me")
    assert me.status_code == 200
    assert me.json()["id"] == body["id"]


def test_tokens_are_stored_only_as_hashes(api_client):
    token = register(api_client).json()["token"]
    stored = AuthToken.objects.get()
    assert token not in (stored.digest, stored.token_key)
    assert len(stored.digest) >= 64


def test_register_refuses_a_weak_password_with_a_code(api_client):
    response = register(api_client, password="123")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "weak_password"
    assert not Player.objects.exists()


def test_register_refuses_a_taken_username_case_insensitively(api_client):
    register(api_client, "ana")
    response = register(api_client, "ANA")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "username_taken"


@pytest.mark.parametrize(
    "payload",
    [{}, {"username": "ana"}, {"username": "a b", "password": PASSWORD}, {"username": ["x"]}],
)
def test_register_refuses_bad_input_with_the_envelope(api_client, payload):
    response = api_client.post("/api/v1/auth/register", payload, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_input"
    assert "fields" in response.json()["error"]["details"]


def test_malformed_json_is_a_400_with_a_code(api_client):
    response = api_client.post(
        "/api/v1/auth/register", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_request"


def test_login_issues_a_new_token_and_refuses_a_wrong_password(api_client):
    registered = register(api_client).json()
    ok = api_client.post(
        "/api/v1/auth/token", {"username": "ana", "password": PASSWORD}, format="json"
    )
    assert ok.status_code == 200
    # The same shape as sign-up: a client learns its own id from either.
    assert set(ok.json()) == {"id", "username", "token"}
    assert (ok.json()["id"], ok.json()["username"]) == (registered["id"], "ana")
    assert ok.json()["token"] != registered["token"]
    bad = api_client.post(
        "/api/v1/auth/token", {"username": "ana", "password": "nope"}, format="json"
    )
    assert bad.status_code == 401
    assert bad.json()["error"]["code"] == "invalid_credentials"


def test_logout_revokes_only_that_token(api_client):
    first = register(api_client).json()["token"]
    second = api_client.post(
        "/api/v1/auth/token", {"username": "ana", "password": PASSWORD}, format="json"
    ).json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {first}")
    assert api_client.post("/api/v1/auth/logout").status_code == 204
    revoked = api_client.get("/api/v1/players/me")
    assert revoked.status_code == 401
    assert revoked.json()["error"]["code"] == "authentication_failed"
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {second}")
    assert api_client.get("/api/v1/players/me").status_code == 200


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer a b", "Bearer nonsense", "Token x"])
def test_requests_without_a_valid_token_get_401(api_client, header):
    if header:
        api_client.credentials(HTTP_AUTHORIZATION=header)
    response = api_client.get("/api/v1/players/me")
    assert response.status_code == 401
    assert response.json()["error"]["code"] in {"not_authenticated", "authentication_failed"}


def test_public_profile_and_unknown_player(api_client):
    body = register(api_client).json()
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    profile = api_client.get(f"/api/v1/players/{body['id']}").json()
    assert profile["username"] == "ana"
    assert "password" not in profile
    missing = api_client.get("/api/v1/players/00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_leaderboard_orders_by_games_then_deals_won(api_client):
    token = register(api_client).json()["token"]
    Player.objects.create_user("ben", games_played=3, games_won=1, deals_won=5)
    Player.objects.create_user("cia", games_played=3, games_won=2, deals_won=1)
    Player.objects.create_user("dee", games_played=0)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    body = api_client.get("/api/v1/leaderboard").json()
    assert [p["username"] for p in body["results"]] == ["cia", "ben"]


def test_method_not_allowed_uses_the_envelope(api_client):
    response = api_client.get("/api/v1/auth/register")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_auth_endpoints_are_throttled_with_the_envelope(api_client, monkeypatch):
    from django.core.cache import cache

    from players.throttles import AuthRateThrottle

    monkeypatch.setattr(AuthRateThrottle, "THROTTLE_RATES", {"auth": "3/min"})
    cache.clear()
    codes = [register(api_client, f"user{i}", "x").status_code for i in range(3)]
    assert codes == [422, 422, 422]
    throttled = register(api_client, "user4", PASSWORD)
    assert throttled.status_code == 429
    error = throttled.json()["error"]
    assert error["code"] == "throttled"
    assert error["details"]["retry_after"] > 0
    assert not Player.objects.filter(username="user4").exists()
