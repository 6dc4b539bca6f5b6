"""What each write on a game tells its players' event feeds (notifications): the
events, their public data and their recipients, emitted inside the write's transaction.

Recipients are the humans seated in the game (a resigned human still follows it), except
`your_turn` and `deadline_soon`, which go to the human whose turn it is (never to a
resigned seat: the AI plays it), and the invitation events, which go to the invitee and
to the inviter. Nothing here ever names a card of a hand: a move's data is the public
move (the cards played)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from games.models import Deal, Game, Invitation, Move, Seat, SeatStatus
from games.selectors import turn_deadline
from notifications import services as notifications
from notifications.types import EventType

P = ParamSpec("P")
R = TypeVar("R")


def batched(write: Callable[P, R]) -> Callable[P, R]:
    """A write whose events (and wake-ups) are written together at its end
    (notifications.services.events_batched; looked up at call time, since the two
    packages import each other)."""

    @functools.wraps(write)
    def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        with notifications.events_batched():
            return write(*args, **kwargs)

    return inner


def _humans(game: Game) -> list[Any]:
    return [s.player_id for s in game.seats.all() if s.player_id is not None]


def _seat_to_play(game: Game, deal: Deal) -> Seat | None:
    """The human seat whose turn it is, if a human (not the AI of a resigned seat) plays."""
    if deal.turn is None or deal.finished_at is not None:
        return None
    seat = next((s for s in game.seats.all() if s.position == deal.turn), None)
    if seat is None or seat.player_id is None or seat.status != SeatStatus.PLAYING:
        return None
    return seat


def _iso(moment: dt.datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def game_started(game: Game) -> None:
    """Before its first deal's `your_turn`."""
    timeout = game.turn_timeout.total_seconds() if game.turn_timeout else None
    notifications.events_emit(
        game=game,
        type=EventType.GAME_STARTED,
        data={"seats": game.num_seats, "turn_timeout": timeout},
        recipients=_humans(game),
    )


def move_made(game: Game, deal: Deal, move: Move) -> None:
    notifications.events_emit(
        game=game,
        type=EventType.MOVE,
        data={
            "deal": deal.number,
            "seq": move.seq,
            "seat": move.seat,
            "action": move.action,
            "cards": list(move.cards),
        },
        recipients=_humans(game),
    )


def turn_announce(game: Game, deal: Deal) -> None:
    """`your_turn` to the human now to play (nothing when an AI plays the seat)."""
    _to_seat_to_play(game, deal, EventType.YOUR_TURN)


def deadline_soon(game: Game, deal: Deal) -> bool:
    """`deadline_soon` to the human to play; False if no human is to play."""
    return _to_seat_to_play(game, deal, EventType.DEADLINE_SOON)


def _to_seat_to_play(game: Game, deal: Deal, type: EventType) -> bool:
    """An event about the turn to the human whose turn it is; False if none is."""
    seat = _seat_to_play(game, deal)
    if seat is None:
        return False
    notifications.events_emit(
        game=game,
        type=type,
        data={
            "deal": deal.number,
            "seq": deal.seq,
            "seat": seat.position,
            "deadline": _iso(turn_deadline(game, deal)),
        },
        recipients=[seat.player_id],
    )
    return True


def deal_ended(game: Game, deal: Deal) -> None:
    notifications.events_emit(
        game=game,
        type=EventType.DEAL_FINISHED,
        data={
            "deal": deal.number,
            "winner": deal.winner,
            "points": deal.points,
            "places": deal.places,
            "scores": [s.score for s in game.seats.all()],
        },
        recipients=_humans(game),
    )


def game_ended(game: Game) -> None:
    notifications.events_emit(
        game=game,
        type=EventType.GAME_FINISHED,
        data={
            "ranking": game.ranking,
            "winner_seat": game.winner_seat,
            "scores": [s.score for s in game.seats.all()],
        },
        recipients=_humans(game),
    )


def game_abandoned(game: Game) -> None:
    notifications.events_emit(
        game=game, type=EventType.ABANDONED, data={}, recipients=_humans(game)
    )


def seat_resigned(game: Game, seat: Seat) -> None:
    notifications.events_emit(
        game=game,
        type=EventType.RESIGNED,
        data={"seat": seat.position},
        recipients=_humans(game),
    )


def invited(game: Game, invitation: Invitation) -> None:
    notifications.events_emit(
        game=game,
        type=EventType.INVITED,
        data={
            "invitation": str(invitation.pk),
            "seat": invitation.seat,
            "invited_by": invitation.invited_by.username,
            "expires_at": _iso(invitation.expires_at),
        },
        recipients=[invitation.invitee_id],
    )


def invitation_answered(game: Game, invitation: Invitation) -> None:
    notifications.events_emit(
        game=game,
        type=EventType.INVITATION_ANSWERED,
        data={
            "invitation": str(invitation.pk),
            "seat": invitation.seat,
            "invitee": invitation.invitee.username,
            "status": invitation.status,
        },
        recipients=[invitation.invited_by_id],
    )
