"""Taking a seat, and the start that the last human seat taken sets off."""

from __future__ import annotations

from django.utils import timezone

from games.models import Game, GameStatus, Seat, SeatStatus
from games.services import feed
from games.services.deals import deal_start
from games.services.game_row import game_touch
from players.models import Player


def seat_take(game: Game, seat: Seat, player: Player) -> None:
    """`player` sits in `seat` of `game` (whose row the caller has locked); the last
    human seat taken starts the game."""
    seat.player = player
    seat.joined_at = timezone.now()
    seat.status = SeatStatus.PLAYING
    seat.save(update_fields=["player", "joined_at", "status"])
    if all(s.ai_level or s.player_id is not None for s in game.seats.all()):
        game_start(game)
    else:
        game_touch(game)


def game_start(game: Game) -> None:
    """Deal the first deal from a fresh secret seed; the seed's commitment is public."""
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    feed.game_started(game)
    deal_start(game, leader=None)
    game_touch(game, "status", "started_at", "current_deal_number")
