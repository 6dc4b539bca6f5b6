"""What is kept for a while only: stored answers to `Idempotency-Key` requests (they hold
the player's hand) are deleted once past their lifetime, and so are the players' feed
events (EVENTS_TTL_DAYS) and spent or expired stream tickets. Games are kept forever:
they are the audit trail."""

from __future__ import annotations

import datetime as dt
import uuid

from django.conf import settings
from django.utils import timezone

from games.models import IdempotentRequest
from notifications.models import Event, StreamTicket


def idempotency_key_ttl() -> dt.timedelta:
    return dt.timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS)


def idempotency_keys_purge(*, now: dt.datetime | None = None) -> int:
    """Delete stored answers older than the key lifetime; how many went."""
    cutoff = (now or timezone.now()) - idempotency_key_ttl()
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def events_ttl() -> dt.timedelta:
    return dt.timedelta(days=settings.EVENTS_TTL_DAYS)


def events_purge(*, now: dt.datetime | None = None) -> int:
    """Delete feed events older than EVENTS_TTL_DAYS, and stream tickets past their
    time; how many events went. (A client back after longer reads its games' state.)"""
    now = now or timezone.now()
    StreamTicket.objects.filter(expires_at__lt=now).delete()
    deleted, _ = Event.objects.filter(created_at__lt=now - events_ttl()).delete()
    return deleted


def player_records_delete(*, player_id: uuid.UUID) -> int:
    """A deleted account's own feed and stored answers go (games stay: the audit
    trail). How many rows went."""
    events, _ = Event.objects.filter(player_id=player_id).delete()
    answers, _ = IdempotentRequest.objects.filter(player_id=player_id).delete()
    return events + answers
