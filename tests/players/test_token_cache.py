"""Bearer tokens answered from the shared cache (players.token_cache): no query for the
token on most requests, and every way a token ends still ends it at once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken

from players import token_cache
from players.models import Session
from tests.factories import TEST_PASSWORD, PlayerFactory
from tests.players.accounts import device, error_code, guest
from tests.players.test_cache_outage import BROKEN

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("shared_cache")]


@pytest.fixture
def ana():
    return PlayerFactory(username="ana")


def me(client):
    return client.get("/api/v1/players/me")


def token_queries(client) -> int:
    """The queries of one `GET players/me` that read the token table."""
    with CaptureQueriesContext(connection) as captured:
        assert me(client).status_code == 200
    return sum("knox_authtoken" in q["sql"] for q in captured.captured_queries)


def test_the_second_request_reads_no_token_and_players_me_is_one_query(
    ana, django_assert_num_queries
):
    phone = device("ana")
    assert token_queries(phone) == 1  # the first one reads it, and remembers it
    with django_assert_num_queries(1):  # the player with its rating, nothing else
        response = me(phone)
    assert response.json()["username"] == "ana"


def test_without_a_shared_cache_every_request_reads_the_token(ana):
    phone = device("ana")
    with override_settings(CACHE_SHARED=False):
        assert token_queries(phone) == 1
        assert token_queries(phone) == 1


def test_logout_ends_a_cached_token_at_once(ana):
    phone = device("ana")
    assert token_queries(phone) == 1
    assert token_queries(phone) == 0
    assert phone.post("/api/v1/auth/logout").status_code == 204
    refused = me(phone)
    assert refused.status_code == 401
    assert error_code(refused) == "authentication_failed"


def test_logout_others_ends_their_cached_tokens_at_once(ana):
    phone = device("ana", user_agent="phone")
    tablets = [device("ana", user_agent=f"tablet {i}") for i in range(2)]
    for tablet in tablets:
        assert me(tablet).status_code == 200
        assert token_queries(tablet) == 0
    assert phone.post("/api/v1/auth/logout-others").status_code == 200
    assert [me(t).status_code for t in tablets] == [401, 401]
    assert me(phone).status_code == 200


def test_a_revoked_session_ends_its_cached_token_at_once(ana):
    phone, laptop = device("ana", user_agent="phone"), device("ana", user_agent="laptop")
    assert me(laptop).status_code == 200
    assert token_queries(laptop) == 0
    laptop_session = Session.objects.get(device="laptop")
    response = phone.delete(f"/api/v1/auth/sessions/{laptop_session.pk}")
    assert response.status_code == 204
    assert me(laptop).status_code == 401
    assert me(phone).status_code == 200


def test_a_password_change_ends_the_other_cached_tokens_and_keeps_this_one_fresh(ana):
    phone, laptop = device("ana", user_agent="phone"), device("ana", user_agent="laptop")
    for client in (phone, laptop):
        assert me(client).status_code == 200
    response = phone.post(
        "/api/v1/auth/password",
        {"old_password": TEST_PASSWORD, "new_password": "a whole new secret 42"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert me(laptop).status_code == 401
    # This device goes on, with the player as now saved: the old password is refused.
    assert me(phone).status_code == 200
    again = phone.post(
        "/api/v1/auth/password",
        {"old_password": TEST_PASSWORD, "new_password": "and another one 43"},
        format="json",
    )
    assert again.status_code == 403
    assert error_code(again) == "wrong_password"


def test_deleting_the_account_ends_its_cached_tokens_at_once(ana):
    phone, laptop = device("ana", user_agent="phone"), device("ana", user_agent="laptop")
    for client in (phone, laptop):
        assert me(client).status_code == 200
    response = phone.delete("/api/v1/players/me", {"password": TEST_PASSWORD}, format="json")
    assert response.status_code == 204, response.content
    assert [me(phone).status_code, me(laptop).status_code] == [401, 401]


def test_a_claimed_guest_is_seen_by_its_cached_token_under_its_new_name():
    client, _ = guest()
    assert me(client).json()["guest"] is True
    response = client.post(
        "/api/v1/auth/claim",
        {"username": "claimed", "password": "a whole new secret 42"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    # The player's save put a tombstone over the entry: the next request reads the row.
    assert token_queries(client) == 1
    body = me(client).json()
    assert (body["username"], body["guest"]) == ("claimed", False)


def test_a_cached_token_past_its_expiry_is_refused(ana, monkeypatch):
    phone = device("ana")
    assert me(phone).status_code == 200
    assert token_queries(phone) == 0
    real_now = timezone.now
    later = real_now() + dt.timedelta(days=400)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert me(phone).status_code == 401
    assert not AuthToken.objects.exists()


def test_the_renewal_a_minute_later_goes_to_the_database_and_writes_once(ana, monkeypatch):
    phone = device("ana")
    assert me(phone).status_code == 200
    assert token_queries(phone) == 0
    session = Session.objects.get()
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + dt.timedelta(seconds=90))
    with CaptureQueriesContext(connection) as captured:
        assert me(phone).status_code == 200
    sql = [q["sql"] for q in captured.captured_queries]
    assert any(s.startswith('UPDATE "knox_authtoken"') for s in sql)
    assert any(s.startswith('UPDATE "players_session"') for s in sql)
    session.refresh_from_db()
    assert session.last_used_at > real_now() + dt.timedelta(seconds=60)


def test_a_read_from_before_a_revocation_cannot_be_stored_over_its_tombstone(ana):
    phone = device("ana")
    token = AuthToken.objects.select_related("user").get()
    # A request read the token; meanwhile it was revoked (a tombstone); then the request
    # tries to remember what it read.
    token_cache.forget([token.digest])
    token_cache.remember(token)
    assert token_cache.cached(token.digest) is None
    assert token_queries(phone) == 1


def test_while_the_cache_is_down_tokens_are_read_from_the_database(ana):
    phone = device("ana")
    with override_settings(CACHES=BROKEN):
        assert token_queries(phone) == 1
        assert phone.post("/api/v1/auth/logout").status_code == 204
        assert me(phone).status_code == 401
