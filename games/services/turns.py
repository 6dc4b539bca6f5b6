"""Turns the server plays: AI seats, and humans whose move deadline has passed; and the
periodic sweep that finds turns that waited too long."""

from __future__ import annotations

import datetime as dt
import logging
import random
import uuid
from typing import NamedTuple

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from games.models import Deal, GameStatus, Seat
from games.selectors import match_standing, turn_deadline
from games.services import feed
from games.services.game_row import game_locked
from games.services.moves import move_submit_for_seat
from notifications.models import Event
from notifications.types import EventType
from pusoy.ai import Budget, choose_move, timeout_move
from pusoy.engine import DealState, format_cards
from pusoy.engine import Move as EngineMove
from pusoy_api import metrics, task_queue

logger = logging.getLogger(__name__)


class OpenTurn(NamedTuple):
    """A turn still waiting to be played: the deal (with its game) and the seat to play."""

    deal: Deal
    seat: int


def _open_turn(game_id: str | uuid.UUID, deal_number: int, expected_seq: int) -> OpenTurn | None:
    """The turn after move `expected_seq` of an active game's deal, if it is still
    waiting; None when it has moved on (read without a lock: the apply re-checks)."""
    deal = (
        Deal.objects.filter(game_id=game_id, number=deal_number, finished_at__isnull=True)
        .select_related("game")
        .first()
    )
    if deal is None or deal.seq != expected_seq or deal.turn is None:
        return None
    if deal.game.status != GameStatus.ACTIVE:
        return None
    return OpenTurn(deal, deal.turn)


def _play_for_seat(turn: OpenTurn, engine_move: EngineMove, *, actor: str) -> bool:
    """Apply a move the server chose for the seat to play; False if the deal moved on."""
    applied = move_submit_for_seat(
        game_id=turn.deal.game_id,
        deal_number=turn.deal.number,
        expected_seq=turn.deal.seq,
        seat=turn.seat,
        action=engine_move.action,
        cards=format_cards(engine_move.cards) or None,
        actor=actor,
    )
    return applied is not None


def ai_turn_play(*, game_id: str | uuid.UUID, deal_number: int, expected_seq: int) -> bool:
    """Compute and apply an AI seat's move. The (slow) search runs outside any
    transaction on a snapshot; the move is then applied with `expected_seq`, so a
    duplicated, retried or late task applies nothing. Returns whether it applied."""
    turn = _open_turn(game_id, deal_number, expected_seq)
    if turn is None:
        return False
    level = turn.deal.game.seats.get(position=turn.seat).acting_ai_level
    if level is None:
        return False
    view = DealState.from_dict(turn.deal.snapshot).view(turn.seat)
    view = view.with_match(match_standing(turn.deal.game, turn.deal))
    with metrics.ai_compute_timer(level):
        move = choose_move(
            level, view, random.Random(), budget=Budget(seconds=settings.AI_EXPERT_SECONDS)
        )
    return _play_for_seat(turn, move, actor=f"ai:{level}")


def timeout_turn_play(*, game_id: str | uuid.UUID, deal_number: int, expected_seq: int) -> bool:
    """Play for a human whose move deadline has passed: pass when following, the lowest
    legal play when leading. Marked `timeout` in the history. Exactly once per turn:
    applied with `expected_seq`, so a second sweep finds the deal moved on."""
    turn = _open_turn(game_id, deal_number, expected_seq)
    if turn is None:
        return False
    started, timeout = turn.deal.turn_started_at, turn.deal.game.turn_timeout
    if started is None or timeout is None or started + timeout > timezone.now():
        return False
    move = timeout_move(DealState.from_dict(turn.deal.snapshot).view(turn.seat))
    return _play_for_seat(turn, move, actor="timeout")


def turns_sweep(*, now: dt.datetime | None = None) -> dict[str, int]:
    """Find turns that waited too long. AI turns are re-queued (the task is idempotent,
    so a turn that was only slow is not played twice); expired human turns are played."""
    now = now or timezone.now()
    stalled_before = now - dt.timedelta(seconds=settings.AI_STALL_SECONDS)
    open_turns = Deal.objects.filter(
        finished_at__isnull=True,
        turn__isnull=False,
        game__status=GameStatus.ACTIVE,
        number=F("game__current_deal_number"),
    )
    # Seats an AI plays: AI seats, and seats whose human resigned.
    ai_seat = Seat.objects.filter(game=OuterRef("game"), position=OuterRef("turn")).played_by_ai()
    requeued = 0
    for game_id, number, seq in (
        open_turns.filter(Exists(ai_seat), turn_started_at__lt=stalled_before)
        .values_list("game_id", "number", "seq")
        .iterator()
    ):
        # A broker hiccup skips this game (logged); the next sweep tries it again.
        requeued += task_queue.enqueue("games.ai_move", str(game_id), number, seq)
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


def deadline_lead(turn_timeout: dt.timedelta) -> dt.timedelta:
    """How long before a human's turn times out they are warned (`deadline_soon`):
    DEADLINE_SOON_SECONDS, or half the turn's time when that is shorter."""
    return min(dt.timedelta(seconds=settings.DEADLINE_SOON_SECONDS), turn_timeout / 2)


def deadline_warnings_send(*, now: dt.datetime | None = None) -> int:
    """Periodic: a `deadline_soon` event to each human whose turn times out within its
    lead time (deadline_lead), once per turn; how many were sent."""
    now = now or timezone.now()
    latest_lead = dt.timedelta(seconds=settings.DEADLINE_SOON_SECONDS)
    candidates = (
        Deal.objects.filter(
            finished_at__isnull=True,
            turn__isnull=False,
            turn_started_at__isnull=False,
            game__status=GameStatus.ACTIVE,
            game__turn_timeout__isnull=False,
            number=F("game__current_deal_number"),
        )
        .annotate(deadline=F("turn_started_at") + F("game__turn_timeout"))
        .filter(deadline__gt=now, deadline__lte=now + latest_lead)
        .values_list("game_id", "number", "seq")
    )
    return sum(
        deadline_warning_send(game_id=game_id, deal_number=number, expected_seq=seq, now=now)
        for game_id, number, seq in list(candidates)
    )


@transaction.atomic
def deadline_warning_send(
    *, game_id: uuid.UUID, deal_number: int, expected_seq: int, now: dt.datetime
) -> bool:
    """Warn the human to play after move `expected_seq`, if their deadline is within its
    lead time and they have not been warned for this turn (checked under the game's lock,
    so two sweeps never warn twice)."""
    game = game_locked(game_id)
    if game.status != GameStatus.ACTIVE or game.current_deal_number != deal_number:
        return False
    deal = Deal.objects.get(game=game, number=deal_number)
    deadline = turn_deadline(game, deal)
    if deal.seq != expected_seq or deadline is None or game.turn_timeout is None:
        return False
    if not now < deadline <= now + deadline_lead(game.turn_timeout):
        return False
    warned = Event.objects.filter(
        game=game, type=EventType.DEADLINE_SOON, data__deal=deal_number, data__seq=expected_seq
    ).exists()
    return not warned and feed.deadline_soon(game, deal)
