"""Reads of the event feed."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from notifications.models import Event
from notifications.types import EventPayload

# The most events one answer (or one read of the stream) carries; the client continues
# with `since=last_id`.
PAGE_SIZE = 100


def events_after(*, player_id: Any, since: int, limit: int = PAGE_SIZE) -> list[EventPayload]:
    """The player's events with an id after `since`, oldest first, at most `limit`."""
    rows = Event.objects.filter(player_id=player_id, id__gt=since).order_by("id")[:limit]
    return [event.payload() for event in rows]


def last_event_id(*, player_id: Any) -> int:
    """The id of the player's newest event, 0 with none (where a new stream starts)."""
    found = Event.objects.filter(player_id=player_id).aggregate(last=Max("id"))["last"]
    return int(found or 0)
