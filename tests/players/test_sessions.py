"""Sessions through HTTP: one per token, listed and revoked by their player; tokens end
after TOKEN_IDLE_TTL_DAYS without use, and an hourly task purges them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from players.models import Session
from players.tasks import purge_idle_tokens
from tests.factories import PlayerFactory
from tests.players.accounts import device, error_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana():
    return PlayerFactory(username="ana")


def sessions(client: APIClient) -> list[dict]:
    response = client.get("/api/v1/auth/sessions")
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def idle_for(client_token_of: Session, days: float) -> None:
    """Age a session: last used (and its token renewed) `days` ago."""
    then = timezone.now() - dt.timedelta(days=days)
    AuthToken.objects.filter(pk=client_token_of.token_id).update(
        expiry=then + dt.timedelta(days=settings.TOKEN_IDLE_TTL_DAYS)
    )
    Session.objects.filter(pk=client_token_of.pk).update(last_used_at=then)


def test_each_login_is_a_session_listed_with_its_device_and_the_current_one_marked(ana):
    phone = device("ana", user_agent="PusoyApp/2.1 (iPhone)")
    device("ana", user_agent="Firefox/140")
    PlayerFactory(username="ben")
    device("ben")
    listed = sessions(phone)
    assert {s["device"] for s in listed} == {"PusoyApp/2.1 (iPhone)", "Firefox/140"}
    assert [s["current"] for s in listed if s["device"].startswith("PusoyApp")] == [True]
    assert sum(s["current"] for s in listed) == 1
    one = listed[0]
    assert set(one) == {"id", "device", "created_at", "last_used_at", "expires_at", "current"}
    # The token itself, or any part of it, is never shown.
    token = phone._credentials["HTTP_AUTHORIZATION"].split()[1]
    assert token[:8] not in str(listed)


def test_revoking_a_session_logs_that_device_out_and_no_other(ana):
    phone, laptop = device("ana", user_agent="phone"), device("ana", user_agent="laptop")
    laptop_id = next(s["id"] for s in sessions(phone) if s["device"] == "laptop")
    assert phone.delete(f"/api/v1/auth/sessions/{laptop_id}").status_code == 204
    refused = laptop.get("/api/v1/players/me")
    assert refused.status_code == 401
    assert error_code(refused) == "authentication_failed"
    assert phone.get("/api/v1/players/me").status_code == 200
    assert [s["device"] for s in sessions(phone)] == ["phone"]


def test_revoking_the_current_session_is_a_logout(ana):
    phone = device("ana")
    (mine,) = sessions(phone)
    assert phone.delete(f"/api/v1/auth/sessions/{mine['id']}").status_code == 204
    assert phone.get("/api/v1/players/me").status_code == 401


def test_another_players_session_is_not_found_and_stays(ana):
    PlayerFactory(username="ben")
    ben = device("ben")
    (bens,) = sessions(ben)
    response = device("ana").delete(f"/api/v1/auth/sessions/{bens['id']}")
    assert response.status_code == 404
    assert error_code(response) == "not_found"
    assert ben.get("/api/v1/players/me").status_code == 200


def test_session_endpoints_need_a_token():
    anonymous = APIClient()
    assert error_code(anonymous.get("/api/v1/auth/sessions")) == "not_authenticated"
    gone = anonymous.delete(f"/api/v1/auth/sessions/{'0' * 8}-0000-0000-0000-{'0' * 12}")
    assert gone.status_code == 401
    assert anonymous.post("/api/v1/auth/logout-others").status_code == 401


def test_logout_others_keeps_only_this_session(ana):
    phone = device("ana", user_agent="phone")
    others = [device("ana", user_agent=f"tablet {i}") for i in range(3)]
    response = phone.post("/api/v1/auth/logout-others")
    assert response.status_code == 200
    assert response.json() == {"revoked_sessions": 3}
    assert all(o.get("/api/v1/players/me").status_code == 401 for o in others)
    assert [s["device"] for s in sessions(phone)] == ["phone"]


def test_a_token_idle_past_the_ttl_stops_authenticating_and_its_session_goes(ana):
    phone = device("ana")
    session = Session.objects.get()
    idle_for(session, days=settings.TOKEN_IDLE_TTL_DAYS + 1)
    refused = phone.get("/api/v1/players/me")
    assert refused.status_code == 401
    assert error_code(refused) == "authentication_failed"
    assert not Session.objects.exists()


def test_using_a_token_pushes_its_idle_expiry_and_last_used_forward(ana):
    phone = device("ana")
    session = Session.objects.get()
    idle_for(session, days=settings.TOKEN_IDLE_TTL_DAYS - 1)
    assert phone.get("/api/v1/players/me").status_code == 200
    session.refresh_from_db()
    assert timezone.now() - session.last_used_at < dt.timedelta(minutes=5)
    (listed,) = sessions(phone)
    expires = dt.datetime.fromisoformat(listed["expires_at"])
    assert expires - timezone.now() > dt.timedelta(days=settings.TOKEN_IDLE_TTL_DAYS - 1)


def test_a_request_within_a_minute_of_the_last_renewal_writes_nothing(
    ana, django_assert_num_queries
):
    phone = device("ana")
    assert phone.get("/api/v1/players/me").status_code == 200
    # The token with its player, then the rating the profile shows: no write.
    with django_assert_num_queries(2):
        assert phone.get("/api/v1/players/me").status_code == 200
    # Over a minute since the last renewal: the expiry and last-used are written once.
    idle_for(Session.objects.get(), days=1)
    with django_assert_num_queries(4):
        assert phone.get("/api/v1/players/me").status_code == 200
    with django_assert_num_queries(2):
        assert phone.get("/api/v1/players/me").status_code == 200


def test_the_hourly_task_purges_idle_tokens_with_their_sessions_and_keeps_live_ones(ana):
    device("ana", user_agent="old")
    live = device("ana", user_agent="new")
    old = Session.objects.get(device="old")
    idle_for(old, days=settings.TOKEN_IDLE_TTL_DAYS + 1)
    assert purge_idle_tokens.delay().get() == 1
    assert list(Session.objects.values_list("device", flat=True)) == ["new"]
    assert AuthToken.objects.count() == 1
    assert live.get("/api/v1/players/me").status_code == 200
    assert settings.CELERY_BEAT_SCHEDULE["purge-idle-tokens"] == {
        "task": "players.purge_idle_tokens",
        "schedule": 3600.0,
    }


def test_sessions_list_is_paginated_and_refuses_bad_query(ana):
    phone = device("ana")
    response = phone.get("/api/v1/auth/sessions?limit=nope")
    assert response.status_code == 400
    assert error_code(response) == "invalid_input"
    assert phone.get("/api/v1/auth/sessions?limit=1").json()["count"] == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_existing_tokens_a_session_and_an_idle_expiry():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from knox.models import get_digest_token
    from knox.settings import CONSTANTS

    key_length = CONSTANTS.TOKEN_KEY_LENGTH

    before = [("players", "0003_username_canonical_unique")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old_apps = executor.loader.project_state(before).apps
    old_player = old_apps.get_model("players", "Player").objects.create(
        username="ana", username_canonical="ana", password="!"
    )
    digest, token = get_digest_token()
    # knox's table is the same before and after; only the player's gains columns.
    AuthToken(digest=digest, token_key=token[:key_length], user_id=old_player.pk, expiry=None).save(
        force_insert=True
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    session = Session.objects.get(player_id=old_player.pk)
    assert session.device == ""
    stored = AuthToken.objects.get(user_id=old_player.pk)
    assert stored.expiry - timezone.now() > dt.timedelta(days=settings.TOKEN_IDLE_TTL_DAYS - 1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get("/api/v1/players/me").status_code == 200
