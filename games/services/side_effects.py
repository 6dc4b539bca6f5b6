"""What a write on a game does once it commits: wake long-polling clients, queue the
next AI turn. Both happen only at commit (never for a write that rolls back)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection

from games.dispatch import enqueue_on_commit
from games.models import Deal, Game

NOTIFY_CHANNEL = "pusoy_moves"


def notify_waiters(game: Game) -> None:
    """Wake the game's long-polling clients in every web process."""
    notify_keys([f"game:{game.pk}"])


def notify_keys(keys: Iterable[str]) -> None:
    """Wake the waiters of `keys` (games.longpoll: `game:<uuid>`, `player:<id>`) in every
    web process, with one notification. NOTIFY is transactional in PostgreSQL: it is
    delivered at commit, and never for a write that rolls back."""
    payload = " ".join(keys)
    if payload and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, payload])


def queue_ai_turn_on_commit(game: Game, deal: Deal) -> None:
    """Queue the AI's move when an AI plays the seat to play (an AI seat, or one whose
    human resigned), once this transaction commits."""
    if deal.turn is None:
        return
    seat = next(s for s in game.seats.all() if s.position == deal.turn)
    if seat.bot_level is None:
        return
    from games.tasks import ai_move  # tasks call services: import at use, not at load

    enqueue_on_commit(ai_move, str(game.pk), deal.number, deal.seq)
