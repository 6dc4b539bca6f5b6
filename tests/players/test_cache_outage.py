"""While the cache (Redis) is down, rate limits fail open: requests are answered, not
500s, and the log says so, without flooding."""

from __future__ import annotations

import logging

import pytest
from django.core.cache.backends.base import BaseCache
from django.test import override_settings

from players import login_backoff
from pusoy_api import cache as fail_open
from tests.factories import TEST_PASSWORD, PlayerFactory

pytestmark = pytest.mark.django_db

REDIS_DOWN = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


class BrokenCache(BaseCache):
    """A backend whose every call fails, as a client library does when the server is gone."""

    def __init__(self, location, params):
        super().__init__(params)

    def __getattribute__(self, name):
        if name in {"get", "get_many", "set", "add", "delete", "incr", "touch", "clear"}:
            raise ConnectionError("cache server gone")
        return super().__getattribute__(name)


BROKEN = {"default": {"BACKEND": f"{__name__}.BrokenCache"}}


@pytest.fixture
def fresh_warning(monkeypatch):
    """A warning limiter that has not warned yet in this process."""
    monkeypatch.setattr(fail_open, "warn", fail_open.RateLimitedWarning(fail_open.WARN_EVERY))


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@override_settings(CACHES=BROKEN)
def test_every_operation_answers_as_if_nothing_was_recorded(fresh_warning):
    cache = fail_open.FailOpenCache()
    assert cache.get("k") is None
    assert cache.get("k", []) == []
    assert cache.add("k", 1, 10) is True  # a claim goes ahead
    assert cache.set("k", 1, 10) is None


@override_settings(CACHES=BROKEN)
def test_errors_are_logged_at_most_once_per_interval(monkeypatch, caplog):
    ticks = Ticks()
    monkeypatch.setattr(fail_open, "warn", fail_open.RateLimitedWarning(30, clock=ticks))
    cache = fail_open.FailOpenCache()
    with caplog.at_level(logging.WARNING, logger="pusoy_api.cache"):
        for _ in range(5):
            cache.get("k")
        ticks.now = 29.9
        cache.get("k")
        ticks.now = 30.0
        cache.set("k", 1, 10)
    lines = [r.getMessage() for r in caplog.records if r.name == "pusoy_api.cache"]
    assert len(lines) == 2
    assert "ConnectionError" in lines[0]
    assert "fail open" in lines[0]
    assert "5 more cache errors" in lines[1]


@override_settings(CACHES=REDIS_DOWN)
def test_sign_up_log_in_and_game_writes_work_while_redis_is_down(api_client, fresh_warning, caplog):
    with caplog.at_level(logging.WARNING, logger="pusoy_api.cache"):
        registered = api_client.post(
            "/api/v1/auth/register", {"username": "ana", "password": TEST_PASSWORD}, format="json"
        )
        wrong = api_client.post(
            "/api/v1/auth/token", {"username": "ana", "password": "nope"}, format="json"
        )
        right = api_client.post(
            "/api/v1/auth/token", {"username": "ana", "password": TEST_PASSWORD}, format="json"
        )
        api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {right.json()['token']}")
        game = api_client.post(
            "/api/v1/games", {"seats": [{"type": "human"}, {"type": "human"}]}, format="json"
        )
    assert (registered.status_code, wrong.status_code, right.status_code) == (201, 401, 200)
    assert game.status_code == 201
    warnings = [r for r in caplog.records if r.name == "pusoy_api.cache"]
    assert len(warnings) == 1
    assert warnings[0].levelno == logging.WARNING


@override_settings(CACHES=BROKEN)
def test_login_backoff_fails_open(api_client, fresh_warning):
    """With no memory of failures, every attempt is checked: none is refused."""
    PlayerFactory(username="ana")
    codes = [
        api_client.post(
            "/api/v1/auth/token", {"username": "ana", "password": "nope"}, format="json"
        ).status_code
        for _ in range(login_backoff.FREE_FAILURES + 2)
    ]
    assert codes == [401] * (login_backoff.FREE_FAILURES + 2)
