"""When a push is tried again: the webhooks' backoff (exponential, full jitter) on the
push settings, and never sooner than the provider's Retry-After."""

from __future__ import annotations

import random

from django.conf import settings

from webhooks.schedule import retry_cap


def retry_delay(
    attempt: int, *, retry_after: float | None = None, rng: random.Random | None = None
) -> float:
    """Seconds to wait after failed attempt `attempt` before the next one."""
    cap = retry_cap(
        attempt, base=settings.PUSH_RETRY_BASE_SECONDS, maximum=settings.PUSH_RETRY_MAX_SECONDS
    )
    delay = (rng or random).uniform(0, cap)
    if retry_after is not None:
        # The provider said when: sooner would be refused again (and counts against us).
        delay = max(delay, min(retry_after, settings.PUSH_RETRY_MAX_SECONDS))
    return delay
