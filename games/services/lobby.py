"""Creating a game and taking its seats; the game starts when its last human seat is taken.

Each write: lock (the game row), check, change, and its side effects on commit.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.ai import LEVELS
from games.engine import EngineError, Rules
from games.errors import domain_error
from games.models import Game, GameStatus, Seat
from games.services.deals import deal_start
from games.services.game_row import game_locked, game_touch
from players.models import Player
from pusoy_api.domain_errors import DomainError, ErrorCode


@dataclass(frozen=True)
class SeatSpec:
    """One seat asked for at creation: a human seat, or an AI of a level."""

    type: str  # "human" | "ai"
    level: str = ""


@transaction.atomic
def game_create(
    *,
    creator: Player,
    seats: Sequence[SeatSpec],
    rules: Any = None,
    target_deals: int | None = None,
    target_score: int | None = None,
    turn_timeout: dt.timedelta | None = None,
) -> Game:
    """A new game; the creator takes the first human seat. With no other human seat the
    game starts at once."""
    try:
        resolved = Rules.from_spec(rules)
    except EngineError as exc:
        raise domain_error(exc) from exc
    if not 2 <= len(seats) <= 4:
        raise DomainError(
            ErrorCode.INVALID_SEATS, "A game has 2 to 4 seats.", details={"seats": len(seats)}
        )
    humans = [i for i, spec in enumerate(seats) if spec.type == "human"]
    if not humans:
        raise DomainError(
            ErrorCode.NO_HUMAN_SEAT,
            "At least one seat must be human (the creator's).",
        )
    for spec in seats:
        if spec.type == "ai" and spec.level not in LEVELS:
            raise DomainError(
                ErrorCode.INVALID_SEATS,
                f"Unknown AI level {spec.level!r}.",
                details={"allowed": list(LEVELS)},
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
    if len(humans) == 1:
        game_start(game)
    return game


@transaction.atomic
def game_join(*, game_id: uuid.UUID, player: Player, seat: int | None = None) -> Game:
    game = game_locked(game_id)
    seats = list(game.seats.all())
    if any(s.player_id == player.pk for s in seats):
        raise DomainError(ErrorCode.ALREADY_JOINED, "You already have a seat in this game.")
    if game.status != GameStatus.WAITING:
        raise DomainError(ErrorCode.GAME_NOT_OPEN, "This game is not taking players.")
    free = [s for s in seats if not s.is_ai and s.player_id is None]
    if seat is None:
        chosen = free[0]  # a waiting game has one: it starts when its last one is taken
    else:
        if not 0 <= seat < len(seats):
            raise DomainError(
                ErrorCode.INVALID_SEAT,
                f"Seats are 0 to {len(seats) - 1}.",
                details={"seat": seat},
            )
        chosen = seats[seat]
        if chosen.is_ai or chosen.player_id is not None:
            raise DomainError(ErrorCode.SEAT_TAKEN, f"Seat {seat} is taken.")
    chosen.player = player
    chosen.joined_at = timezone.now()
    chosen.save(update_fields=["player", "joined_at"])
    if len(free) == 1:
        game_start(game)
    else:
        game_touch(game)
    return game


def game_start(game: Game) -> None:
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    deal_start(game, leader=None)
    game_touch(game, "status", "started_at", "current_deal_number")
