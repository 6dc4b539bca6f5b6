"""What is kept for a while only: stored answers to `Idempotency-Key` requests (they hold
the player's hand) are deleted once past their lifetime. Games are kept forever: they are
the audit trail. (The feed's and the webhooks' retention are their apps'.)"""

from __future__ import annotations

import datetime as dt
import uuid

from django.conf import settings
from django.utils import timezone

from games.models import IdempotentRequest


def idempotency_key_ttl() -> dt.timedelta:
    return dt.timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS)


def idempotency_keys_purge(*, now: dt.datetime | None = None) -> int:
    """Delete stored answers older than the key lifetime; how many went."""
    cutoff = (now or timezone.now()) - idempotency_key_ttl()
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def player_answers_delete(*, player_id: uuid.UUID) -> int:
    """A deleted account's stored answers go (games stay: the audit trail). How many."""
    deleted, _ = IdempotentRequest.objects.filter(player_id=player_id).delete()
    return deleted
