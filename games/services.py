"""Every write on games: create, join, start a deal, submit a move, finish.

Each public function is one transaction. A move takes a row lock on its game, so
concurrent requests for one game are applied one at a time; side effects (waking
long-polling clients, queueing the next AI turn) happen only once the move commits.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef, Prefetch
from django.utils import timezone

from games.ai import Budget, choose_move, timeout_move
from games.chain import chain_genesis, chain_next, move_canonical_json
from games.dispatch import enqueue, enqueue_on_commit
from games.engine import DealResult, DealState, EngineError, Play, Rules, format_cards
from games.engine import Move as EngineMove
from games.engine.shuffle import commitment, face_up_card, new_seed
from games.errors import domain_error
from games.models import AiLevel, Deal, Game, GameStatus, Move, Seat
from players.models import Player
from pusoy_api.domain_errors import DomainError, ErrorCode

logger = logging.getLogger(__name__)

NOTIFY_CHANNEL = "pusoy_moves"


@dataclass(frozen=True)
class SeatSpec:
    """One seat asked for at creation: a human seat, or an AI of a level."""

    type: str  # "human" | "ai"
    level: str = ""


# --- Creating and joining ----------------------------------------------------------


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
        if spec.type == "ai" and spec.level not in AiLevel.values:
            raise DomainError(
                ErrorCode.INVALID_SEATS,
                f"Unknown AI level {spec.level!r}.",
                details={"allowed": list(AiLevel.values)},
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
        _game_start(game)
    return game


@transaction.atomic
def game_join(*, game_id: uuid.UUID, player: Player, seat: int | None = None) -> Game:
    game = _game_locked(game_id)
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
        _game_start(game)
    else:
        _game_touch(game)
    return game


def _game_locked(game_id: uuid.UUID) -> Game:
    """The game row, locked until the transaction ends, with its seats read once."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such game.")
    return game


def _game_touch(game: Game, *fields: str) -> None:
    """Save a changed game: its version goes up (we hold its row lock) and waiters wake."""
    game.version += 1
    game.save(update_fields=["version", "updated_at", *fields])
    _notify(game)


def _game_start(game: Game) -> None:
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    _deal_start(game, leader=None)
    _game_touch(game, "status", "started_at", "current_deal_number")


def _deal_start(game: Game, *, leader: int | None) -> Deal:
    """Shuffle from a fresh secret seed and publish only its commitment."""
    rules = Rules.from_dict(game.rules)
    seed = new_seed()
    state = DealState.from_seed(rules, seed, game.num_seats, leader=leader)
    face_up = face_up_card(seed, rules, game.num_seats)
    game.current_deal_number += 1
    now = timezone.now()
    deal_commitment = commitment(seed)
    deal = Deal.objects.create(
        game=game,
        number=game.current_deal_number,
        seed=seed.hex(),
        commitment=deal_commitment,
        chain_head=chain_genesis(deal_commitment),
        hands=[format_cards(hand) for hand in state.initial_hands],
        set_aside=format_cards(state.set_aside),
        face_up_card=str(face_up or ""),
        leader=leader,
        turn=state.turn,
        turn_started_at=now,
        snapshot=state.to_dict(),
    )
    _after_commit_turn(game, deal)
    return deal


# --- Moves --------------------------------------------------------------------------


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
    game = _game_locked(game_id)
    seat = next((s.position for s in game.seats.all() if s.player_id == player.pk), None)
    if seat is None:
        raise DomainError(ErrorCode.NOT_A_PARTICIPANT, "You have no seat in this game.")
    if game.status != GameStatus.ACTIVE:
        raise DomainError(ErrorCode.GAME_NOT_ACTIVE, f"The game is {game.status}.")
    deal = _current_deal(game)
    if expected_seq is not None and expected_seq != deal.seq:
        raise DomainError(
            ErrorCode.STALE_SEQ,
            f"The deal has moved on: last seq is {deal.seq}, not {expected_seq}.",
            details={"seq": deal.seq},
        )
    return _move_apply(game, deal, seat, action, cards, actor="player", player=player)


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
    game = _game_locked(game_id)
    if game.status != GameStatus.ACTIVE or game.current_deal_number != deal_number:
        return None
    deal = _current_deal(game)
    if deal.seq != expected_seq or deal.turn != seat:
        return None
    return _move_apply(game, deal, seat, action, cards, actor=actor, player=None).move


def _current_deal(game: Game) -> Deal:
    return Deal.objects.get(game=game, number=game.current_deal_number)


def _move_apply(
    game: Game,
    deal: Deal,
    seat: int,
    action: str,
    cards: list[str] | None,
    *,
    actor: str,
    player: Player | None,
) -> MoveOutcome:
    """Validate and apply one move: the move row, its hash-chain link, the deal's cached
    state; then the deal's end, the match's next deal or end, and the side effects."""
    state = DealState.from_dict(deal.snapshot)
    try:
        engine_move = state.validate(seat, action, cards)
        state.apply(engine_move, seat)
    except EngineError as exc:
        raise domain_error(exc) from exc
    played = format_cards(engine_move.cards)
    seq = deal.seq + 1
    combination = "" if engine_move.is_pass else Play.parse(engine_move.cards, state.rules).kind
    move = Move.objects.create(
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
    deal.chain_head = move.chain
    deal.seq = seq
    deal.turn = state.turn
    deal.turn_started_at = timezone.now()
    deal.snapshot = state.to_dict()
    fields = ["chain_head", "seq", "turn", "turn_started_at", "snapshot"]
    if state.result is not None and deal.winner is None:
        _deal_score(game, deal, state.result)
        fields += ["winner", "points"]
    if state.is_over:
        deal.places = list(state.result.places)
        deal.finished_at = timezone.now()
        fields += ["places", "finished_at"]
    deal.save(update_fields=fields)
    if not state.is_over:
        _after_commit_turn(game, deal)
        _game_touch(game)
        return MoveOutcome(move=move, game=game, deal=deal, state=state, ended_deal=None)
    next_deal = _deal_finished(game, deal)
    if next_deal is None:
        return MoveOutcome(move=move, game=game, deal=deal, state=state, ended_deal=deal)
    next_state = DealState.from_dict(next_deal.snapshot)
    return MoveOutcome(move=move, game=game, deal=next_deal, state=next_state, ended_deal=deal)


def _deal_score(game: Game, deal: Deal, result: DealResult) -> None:
    """Points are fixed when the first player goes out (even if play_out goes on).

    Seat scores are changed on the seats read with the locked game (every writer of a
    seat's score holds the game's row lock), so the game in hand stays true for the rest
    of the transaction and for the answer built from it."""
    deal.winner = result.winner
    deal.points = list(result.points)
    for seat in game.seats.all():
        seat.score += result.points[seat.position]
        seat.save(update_fields=["score"])
        if seat.player_id:
            Player.objects.filter(pk=seat.player_id).update(
                deals_played=F("deals_played") + 1,
                deals_won=F("deals_won") + (1 if seat.position == result.winner else 0),
                points=F("points") + result.points[seat.position],
            )


def _deal_finished(game: Game, deal: Deal) -> Deal | None:
    """The match goes on with a new deal led by this deal's winner (returned), or ends."""
    if _target_reached(game):
        _game_finish(game)
        return None
    next_deal = _deal_start(game, leader=deal.winner)
    _game_touch(game, "current_deal_number")
    return next_deal


def _higher_is_better(rules: dict[str, Any]) -> bool:
    return rules["scoring"] == "deuces-double"


def _target_reached(game: Game) -> bool:
    if game.target_deals is not None and game.current_deal_number >= game.target_deals:
        return True
    if game.target_score is not None:
        return max(s.score for s in game.seats.all()) >= game.target_score
    return False


def _game_finish(game: Game) -> None:
    seats = list(game.seats.all())
    wins = dict.fromkeys((s.position for s in seats), 0)
    for winner in game.deals.values_list("winner", flat=True):
        if winner is not None:
            wins[winner] += 1
    # deuces-double: most points wins; cards-left: fewest. Ties: more deals won, then seat.
    sign = -1 if _higher_is_better(game.rules) else 1
    winner = min(seats, key=lambda s: (sign * s.score, -wins[s.position], s.position))
    game.status = GameStatus.FINISHED
    game.winner_seat = winner.position
    game.finished_at = timezone.now()
    for s in seats:
        if s.player_id:
            Player.objects.filter(pk=s.player_id).update(
                games_played=F("games_played") + 1,
                games_won=F("games_won") + (1 if s.position == winner.position else 0),
            )
    _game_touch(game, "status", "winner_seat", "finished_at")


# --- Side effects on commit -----------------------------------------------------------


def _notify(game: Game) -> None:
    """Wake long-polling clients in every web process. NOTIFY is transactional in
    PostgreSQL: it is delivered at commit, and never for a rolled-back move."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, str(game.pk)])


def _after_commit_turn(game: Game, deal: Deal) -> None:
    """Queue the AI's move when the seat to play is an AI, once this transaction commits."""
    if deal.turn is None:
        return
    level = next((s.ai_level for s in game.seats.all() if s.position == deal.turn), "")
    if not level:
        return
    from games.tasks import ai_move  # tasks call services: import at use, not at load

    enqueue_on_commit(ai_move, str(game.pk), deal.number, deal.seq)


# --- Server-made moves: AI turns and expired deadlines ------------------------------------


def _open_turn(game_id: str | uuid.UUID, deal_number: int, expected_seq: int) -> Deal | None:
    """The deal, if its turn is still the one after move `expected_seq` of an active
    game; None when it has moved on (read without a lock: the apply re-checks)."""
    deal = (
        Deal.objects.filter(game_id=game_id, number=deal_number, finished_at__isnull=True)
        .select_related("game")
        .first()
    )
    if deal is None or deal.seq != expected_seq or deal.turn is None:
        return None
    return deal if deal.game.status == GameStatus.ACTIVE else None


def _play_for_seat(deal: Deal, engine_move: EngineMove, *, actor: str) -> bool:
    """Apply a move the server chose for the seat to play; False if the deal moved on."""
    applied = move_submit_for_seat(
        game_id=deal.game_id,
        deal_number=deal.number,
        expected_seq=deal.seq,
        seat=deal.turn,
        action=engine_move.action,
        cards=format_cards(engine_move.cards) or None,
        actor=actor,
    )
    return applied is not None


def ai_turn_play(*, game_id: str | uuid.UUID, deal_number: int, expected_seq: int) -> bool:
    """Compute and apply an AI seat's move. The (slow) search runs outside any
    transaction on a snapshot; the move is then applied with `expected_seq`, so a
    duplicated, retried or late task applies nothing. Returns whether it applied."""
    deal = _open_turn(game_id, deal_number, expected_seq)
    if deal is None:
        return False
    level = deal.game.seats.filter(position=deal.turn).values_list("ai_level", flat=True).get()
    if not level:
        return False
    view = DealState.from_dict(deal.snapshot).view(deal.turn)
    move = choose_move(
        level, view, random.Random(), budget=Budget(seconds=settings.AI_EXPERT_SECONDS)
    )
    return _play_for_seat(deal, move, actor=f"ai:{level}")


def timeout_turn_play(*, game_id: str | uuid.UUID, deal_number: int, expected_seq: int) -> bool:
    """Play for a human whose move deadline has passed: pass when following, the lowest
    legal play when leading. Marked `timeout` in the history. Exactly once per turn:
    applied with `expected_seq`, so a second sweep finds the deal moved on."""
    deal = _open_turn(game_id, deal_number, expected_seq)
    if deal is None or deal.game.turn_timeout is None:
        return False
    if deal.turn_started_at + deal.game.turn_timeout > timezone.now():
        return False
    move = timeout_move(DealState.from_dict(deal.snapshot).view(deal.turn))
    return _play_for_seat(deal, move, actor="timeout")


def turns_sweep(*, now: dt.datetime | None = None) -> dict[str, int]:
    """Find turns that waited too long. AI turns are re-queued (the task is idempotent,
    so a turn that was only slow is not played twice); expired human turns are played."""
    from games.tasks import ai_move

    now = now or timezone.now()
    stalled_before = now - dt.timedelta(seconds=settings.AI_STALL_SECONDS)
    open_turns = Deal.objects.filter(
        finished_at__isnull=True,
        turn__isnull=False,
        game__status=GameStatus.ACTIVE,
        number=F("game__current_deal_number"),
    )
    ai_seat = Seat.objects.filter(game=OuterRef("game"), position=OuterRef("turn"), ai_level__gt="")
    requeued = 0
    for game_id, number, seq in (
        open_turns.filter(Exists(ai_seat), turn_started_at__lt=stalled_before)
        .values_list("game_id", "number", "seq")
        .iterator()
    ):
        # A broker hiccup skips this game (logged); the next sweep tries it again.
        requeued += enqueue(ai_move, str(game_id), number, seq)
    timed_out = 0
    expired = (
        open_turns.filter(~Exists(ai_seat), game__turn_timeout__isnull=False)
        .annotate(deadline=F("turn_started_at") + F("game__turn_timeout"))
        .filter(deadline__lte=now)
        .values_list("game_id", "number", "seq")
    )
    for game_id, number, seq in list(expired):
        timed_out += timeout_turn_play(game_id=game_id, deal_number=number, expected_seq=seq)
    if requeued or timed_out:
        logger.info("sweep: re-queued %d AI turns, played %d expired turns", requeued, timed_out)
    return {"requeued": requeued, "timed_out": timed_out}
