"""Playing games through the services directly (no HTTP), for service-level tests."""

from __future__ import annotations

import random
from typing import Any

from games import services
from games.models import Deal, Game
from games.models import Move as MoveRow
from players.models import Player
from pusoy.engine import DealState, Move, format_cards
from tests.factories import HUMAN, game_with_seats

# Seat 0 leads 3C, the others pass, and seat 0 goes out with a pair of deuces: 4 points
# under deuces-double; the others keep 2, 3 and 4 of the 2, 3 and 4 cards dealt to them.
OUT_ON_TWO_DEUCES = ["3C 2S 2H", "4S 5S", "6H 7H 8H", "9D TD JD QD"]
SEAT_0_GOES_OUT = [(0, "3C"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "2S 2H")]
# Seat 1 holds the opening card and leads.
SEAT_1_LEADS = ["4S 5S", "3C 6H", "7H 8H", "9D TD"]


def game_an_ai_leads() -> Game:
    """A human (seat 0) and three AI seats, in a deal seat 1 (random) is to lead."""
    return game_with_seats([HUMAN, "random", "greedy", "random"], dealt_hands=SEAT_1_LEADS)


def current_deal_of(game: Game) -> Deal:
    return Deal.objects.get(game=game, number=Game.objects.get(pk=game.pk).current_deal_number)


def engine_state(deal: Deal) -> DealState:
    """The engine state the deal's cached snapshot holds."""
    return DealState.from_dict(deal.snapshot)


def player_at(game: Game, position: int) -> Player:
    return game.seats.get(position=position).player


def submit(game: Game, seat: int, text: str, **extra: Any) -> services.MoveOutcome:
    """The human at `seat` makes the move `text` ("3C", "2S 2H" or "pass")."""
    move = Move.parse(text)
    return services.move_submit(
        game_id=game.pk,
        player=player_at(game, seat),
        action=move.action,
        cards=format_cards(move.cards) or None,
        **extra,
    )


def submit_all(game: Game, moves: list[tuple[int, str]]) -> services.MoveOutcome:
    """Several moves in a row; the last one's outcome."""
    outcome = None
    for seat, text in moves:
        outcome = submit(game, seat, text)
    assert outcome is not None
    return outcome


def play_until_finished(game: Game, rng: random.Random, max_moves: int = 5000) -> int:
    """Random legal moves until the match is over: humans through `move_submit`, AI
    seats through `move_submit_for_seat`, as their tasks would. The number of moves."""
    seats = {s.position: s for s in game.seats.all()}
    moves = 0
    while (game := Game.objects.get(pk=game.pk)).status == "active":
        deal = current_deal_of(game)
        move = rng.choice(engine_state(deal).legal_moves())
        cards = format_cards(move.cards) or None
        seat = seats[deal.turn]
        if seat.ai_level:
            applied = services.move_submit_for_seat(
                game_id=game.pk,
                deal_number=deal.number,
                expected_seq=deal.seq,
                seat=deal.turn,
                action=move.action,
                cards=cards,
                actor=f"ai:{seat.ai_level}",
            )
            assert applied is not None
        else:
            services.move_submit(
                game_id=game.pk, player=seat.player, action=move.action, cards=cards
            )
        moves += 1
        assert moves < max_moves
    return moves


def stored(game: Game) -> tuple[Any, ...]:
    """Everything a write on `game` may change, as stored: a refused write leaves it equal."""
    game = Game.objects.get(pk=game.pk)
    seats = list(game.seats.order_by("position").values_list("player_id", "score", "joined_at"))
    player_ids = [player_id for player_id, *_ in seats if player_id is not None]
    return (
        (game.status, game.version, game.current_deal_number, game.winner_seat),
        seats,
        list(
            game.deals.order_by("number").values_list(
                "seq", "turn", "chain_head", "snapshot", "winner", "points", "finished_at"
            )
        ),
        list(MoveRow.objects.filter(deal__game=game).values_list("pk", flat=True)),
        list(
            Player.objects.filter(pk__in=player_ids)
            .order_by("pk")
            .values_list("games_played", "games_won", "deals_played", "deals_won", "points")
        ),
    )
