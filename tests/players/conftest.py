"""Fixtures for auth tests: a fresh cache, a clock the test moves, per-IP rates."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle and backoff state lives in the (per-process) cache: no test sees
    another's."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def backoff_clock(monkeypatch):
    """The login backoff's clock, moved by the test instead of waiting."""
    from players import login_backoff

    clock = FakeClock()
    monkeypatch.setattr(login_backoff, "clock", clock)
    return clock


@pytest.fixture
def auth_rate(monkeypatch):
    """Set the per-IP auth rate (DRF reads rates into the class at import)."""
    from players.throttles import AuthRateThrottle

    def set_rate(rate: str) -> None:
        monkeypatch.setattr(AuthRateThrottle, "THROTTLE_RATES", {"auth": rate})

    return set_rate
