"""Guest play through HTTP: an account at once, no password; claimed later under a
name and password, keeping its id, games, rating and sessions."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from players.models import Player
from tests.api.helpers import create_game
from tests.factories import TEST_PASSWORD, PlayerFactory
from tests.players.accounts import device, error_code, guest

pytestmark = pytest.mark.django_db

PASSWORD = "a-guest-no-longer-42"


def claim(client: APIClient, username: str, password: str = PASSWORD):
    body = {"username": username, "password": password}
    return client.post("/api/v1/auth/claim", body, format="json")


def test_a_guest_gets_a_playable_account_at_once():
    client, body = guest()
    assert set(body) == {"id", "username", "token", "guest"}
    assert body["guest"] is True
    assert body["username"].startswith("guest-")
    me = client.get("/api/v1/players/me").json()
    assert me["id"] == body["id"]
    assert me["guest"] is True
    game = create_game(client, [{"type": "human"}, {"type": "ai", "level": "random"}])
    assert game["status"] == "active"
    assert not Player.objects.get(pk=body["id"]).has_usable_password()


def test_guests_get_distinct_names():
    names = {guest()[1]["username"] for _ in range(5)}
    assert len(names) == 5


def test_a_guest_cannot_log_in_with_any_password():
    _, body = guest()
    response = APIClient().post(
        "/api/v1/auth/token", {"username": body["username"], "password": ""}, format="json"
    )
    assert response.status_code in (400, 401)
    response = APIClient().post(
        "/api/v1/auth/token", {"username": body["username"], "password": "x" * 12}, format="json"
    )
    assert response.status_code == 401


def test_claiming_keeps_the_id_games_rating_and_sessions():
    client, body = guest(user_agent="guest phone")
    game = create_game(client, [{"type": "human"}, {"type": "ai", "level": "random"}])
    response = claim(client, "lena")
    assert response.status_code == 200
    assert response.json() == {"id": body["id"], "username": "lena", "guest": False}
    # The same token goes on working, and the account's games are still its own.
    me = client.get("/api/v1/players/me").json()
    assert (me["id"], me["guest"]) == (body["id"], False)
    mine = client.get("/api/v1/games?mine=true").json()["results"]
    assert [g["id"] for g in mine] == [game["id"]]
    sessions = client.get("/api/v1/auth/sessions").json()["results"]
    assert [s["device"] for s in sessions] == ["guest phone"]
    # And it logs in with its new name and password.
    assert device("lena", PASSWORD).get("/api/v1/players/me").json()["id"] == body["id"]


def test_a_guest_may_claim_its_own_generated_name():
    client, body = guest()
    response = claim(client, body["username"].upper())
    assert response.status_code == 200
    assert device(body["username"], PASSWORD).get("/api/v1/players/me").status_code == 200


def test_claiming_a_taken_name_is_409_and_changes_nothing():
    PlayerFactory(username="ana")
    client, body = guest()
    response = claim(client, "ANA")
    assert response.status_code == 409
    assert error_code(response) == "username_taken"
    player = Player.objects.get(pk=body["id"])
    assert (player.username, player.is_guest) == (body["username"], True)


def test_a_full_account_is_not_a_guest():
    PlayerFactory(username="ana")
    response = claim(device("ana"), "ana2")
    assert response.status_code == 409
    assert error_code(response) == "not_a_guest"
    assert Player.objects.get(username="ana").check_password(TEST_PASSWORD)


def test_a_guest_claims_once():
    client, _ = guest()
    assert claim(client, "lena").status_code == 200
    again = claim(client, "lena2")
    assert again.status_code == 409
    assert error_code(again) == "not_a_guest"


@pytest.mark.parametrize(
    ("username", "password", "status", "code"),
    [
        ("lena", "123", 422, "weak_password"),
        ("lena", "lena", 422, "weak_password"),
        ("\u0435vex", PASSWORD, 422, "invalid_username"),  # a Cyrillic e first
        ("a b", PASSWORD, 400, "invalid_input"),
        ("", PASSWORD, 400, "invalid_input"),
    ],
)
def test_claim_refuses_bad_names_and_passwords_and_changes_nothing(
    username, password, status, code
):
    client, body = guest()
    response = claim(client, username, password)
    assert response.status_code == status
    assert error_code(response) == code
    assert Player.objects.get(pk=body["id"]).is_guest


def test_claim_needs_a_token():
    response = claim(APIClient(), "lena")
    assert response.status_code == 401
    assert error_code(response) == "not_authenticated"


def test_guest_accounts_are_rationed_per_address(monkeypatch):
    from players.throttles import GuestRateThrottle

    monkeypatch.setattr(GuestRateThrottle, "THROTTLE_RATES", {"guest": "2/hour"})
    codes = [
        APIClient().post("/api/v1/auth/guest", REMOTE_ADDR="192.0.2.9").status_code
        for _ in range(3)
    ]
    assert codes == [201, 201, 429]
    assert APIClient().post("/api/v1/auth/guest", REMOTE_ADDR="192.0.2.10").status_code == 201
    assert Player.objects.filter(is_guest=True).count() == 3


def test_claim_is_inside_the_per_address_log_in_limit(auth_rate):
    client, _ = guest()
    cache.clear()  # the guest's own sign-up counted too
    auth_rate("2/min")
    codes = [claim(client, "lena", "123").status_code for _ in range(3)]
    assert codes == [422, 422, 429]
