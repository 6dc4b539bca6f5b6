"""The feed is kept for a while only: events older than EVENTS_TTL_DAYS, and spent or
expired stream tickets, are deleted (a client back after longer reads its games' state)."""

from __future__ import annotations

import datetime as dt
import uuid

from django.conf import settings
from django.utils import timezone

from notifications.models import Event, StreamTicket


def events_ttl() -> dt.timedelta:
    return dt.timedelta(days=settings.EVENTS_TTL_DAYS)


def events_purge(*, now: dt.datetime | None = None) -> int:
    """Delete feed events older than EVENTS_TTL_DAYS, and stream tickets past their
    time; how many events went."""
    now = now or timezone.now()
    StreamTicket.objects.filter(expires_at__lt=now).delete()
    deleted, _ = Event.objects.filter(created_at__lt=now - events_ttl()).delete()
    return deleted


def player_events_delete(*, player_id: uuid.UUID) -> int:
    """A deleted account's own feed goes. How many events."""
    deleted, _ = Event.objects.filter(player_id=player_id).delete()
    return deleted
