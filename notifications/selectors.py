"""Reads of the event feed, and of the stream tickets that stand in for a token."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from notifications.models import Event, StreamTicket
from notifications.types import EventPayload
from players.models import Player
from pusoy_api.domain_errors import DomainError, ErrorCode

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


def ticket_digest(ticket: str) -> str:
    """What is stored of a ticket (never the ticket)."""
    return hashlib.sha256(ticket.encode()).hexdigest()


def stream_tickets_good(*, now: dt.datetime) -> QuerySet[StreamTicket]:
    """Tickets that may open a stream at `now`: not spent, not expired, their player
    active, and the token that took them not expired (a deleted token took its tickets
    with it)."""
    return StreamTicket.objects.filter(
        Q(token__expiry__isnull=True) | Q(token__expiry__gt=now),
        used_at__isnull=True,
        expires_at__gt=now,
        player__is_active=True,
    )


def invalid_ticket() -> DomainError:
    return DomainError(ErrorCode.INVALID_TICKET, "The ticket is unknown, used or expired.")


def stream_ticket_holder(*, ticket: str) -> Player:
    """The player a good ticket stands for, without spending it (a request is checked
    in full before its ticket is spent); 401 `invalid_ticket` for any other."""
    found = (
        stream_tickets_good(now=timezone.now())
        .select_related("player")
        .filter(digest=ticket_digest(ticket))
        .first()
    )
    if found is None:
        raise invalid_ticket()
    return found.player
