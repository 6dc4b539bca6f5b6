"""The retry schedule with the production settings: first retry within 10 s, retries for
at least 24 hours, every wait inside its jitter bounds."""

from __future__ import annotations

import datetime as dt
import random
import statistics

import pytest
from django.test import override_settings

from webhooks.schedule import gives_up, retry_cap, retry_delay

PRODUCTION = {
    "WEBHOOK_RETRY_BASE_SECONDS": 5.0,
    "WEBHOOK_RETRY_MAX_SECONDS": 7200.0,
    "WEBHOOK_RETRY_WINDOW_SECONDS": 86400.0,
}
T0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def run_until_given_up(rng: random.Random) -> tuple[int, float, list[float]]:
    """Attempts made, seconds from the event to the last one, and the waits, for an
    event that fails every time."""
    elapsed, attempt, waits = 0.0, 1, []
    while not gives_up(published_at=T0, failed_at=T0 + dt.timedelta(seconds=elapsed)):
        wait = retry_delay(attempt, rng=rng)
        waits.append(wait)
        elapsed += wait
        attempt += 1
    return attempt, elapsed, waits


@override_settings(**PRODUCTION)
def test_the_caps_are_the_documented_ones():
    caps = [retry_cap(n, base=5, maximum=7200) for n in range(1, 9)]
    assert caps == [5, 30, 180, 1080, 6480, 7200, 7200, 7200]
    assert retry_cap(10_000, base=5, maximum=7200) == 7200  # no overflow however late


@override_settings(**PRODUCTION)
@pytest.mark.parametrize("seed", range(20))
def test_first_retry_within_10_s_retries_for_a_day_waits_inside_their_bounds(seed):
    rng = random.Random(seed)
    attempts, elapsed, waits = run_until_given_up(rng)
    assert waits[0] <= 10
    assert elapsed >= 24 * 3600
    for n, wait in enumerate(waits, start=1):
        assert 0 <= wait <= retry_cap(n, base=5, maximum=7200)
    # The last retry came at most one cap (2 h) after the window closed.
    assert elapsed < 24 * 3600 + 7200
    assert 17 <= attempts <= 60


@override_settings(**PRODUCTION)
def test_the_waits_are_spread_full_jitter_not_fixed():
    rng = random.Random(7)
    firsts = [retry_delay(1, rng=rng) for _ in range(2000)]
    assert min(firsts) < 0.5
    assert max(firsts) > 4.5
    assert 2.2 < statistics.mean(firsts) < 2.8
    attempts = [run_until_given_up(random.Random(seed))[0] for seed in range(200)]
    assert 26 <= statistics.mean(attempts) <= 33  # "about 30" (docs/api.md)


@override_settings(**PRODUCTION)
def test_the_window_decides_when_to_give_up():
    assert not gives_up(published_at=T0, failed_at=T0 + dt.timedelta(hours=23, minutes=59))
    assert gives_up(published_at=T0, failed_at=T0 + dt.timedelta(hours=24))
