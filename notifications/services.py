"""Writes of the event feed: events emitted inside the transaction of the change they
report (so an event exists iff its change committed), their recipients woken at commit;
stream tickets issued and spent. (Old events are purged with the rest:
games.services.retention.)"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.models import Game
from notifications import selectors
from notifications.models import Event, StreamTicket
from notifications.types import EventType
from players.models import Player
from push.services import push_events_publish
from pusoy_api.combined_writes import rows_insert_after
from pusoy_api.realtime.keys import player_key
from pusoy_api.realtime.notify import NOTIFY_CHANNEL, notifies_gathered, notify_keys
from webhooks.services import webhook_events_publish

if TYPE_CHECKING:
    from knox.models import AuthToken

# The first key of the feeds' advisory locks (the second is the player id): keeps them
# apart from any other advisory lock of the database.
FEED_LOCK_SPACE = 0x6576  # "ev"


@dataclass(frozen=True)
class _Emitted:
    game: Game
    type: EventType
    data: dict[str, Any]
    players: list[Any]


# The events of a write being gathered (``events_batched``), or None: written at once.
_batch: ContextVar[list[_Emitted] | None] = ContextVar("events_batch", default=None)


def events_emit(
    *,
    game: Game,
    type: EventType,
    data: Mapping[str, Any],
    recipients: Iterable[Any],
) -> None:
    """One event of `type` in the feed of each recipient (player ids; duplicates and
    None ignored), written with the caller's transaction; their feed waiters wake when it
    commits, and the webhooks that want them get them (webhooks.services). Inside
    ``events_batched`` the event is written with the batch's others at its end."""
    players = sorted({p for p in recipients if p is not None}, key=str)
    if not players:
        return
    emitted = _Emitted(game, type, dict(data), players)
    batch = _batch.get()
    if batch is not None:
        batch.append(emitted)
        return
    _events_write([emitted], [])


@contextmanager
def events_batched() -> Iterator[None]:
    """Gather the events a write emits, and the wake-ups it sends, and write them at the
    end (still inside the caller's transaction) in two round trips whatever their number:
    the feeds' locks with one NOTIFY for everything and one INSERT, sent together; the
    webhooks' read (plus their outbox INSERT when one matches). A move emits `move`,
    `your_turn`, and at a deal's end more: one round trip each would be most of a move's
    cost. Nested: the outer batch writes them. Usable as a decorator."""
    if _batch.get() is not None:
        yield
        return
    batch: list[_Emitted] = []
    with notifies_gathered() as keys:
        token = _batch.set(batch)
        try:
            yield
        finally:
            _batch.reset(token)
        if batch:
            _events_write(batch, keys)


def _events_write(batch: list[_Emitted], keys: list[str]) -> None:
    """Write the events of ``batch`` in emission order (ids rise in that order), waking
    their recipients' feed waiters and ``keys`` (which it empties) with one NOTIFY."""
    players = sorted({p for emitted in batch for p in emitted.players}, key=str)
    extra = [*dict.fromkeys(keys)]
    keys.clear()
    now = timezone.now()
    events = [
        Event(player_id=p, game=e.game, type=e.type, data=e.data, created_at=now)
        for e in batch
        for p in e.players
    ]
    _lock_feeds_notify_and_insert(players, extra, events)
    # In the same transaction: a webhook's or a push's outbox row exists exactly when its
    # event does.
    payloads = [event.payload() for event in events]
    webhook_events_publish(events=payloads)
    push_events_publish(events=payloads)


def _lock_feeds_notify_and_insert(players: list[Any], keys: list[str], events: list[Event]) -> None:
    """Readers page through a feed by `id > since`, so a feed must never gain an id below
    one already visible. Ids come from a sequence when rows are inserted, not when they
    commit: two transactions writing to one player's feed (two of their games) could
    commit in the other order and a reader between the commits would skip the first.
    A transaction-scoped advisory lock per recipient (keyed by a hash of the id: a
    collision only serializes two feeds), taken before the insert and in key order (so
    writers never deadlock on it), makes one feed's writers insert and commit
    one after the other. The NOTIFY of the same statement (the feeds' keys and ``keys``)
    is delivered at commit. The locks' statement and the events' INSERT go in one round
    trip, in that order (pusoy_api.combined_writes.rows_insert_after)."""
    if connection.vendor != "postgresql":
        notify_keys([*keys, *(player_key(p) for p in players)])  # SQLite serializes writes
        Event.objects.bulk_create(events)
        return
    rows_insert_after(
        "SELECT count(pg_advisory_xact_lock(%s, h)), "
        "pg_notify(%s, concat_ws(' ', %s, string_agg('player:' || p::text, ' '))) "
        "FROM (SELECT p, hashtext(p::text) AS h FROM unnest(%s::uuid[]) AS p ORDER BY h) "
        "AS recipients",
        [FEED_LOCK_SPACE, NOTIFY_CHANNEL, " ".join(keys) or None, [str(p) for p in players]],
        events,
    )


# --- Stream tickets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IssuedTicket:
    ticket: str
    expires_at: dt.datetime


def stream_ticket_issue(*, token: AuthToken) -> IssuedTicket:
    """A single-use ticket for `GET events/stream?ticket=`, valid STREAM_TICKET_SECONDS,
    standing in for `token` (the bearer token of the request that asked for it): it is
    deleted with that token, so logging out ends the tickets it took."""
    ticket = secrets.token_urlsafe(32)
    expires_at = timezone.now() + dt.timedelta(seconds=settings.STREAM_TICKET_SECONDS)
    StreamTicket.objects.create(
        digest=selectors.ticket_digest(ticket),
        player_id=token.user_id,
        token=token,
        expires_at=expires_at,
    )
    return IssuedTicket(ticket, expires_at)


@transaction.atomic
def stream_ticket_spend(*, ticket: str) -> Player:
    """The player a ticket was issued to; the ticket is spent. Refused (401
    `invalid_ticket`) when it is not good (selectors.stream_ticket_holder), also when a
    concurrent request has just spent it. Called only once the stream will be served."""
    now = timezone.now()
    found = (
        selectors.stream_tickets_good(now=now)
        .select_for_update(of=("self",))
        .select_related("player")
        .filter(digest=selectors.ticket_digest(ticket))
        .first()
    )
    if found is None:
        raise selectors.invalid_ticket()
    found.used_at = now
    found.save(update_fields=["used_at"])
    return found.player
