"""When a failed delivery is tried again: exponential backoff with full jitter, for a day.

Attempt 1 goes out as soon as the event's transaction commits. After failed attempt k the
next one waits a random time in [0, cap(k)], cap(k) = min(max, base * 6**(k-1)); with the
production settings (base 5 s, max 2 h) the caps are 5 s, 30 s, 3 min, 18 min, 1 h 48 min,
then 2 h for every later retry. Full jitter spreads the retries of many events that failed
together (a receiver that was down) instead of sending them back in waves.

Retrying stops at the first failed attempt made once the retry window (24 h) has passed
since the event was published: an event is retried for at least the whole window, about
30 attempts on average with the production settings (at least 17).
"""

from __future__ import annotations

import datetime as dt
import random

from django.conf import settings

GROWTH = 6


def retry_cap(attempt: int, *, base: float, maximum: float) -> float:
    """The longest wait after failed attempt `attempt` (1-based)."""
    # min() before the power would overflow: the exponent stops mattering past the cap.
    exponent = min(attempt - 1, 32)
    return min(maximum, base * GROWTH**exponent)


def retry_delay(
    attempt: int,
    *,
    base: float | None = None,
    maximum: float | None = None,
    rng: random.Random | None = None,
) -> float:
    """Seconds to wait after failed attempt `attempt` before the next one."""
    cap = retry_cap(
        attempt,
        base=settings.WEBHOOK_RETRY_BASE_SECONDS if base is None else base,
        maximum=settings.WEBHOOK_RETRY_MAX_SECONDS if maximum is None else maximum,
    )
    return (rng or random).uniform(0, cap)


def retry_window() -> dt.timedelta:
    return dt.timedelta(seconds=settings.WEBHOOK_RETRY_WINDOW_SECONDS)


def gives_up(*, published_at: dt.datetime, failed_at: dt.datetime) -> bool:
    """True when a failure at `failed_at` is the event's last: its window has passed."""
    return failed_at - published_at >= retry_window()
