"""Changing the password through HTTP: confirmed by the old one, inside the log-in
backoff, other sessions ended unless asked not to."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from players import login_backoff
from players.models import Player
from tests.factories import TEST_PASSWORD, PlayerFactory
from tests.players.accounts import device, error_code, guest

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-passphrase-7"


@pytest.fixture
def ana():
    return PlayerFactory(username="ana")


def change(client: APIClient, old: str = TEST_PASSWORD, new: str = NEW_PASSWORD, **extra):
    body = {"old_password": old, "new_password": new, **extra}
    return client.post("/api/v1/auth/password", body, format="json")


def login(username: str, password: str) -> int:
    return (
        APIClient()
        .post("/api/v1/auth/token", {"username": username, "password": password}, format="json")
        .status_code
    )


def test_a_new_password_logs_in_the_old_one_does_not_and_other_sessions_end(ana):
    phone, laptop = device("ana"), device("ana")
    response = change(phone)
    assert response.status_code == 200
    assert response.json() == {"revoked_sessions": 1}
    assert phone.get("/api/v1/players/me").status_code == 200
    assert laptop.get("/api/v1/players/me").status_code == 401
    assert login("ana", NEW_PASSWORD) == 200
    assert login("ana", TEST_PASSWORD) == 401


def test_other_sessions_can_be_kept(ana):
    phone, laptop = device("ana"), device("ana")
    response = change(phone, revoke_other_sessions=False)
    assert response.json() == {"revoked_sessions": 0}
    assert laptop.get("/api/v1/players/me").status_code == 200


def test_a_wrong_old_password_is_403_and_changes_nothing(ana):
    phone, laptop = device("ana"), device("ana")
    response = change(phone, old="not-my-password")
    assert response.status_code == 403
    assert error_code(response) == "wrong_password"
    assert laptop.get("/api/v1/players/me").status_code == 200
    assert login("ana", TEST_PASSWORD) == 200


def test_a_weak_new_password_is_422_and_changes_nothing(ana):
    phone, laptop = device("ana"), device("ana")
    response = change(phone, new="123")
    assert response.status_code == 422
    assert error_code(response) == "weak_password"
    assert response.json()["error"]["details"]["reasons"]
    assert laptop.get("/api/v1/players/me").status_code == 200
    assert login("ana", TEST_PASSWORD) == 200


def test_a_guest_has_no_password_to_change():
    client, _ = guest()
    response = change(client, old="anything-at-all")
    assert response.status_code == 409
    assert error_code(response) == "guest_account"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"old_password": TEST_PASSWORD},
        {"old_password": TEST_PASSWORD, "new_password": 12345678},
        {"old_password": TEST_PASSWORD, "new_password": NEW_PASSWORD, "revoke_other_sessions": 3},
        {"old_password": "x\x00y", "new_password": NEW_PASSWORD},
    ],
)
def test_bad_input_is_400_and_changes_nothing(ana, body):
    phone = device("ana")
    response = phone.post("/api/v1/auth/password", body, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_input"
    assert login("ana", TEST_PASSWORD) == 200


def test_it_needs_a_token():
    response = change(APIClient())
    assert response.status_code == 401
    assert error_code(response) == "not_authenticated"


def test_wrong_old_passwords_count_in_the_names_log_in_backoff(ana, backoff_clock):
    phone = device("ana")
    for _ in range(login_backoff.FREE_FAILURES):
        assert change(phone, old="guess").status_code == 403
    refused = change(phone, old=TEST_PASSWORD)
    assert refused.status_code == 429
    assert error_code(refused) == "throttled"
    # The same count as log-in: the name is in backoff there too.
    assert login("ana", TEST_PASSWORD) == 429
    assert Player.objects.get(username="ana").check_password(TEST_PASSWORD)


def test_the_per_address_log_in_limit_covers_it_even_with_a_token(ana, auth_rate):
    phone = device("ana")
    cache.clear()  # the log-in counted too
    auth_rate("3/min")
    codes = [change(phone, old="guess").status_code for _ in range(4)]
    assert codes == [403, 403, 403, 429]
