"""Before the first card: creating a game (public or private, with seats reserved for
invited players), taking a seat, and asking for a rematch after a game ends. A game
starts when its last human seat is taken.

Each write: lock (the game row), check, change, and its side effects on commit.
"""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.errors import domain_error
from games.models import Game, GameStatus, Invitation, Seat, Visibility
from games.selectors import game_visible, invite_code_matches
from games.services.game_row import game_locked, game_touch
from games.services.invitations import (
    invitation_accepted,
    invitations_reserve,
    live_invitations,
    players_named,
)
from games.services.seating import game_start, seat_take
from players.models import Player
from pusoy.ai import LEVELS
from pusoy.engine import EngineError, Rules
from pusoy_api.domain_errors import DomainError, ErrorCode


@dataclass(frozen=True)
class SeatSpec:
    """One seat asked for at creation: a human seat, or an AI of a level."""

    type: str  # "human" | "ai"
    level: str = ""


@dataclass(frozen=True)
class Rematch:
    """The game that follows a finished one; `created` is False when it already existed."""

    game: Game
    created: bool


@transaction.atomic
def game_create(
    *,
    creator: Player,
    seats: Sequence[SeatSpec],
    rules: Any = None,
    target_deals: int | None = None,
    target_score: int | None = None,
    turn_timeout: dt.timedelta | None = None,
    visibility: str = Visibility.PUBLIC,
    invite: Sequence[str] = (),
    hints: bool = False,
    rated: bool | None = None,
) -> Game:
    """A new game; the creator takes the first human seat, and the next human seats are
    reserved for the invited players, in order. With no other human seat the game
    starts at once."""
    try:
        resolved = Rules.from_spec(rules)
    except EngineError as exc:
        raise domain_error(exc) from exc
    _check_seats(seats)
    if hints and rated:
        raise DomainError(ErrorCode.RATED_WITH_HINTS, "A game with hints is never rated.")
    invitees = players_named(invite, inviter=creator)
    humans = [i for i, spec in enumerate(seats) if spec.type == "human"]
    if len(invitees) > len(humans) - 1:
        raise DomainError(
            ErrorCode.INVALID_INVITEE,
            f"{len(invitees)} invitees for {len(humans) - 1} open seats.",
            details={"invitees": len(invitees), "open_seats": len(humans) - 1},
        )
    if target_deals is None and target_score is None:
        target_deals = 1
    game = Game.objects.create(
        created_by=creator,
        rules=resolved.to_dict(),
        target_deals=target_deals,
        target_score=target_score,
        turn_timeout=turn_timeout,
        num_seats=len(seats),
        visibility=visibility,
        invite_code=secrets.token_urlsafe(12) if visibility == Visibility.PRIVATE else "",
        hints=hints,
        rated=not hints if rated is None else rated,
    )
    now = timezone.now()
    Seat.objects.bulk_create(
        Seat(
            game=game,
            position=i,
            player=creator if i == humans[0] else None,
            joined_at=now if i == humans[0] else None,
            ai_level=spec.level if spec.type == "ai" else "",
        )
        for i, spec in enumerate(seats)
    )
    invitations_reserve(game, inviter=creator, invitees=invitees, seats=humans[1:])
    if len(humans) == 1:
        game_start(game)
    return game


def _check_seats(seats: Sequence[SeatSpec]) -> None:
    if not 2 <= len(seats) <= 4:
        raise DomainError(
            ErrorCode.INVALID_SEATS, "A game has 2 to 4 seats.", details={"seats": len(seats)}
        )
    if not any(spec.type == "human" for spec in seats):
        raise DomainError(
            ErrorCode.NO_HUMAN_SEAT, "At least one seat must be human (the creator's)."
        )
    for spec in seats:
        if spec.type == "ai" and spec.level not in LEVELS:
            raise DomainError(
                ErrorCode.INVALID_SEATS,
                f"Unknown AI level {spec.level!r}.",
                details={"allowed": list(LEVELS)},
            )


@transaction.atomic
def game_join(
    *,
    game_id: uuid.UUID,
    player: Player,
    seat: int | None = None,
    invite_code: str | None = None,
) -> Game:
    """Take a seat of a waiting game: the one reserved for you by an invitation (this
    accepts it), else a free one, which in a private game needs its invite code. Seats
    reserved for other invited players are not free."""
    game = game_locked(game_id)  # not only as `player` sees it: the invite code opens it too
    admitted = invite_code_matches(invite_code, game.invite_code)
    if not admitted and not game_visible(game_id=game.pk, viewer=player):
        # Answered as an unknown game: only the code itself reveals a private one.
        raise DomainError(ErrorCode.NOT_FOUND, "No such game.")
    seats = list(game.seats.all())
    invitations = live_invitations(game)
    mine = next((i for i in invitations if i.invitee_id == player.pk), None)
    if any(s.player_id == player.pk for s in seats):
        raise DomainError(ErrorCode.ALREADY_JOINED, "You already have a seat in this game.")
    if game.status != GameStatus.WAITING:
        raise DomainError(ErrorCode.GAME_NOT_OPEN, "This game is not taking players.")
    if mine is not None:
        invitation_accepted(game, mine)
        return game
    chosen = _free_seat(seats, invitations, seat)
    seat_take(game, chosen, player)
    return game


def _free_seat(seats: list[Seat], invitations: list[Invitation], asked: int | None) -> Seat:
    reserved = {invitation.seat for invitation in invitations}
    free = [s for s in seats if not s.ai_level and s.player_id is None]
    if asked is None:
        open_seats = [s for s in free if s.position not in reserved]
        if not open_seats:
            raise DomainError(ErrorCode.GAME_FULL, "Every open seat is reserved.")
        return open_seats[0]
    if not 0 <= asked < len(seats):
        raise DomainError(
            ErrorCode.INVALID_SEAT, f"Seats are 0 to {len(seats) - 1}.", details={"seat": asked}
        )
    chosen = seats[asked]
    if chosen not in free or asked in reserved:
        raise DomainError(ErrorCode.SEAT_TAKEN, f"Seat {asked} is taken or reserved.")
    return chosen


@transaction.atomic
def game_rematch(*, game_id: uuid.UUID, player: Player) -> Rematch:
    """The next game after a finished one: the same rules, seats, AI levels, target,
    time limit and visibility; the requester sits where they sat and the other humans
    are invited to theirs. Asked for again (by anyone), the same game is the answer."""
    game = game_locked(game_id, viewer=player)
    seats = list(game.seats.all())
    if not any(s.player_id == player.pk for s in seats):
        raise DomainError(ErrorCode.NOT_A_PARTICIPANT, "You had no seat in this game.")
    if game.status != GameStatus.FINISHED:
        raise DomainError(ErrorCode.GAME_NOT_FINISHED, f"The game is {game.status}.")
    if game.rematch is not None:
        return Rematch(game.rematch, created=False)
    following = Game.objects.create(
        created_by=player,
        rules=game.rules,
        target_deals=game.target_deals,
        target_score=game.target_score,
        turn_timeout=game.turn_timeout,
        num_seats=game.num_seats,
        visibility=game.visibility,
        invite_code=secrets.token_urlsafe(12) if game.visibility == Visibility.PRIVATE else "",
        hints=game.hints,
        rated=game.rated,
    )
    now = timezone.now()
    Seat.objects.bulk_create(
        Seat(
            game=following,
            position=s.position,
            player=player if s.player_id == player.pk else None,
            joined_at=now if s.player_id == player.pk else None,
            ai_level=s.ai_level,
        )
        for s in seats
    )
    others = [s for s in seats if s.player is not None and s.player_id != player.pk]
    invitations_reserve(
        following,
        inviter=player,
        invitees=[s.player for s in others if s.player is not None],
        seats=[s.position for s in others],
    )
    game.rematch = following
    game_touch(game, "rematch")
    if not others:
        game_start(following)
    return Rematch(following, created=True)
