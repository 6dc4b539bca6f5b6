"""What a write on a game does once it commits: wake long-polling clients, queue the
next AI turn. Both happen only at commit (never for a write that rolls back)."""

from __future__ import annotations

from games.models import Deal, Game
from pusoy_api import task_queue
from pusoy_api.realtime.keys import game_key
from pusoy_api.realtime.notify import notify_keys


def notify_waiters(game: Game) -> None:
    """Wake the game's long-polling clients in every web process."""
    notify_keys([game_key(game.pk)])


def queue_ai_turn_on_commit(game: Game, deal: Deal) -> None:
    """Queue the AI's move when an AI plays the seat to play (an AI seat, or one whose
    human resigned), once this transaction commits."""
    if deal.turn is None:
        return
    seat = next(s for s in game.seats.all() if s.position == deal.turn)
    if seat.acting_ai_level is None:
        return
    task_queue.enqueue_on_commit("games.ai_move", str(game.pk), deal.number, deal.seq)
