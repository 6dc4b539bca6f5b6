"""Playing games through the services directly (no HTTP), for service-level tests."""

from __future__ import annotations

import random
from typing import Any

from games import services
from games.engine import DealState, Move, format_cards
from games.models import Deal, Game
from games.models import Move as MoveRow
from players.models import Player


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
        if seat.is_ai:
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
