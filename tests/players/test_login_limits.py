# ruff: noqa: RUF001 (full-width spellings of a name are the point of a test here)
"""Rate limits on log-in: per IP (which IP: REMOTE_ADDR unless proxies are trusted) and
per username, with backoff, from any number of addresses."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from players import login_backoff
from tests.factories import TEST_PASSWORD, PlayerFactory

pytestmark = pytest.mark.django_db

N = login_backoff.FREE_FAILURES


def login(client, username, password, **extra):
    return client.post(
        "/api/v1/auth/token", {"username": username, "password": password}, format="json", **extra
    )


def test_a_client_cannot_escape_the_ip_throttle_by_rotating_x_forwarded_for(api_client, auth_rate):
    auth_rate("5/min")
    codes = [
        login(
            api_client,
            f"user{i}",
            "wrong",
            REMOTE_ADDR="192.0.2.1",
            HTTP_X_FORWARDED_FOR=f"10.9.{i}.1",
        ).status_code
        for i in range(6)
    ]
    assert codes == [401] * 5 + [429]
    # The limit is per address: another client is not affected.
    assert login(api_client, "user9", "wrong", REMOTE_ADDR="192.0.2.2").status_code == 401


def test_with_one_trusted_proxy_the_address_it_saw_is_the_client(api_client, auth_rate):
    auth_rate("5/min")
    behind_proxy = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    with override_settings(REST_FRAMEWORK=behind_proxy):
        # The proxy (REMOTE_ADDR) appends the address it saw to what the client sent.
        codes = [
            login(
                api_client,
                f"user{i}",
                "wrong",
                REMOTE_ADDR="10.0.0.1",
                HTTP_X_FORWARDED_FOR=f"10.9.{i}.1, 203.0.113.7",
            ).status_code
            for i in range(6)
        ]
        other_client = login(
            api_client,
            "user9",
            "wrong",
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR="203.0.113.7, 203.0.113.8",
        )
    assert codes == [401] * 5 + [429]
    assert other_client.status_code == 401


def test_failed_logins_back_off_per_username_from_any_address(api_client, backoff_clock):
    PlayerFactory(username="ana")
    for i in range(N):
        response = login(api_client, "ana", "wrong", REMOTE_ADDR=f"198.51.100.{i}")
        assert response.status_code == 401, i
    refused = login(api_client, "ana", "wrong", REMOTE_ADDR="198.51.100.200")
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == "throttled"
    assert error["details"]["retry_after"] == 1
    assert refused["Retry-After"] == "1"
    # Inside the wait the password is not even checked: the right one is refused too.
    right = login(api_client, "ana", TEST_PASSWORD, REMOTE_ADDR="198.51.100.201")
    assert right.status_code == 429


def test_the_wait_doubles_per_failure_and_a_success_resets_the_count(api_client, backoff_clock):
    PlayerFactory(username="ana")
    for _ in range(N):
        login(api_client, "ana", "wrong")
    backoff_clock.advance(1)
    assert login(api_client, "ana", "wrong").status_code == 401  # checked again
    second = login(api_client, "ana", "wrong")
    assert second.status_code == 429
    assert second.json()["error"]["details"]["retry_after"] == 2
    backoff_clock.advance(1.5)
    assert login(api_client, "ana", TEST_PASSWORD).status_code == 429
    backoff_clock.advance(0.5)
    assert login(api_client, "ana", TEST_PASSWORD).status_code == 200
    # Counting starts again: the next failures are plain 401s.
    assert [login(api_client, "ana", "wrong").status_code for _ in range(N)] == [401] * N


def test_the_wait_is_capped():
    waits = [login_backoff.backoff_seconds(failures=f) for f in range(N + 30)]
    assert waits[:N] == [0] * N
    assert waits[N : N + 3] == [1, 2, 4]
    assert max(waits) == waits[-1] == 15 * 60


def test_a_name_in_backoff_does_not_touch_other_names_from_the_same_address(
    api_client, backoff_clock
):
    PlayerFactory(username="ana")
    PlayerFactory(username="ben")
    for _ in range(N + 1):
        login(api_client, "ana", "wrong", REMOTE_ADDR="100.64.0.1")
    assert login(api_client, "ana", TEST_PASSWORD, REMOTE_ADDR="100.64.0.1").status_code == 429
    assert login(api_client, "ben", TEST_PASSWORD, REMOTE_ADDR="100.64.0.1").status_code == 200


def test_unknown_names_back_off_like_real_ones(api_client, backoff_clock):
    """Otherwise a 429 would tell an attacker which names exist."""
    codes = [login(api_client, "nobody", "wrong").status_code for _ in range(N + 1)]
    assert codes == [401] * N + [429]


def test_spellings_of_one_name_share_one_count(api_client, backoff_clock):
    PlayerFactory(username="ana")
    for spelling in ["ana", "ANA", "Ana", "ａｎａ", "ＡＮＡ"] * 2:
        assert login(api_client, spelling, "wrong").status_code == 401
    assert login(api_client, "aNa", "wrong").status_code == 429


def test_one_password_check_at_a_time_per_name(api_client, backoff_clock):
    """A burst of simultaneous guesses cannot all be checked before the first fails."""
    PlayerFactory(username="ana")
    in_flight = login_backoff.login_attempt_start(username_canonical="ana")
    concurrent = login(api_client, "ana", TEST_PASSWORD)
    assert concurrent.status_code == 429
    assert concurrent.json()["error"]["details"]["retry_after"] == 1
    login_backoff.login_attempt_failed(attempt=in_flight)
    assert login(api_client, "ana", TEST_PASSWORD).status_code == 200


# --- Every way to log in shares the per-name backoff ---------------------------------------
# The admin's log-in form is a second door to the same accounts (staff ones, the most
# valuable): its failures count with the API's, and a name in backoff is refused there too.

THROTTLED_ON_ADMIN = "Too many failed log-ins for this username. Try again in"


def admin_login(client, username, password):
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password})


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_admin_login_form_backs_off_per_username(client, backoff_clock):
    PlayerFactory(username="boss", is_staff=True)
    for _ in range(N):
        failed = admin_login(client, "boss", "wrong")
        assert failed.status_code == 200  # the form again, with its error
        assert THROTTLED_ON_ADMIN not in failed.content.decode()
    refused = admin_login(client, "boss", TEST_PASSWORD)
    assert refused.status_code == 200
    assert f"{THROTTLED_ON_ADMIN} 1 second." in refused.content.decode()
    assert not logged_in(client)
    backoff_clock.advance(1)
    assert admin_login(client, "BOSS", TEST_PASSWORD).status_code == 302
    assert logged_in(client)


def test_admin_failures_count_on_the_api(api_client, client, backoff_clock):
    PlayerFactory(username="boss", is_staff=True)
    for _ in range(N):
        admin_login(client, "boss", "wrong")
    refused = login(api_client, "boss", TEST_PASSWORD)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "throttled"
    assert refused.json()["error"]["details"]["retry_after"] == 1
    assert refused["Retry-After"] == "1"


def test_api_failures_count_on_the_admin(api_client, client, backoff_clock):
    PlayerFactory(username="boss", is_staff=True)
    for _ in range(N):
        assert login(api_client, "boss", "wrong").status_code == 401
    refused = admin_login(client, "boss", TEST_PASSWORD)
    assert f"{THROTTLED_ON_ADMIN} 1 second." in refused.content.decode()
    assert not logged_in(client)


def test_the_admin_login_form_counts_unknown_names_too(client, backoff_clock):
    for _ in range(N):
        admin_login(client, "nobody", "wrong")
    assert THROTTLED_ON_ADMIN in admin_login(client, "nobody", "wrong").content.decode()


def test_the_async_authenticate_backs_off_too(backoff_clock):
    """Django's async `aauthenticate()` is another way in (no view uses it yet)."""
    from asgiref.sync import async_to_sync
    from django.contrib.auth import aauthenticate

    from pusoy_api.domain_errors import DomainError

    PlayerFactory(username="ana")
    for _ in range(N):
        assert async_to_sync(aauthenticate)(username="ana", password="wrong") is None
    with pytest.raises(DomainError) as refused:
        async_to_sync(aauthenticate)(username="ana", password=TEST_PASSWORD)
    assert refused.value.code == "throttled"
