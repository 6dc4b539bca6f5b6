"""Moves: a human's, and the ones the server makes for a seat (an AI, an expired turn).

A move locks its game's row, so the moves of one game are applied one at a time; it is
checked by the engine, stored with its hash-chain link, and may end the deal and the
match. Refusals raise DomainError and change nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import partial

from django.db import transaction
from django.utils import timezone

from games.chain import chain_next, move_canonical_json
from games.deal_cache import deal_current, deal_keep_on_commit
from games.errors import domain_error
from games.models import Deal, Game, GameStatus, Move, SeatStatus
from games.selectors import participant_seat
from games.services import feed
from games.services.deals import deal_finished, deal_score
from games.services.exits import game_abandon, humans_still_playing
from games.services.game_row import game_locked, game_touch
from games.services.side_effects import queue_ai_turn_on_commit
from players.models import Player
from pusoy.engine import DealState, EngineError, Play, format_cards
from pusoy_api import metrics
from pusoy_api.domain_errors import DomainError, ErrorCode


@dataclass(frozen=True)
class MoveOutcome:
    """What a human's move did, in the transaction's final state: the move, the game
    (seats and scores as they now are), the deal now in play with its engine state (the
    next deal when this move ended one in a match), and the deal this move ended, if any."""

    move: Move
    game: Game
    deal: Deal
    state: DealState
    ended_deal: Deal | None


@transaction.atomic
def move_submit(
    *,
    game_id: uuid.UUID,
    player: Player,
    action: str,
    cards: list[str] | None,
    expected_seq: int | None = None,
) -> MoveOutcome:
    """A human's move. Refusals raise DomainError and change nothing."""
    game = game_locked(game_id, viewer=player)
    mine = participant_seat(game, player)
    if game.status != GameStatus.ACTIVE:
        raise DomainError(ErrorCode.GAME_NOT_ACTIVE, f"The game is {game.status}.")
    if mine.status == SeatStatus.RESIGNED:
        raise DomainError(ErrorCode.SEAT_RESIGNED, "You resigned: an AI plays your seat.")
    seat = mine.position
    deal, state = current_deal(game)
    if expected_seq is not None and expected_seq != deal.seq:
        raise DomainError(
            ErrorCode.STALE_SEQ,
            f"The deal has moved on: last seq is {deal.seq}, not {expected_seq}.",
            details={"seq": deal.seq},
        )
    return _applied(
        move_apply(game, deal, state, seat, action, cards, actor="player", player=player)
    )


@transaction.atomic
def move_submit_for_seat(
    *,
    game_id: uuid.UUID,
    deal_number: int,
    expected_seq: int,
    seat: int,
    action: str,
    cards: list[str] | None,
    actor: str,
) -> Move | None:
    """A move the server makes for a seat (an AI, or a human whose time ran out),
    computed by the caller outside any transaction. Applies nothing and returns None
    when the deal has moved on since the caller looked (a duplicated or late task)."""
    game = game_locked(game_id)
    if game.status != GameStatus.ACTIVE or game.current_deal_number != deal_number:
        return None
    deal, state = current_deal(game)
    if deal.seq != expected_seq or deal.turn != seat:
        return None
    return _applied(
        move_apply(game, deal, state, seat, action, cards, actor=actor, player=None)
    ).move


def current_deal(game: Game) -> tuple[Deal, DealState]:
    """The active game's current deal and its engine state (games.deal_cache: this
    process may hold them for the version just read under the lock)."""
    current = deal_current(game)
    if current is None:
        raise Deal.DoesNotExist(f"game {game.pk} has no deal {game.current_deal_number}")
    return current


def _applied(outcome: MoveOutcome) -> MoveOutcome:
    """The deal in play after the move, kept for the game's new version once it commits."""
    deal_keep_on_commit(outcome.game, outcome.deal, outcome.state)
    return outcome


@feed.batched
def move_apply(
    game: Game,
    deal: Deal,
    state: DealState,
    seat: int,
    action: str,
    cards: list[str] | None,
    *,
    actor: str,
    player: Player | None,
) -> MoveOutcome:
    """Validate and apply one move: the move row, its hash-chain link, the deal's cached
    state; then the deal's end, the match's next deal or end, and the side effects (the
    events and wake-ups of all of it written together at the end: ``feed.batched``).
    `state` is the deal's engine state, which the move is applied to."""
    try:
        engine_move = state.validate(seat, action, cards)
        state.apply(engine_move, seat)
    except EngineError as exc:
        raise domain_error(exc) from exc
    played = format_cards(engine_move.cards)
    seq = deal.seq + 1
    combination = "" if engine_move.is_pass else Play.parse(engine_move.cards, state.rules).kind
    move = Move(
        deal=deal,
        seq=seq,
        seat=seat,
        action=engine_move.action,
        cards=played,
        combination=combination,
        actor=actor,
        player=player,
        chain=chain_next(
            deal.chain_head,
            move_canonical_json(
                deal_number=deal.number, seq=seq, seat=seat, action=engine_move.action, cards=played
            ),
        ),
    )
    feed.move_made(game, deal, move)
    deal.chain_head = move.chain
    deal.seq = seq
    deal.turn = state.turn
    deal.turn_started_at = timezone.now()
    deal.snapshot = state.to_dict()
    fields = ["chain_head", "seq", "turn", "turn_started_at", "snapshot"]
    transaction.on_commit(partial(metrics.move_committed, actor))  # never a rolled-back move
    abandons = _count_timeouts(game, seat, actor) and not humans_still_playing(game)
    result = state.result  # set when the first player goes out (is_over may come later)
    if result is None and not abandons:
        # The usual move, nobody out yet: the move, the deal and the game's version are
        # written by one statement (the events follow at the end of the batch).
        queue_ai_turn_on_commit(game, deal)
        feed.turn_announce(game, deal)
        game_touch(game, along=(move, [(deal, fields)]))
        return MoveOutcome(move=move, game=game, deal=deal, state=state, ended_deal=None)
    move.save(force_insert=True)
    if result is not None and deal.winner is None:
        deal_score(game, deal, result)
        fields += ["winner", "points"]
    if state.is_over and result is not None:
        deal.places = list(result.places)
        deal.finished_at = timezone.now()
        fields += ["places", "finished_at"]
    deal.save(update_fields=fields)
    if abandons:
        game_abandon(game)  # nobody is left to play against: the match stops here
        return MoveOutcome(move=move, game=game, deal=deal, state=state, ended_deal=None)
    if not state.is_over:
        queue_ai_turn_on_commit(game, deal)
        feed.turn_announce(game, deal)
        game_touch(game)
        return MoveOutcome(move=move, game=game, deal=deal, state=state, ended_deal=None)
    next_deal = deal_finished(game, deal)
    if next_deal is None:
        return MoveOutcome(move=move, game=game, deal=deal, state=state, ended_deal=deal)
    next_state = DealState.from_dict(next_deal.snapshot)
    return MoveOutcome(move=move, game=game, deal=next_deal, state=next_state, ended_deal=deal)


def _count_timeouts(game: Game, position: int, actor: str) -> bool:
    """Keep the seat's run of turns the server played for its human (its time ran out);
    a move of its own ends the run. True when this move was one the clock made."""
    seat = next(s for s in game.seats.all() if s.position == position)
    timed_out = actor == "timeout"
    if timed_out:
        seat.timeouts_in_a_row += 1
    elif actor == "player" and seat.timeouts_in_a_row:
        seat.timeouts_in_a_row = 0
    else:
        return False
    seat.save(update_fields=["timeouts_in_a_row"])
    return timed_out
