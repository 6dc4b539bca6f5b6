"""games.services.turns: the turns the server plays (an AI's, a human's whose deadline
passed) and the periodic sweep, called directly on games built by factories."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.utils import timezone

from games import services
from games.models import Game, Move
from tests.factories import HUMAN, game_with_seats
from tests.games.helpers import current_deal_of, game_an_ai_leads, stored, submit

pytestmark = pytest.mark.django_db

# Two humans: seat 0 leads 3C (it holds nothing lower), then seat 1 may pass or beat it.
TWO_HUMANS = ["3C 4C 9H", "5S 6S"]
TIMEOUT = dt.timedelta(seconds=60)


def waited(game: Game, how_long: dt.timedelta) -> None:
    """The current turn started `how_long` ago."""
    deal = current_deal_of(game)
    deal.turn_started_at = timezone.now() - how_long
    deal.save(update_fields=["turn_started_at"])


# --- ai_turn_play ----------------------------------------------------------------------


def test_an_ai_turn_is_played_once():
    game = game_an_ai_leads()
    assert services.ai_turn_play(game_id=game.pk, deal_number=1, expected_seq=0)
    (move,) = Move.objects.filter(deal__game=game)
    assert (move.seq, move.seat, move.actor, move.player) == (1, 1, "ai:random", None)
    assert "3C" in move.cards  # the AI's first play of the deal holds the opening card
    after = stored(game)
    # The same task again (a redelivery, a retry): the deal has moved on.
    assert not services.ai_turn_play(game_id=game.pk, deal_number=1, expected_seq=0)
    assert stored(game) == after


@pytest.mark.parametrize(
    ("deal_number", "expected_seq"),
    [(1, 1), (2, 0), (0, 0)],
)
def test_an_ai_task_for_a_turn_that_is_not_open_applies_nothing(deal_number, expected_seq):
    game = game_an_ai_leads()
    before = stored(game)
    assert not services.ai_turn_play(
        game_id=game.pk, deal_number=deal_number, expected_seq=expected_seq
    )
    assert stored(game) == before


def test_an_ai_task_on_a_humans_turn_applies_nothing():
    game = game_with_seats([HUMAN, "random"], dealt_hands=TWO_HUMANS)
    before = stored(game)
    assert not services.ai_turn_play(game_id=game.pk, deal_number=1, expected_seq=0)
    assert stored(game) == before


def test_an_ai_task_of_a_game_no_longer_active_applies_nothing():
    game = game_an_ai_leads()
    Game.objects.filter(pk=game.pk).update(status="abandoned")
    before = stored(game)
    assert not services.ai_turn_play(game_id=game.pk, deal_number=1, expected_seq=0)
    assert stored(game) == before


# --- timeout_turn_play -----------------------------------------------------------------


def humans_with_a_deadline() -> Game:
    return game_with_seats([HUMAN, HUMAN], turn_timeout=TIMEOUT, dealt_hands=TWO_HUMANS)


def test_a_turn_within_its_deadline_is_not_played():
    game = humans_with_a_deadline()
    waited(game, TIMEOUT - dt.timedelta(seconds=5))
    before = stored(game)
    assert not services.timeout_turn_play(game_id=game.pk, deal_number=1, expected_seq=0)
    assert stored(game) == before


@pytest.mark.parametrize(
    ("hands", "moves"),
    [
        (TWO_HUMANS, [(0, "play", ["3C"], "timeout"), (1, "pass", [], "timeout")]),
        # 3C not dealt (two players): the lowest card dealt opens instead.
        (["4D 9H", "5S 6S 4C"], [(1, "play", ["4C"], "timeout"), (0, "pass", [], "timeout")]),
    ],
)
def test_an_expired_turn_is_played_lowest_when_leading_and_passed_when_following(hands, moves):
    game = game_with_seats([HUMAN, HUMAN], turn_timeout=TIMEOUT, dealt_hands=hands)
    waited(game, TIMEOUT + dt.timedelta(seconds=1))
    assert services.timeout_turn_play(game_id=game.pk, deal_number=1, expected_seq=0)
    waited(game, TIMEOUT + dt.timedelta(seconds=1))
    assert services.timeout_turn_play(game_id=game.pk, deal_number=1, expected_seq=1)
    played = Move.objects.filter(deal__game=game).order_by("seq")
    assert list(played.values_list("seat", "action", "cards", "actor")) == moves


def test_an_expired_turn_is_played_once():
    game = humans_with_a_deadline()
    waited(game, TIMEOUT * 2)
    assert services.timeout_turn_play(game_id=game.pk, deal_number=1, expected_seq=0)
    after = stored(game)
    assert not services.timeout_turn_play(game_id=game.pk, deal_number=1, expected_seq=0)
    assert stored(game) == after


def test_a_game_without_a_deadline_has_no_expired_turn():
    game = game_with_seats([HUMAN, HUMAN], dealt_hands=TWO_HUMANS)
    waited(game, dt.timedelta(days=7))
    before = stored(game)
    assert not services.timeout_turn_play(game_id=game.pk, deal_number=1, expected_seq=0)
    assert stored(game) == before


# --- turns_sweep -----------------------------------------------------------------------


def test_the_sweep_requeues_only_ai_turns_that_stalled(enqueued):
    stall = dt.timedelta(seconds=settings.AI_STALL_SECONDS)
    stalled = game_an_ai_leads()
    waited(stalled, stall + dt.timedelta(seconds=1))
    fresh = game_an_ai_leads()
    waited(fresh, stall - dt.timedelta(seconds=5))
    over = game_an_ai_leads()
    waited(over, stall * 10)
    Game.objects.filter(pk=over.pk).update(status="finished")
    assert services.turns_sweep() == {"requeued": 1, "timed_out": 0}
    assert enqueued == [("games.ai_move", (str(stalled.pk), 1, 0))]


def test_a_requeued_ai_turn_is_played():
    # Tasks run in-process in tests: the queued task plays the turn at once.
    game = game_an_ai_leads()
    later = timezone.now() + dt.timedelta(seconds=settings.AI_STALL_SECONDS + 1)
    assert services.turns_sweep(now=later) == {"requeued": 1, "timed_out": 0}
    assert current_deal_of(game).seq == 1
    assert Move.objects.filter(deal__game=game, seq=1, actor="ai:random").exists()


def test_the_sweep_plays_expired_human_turns_once(enqueued):
    expired = humans_with_a_deadline()
    waited(expired, TIMEOUT * 2)
    within = humans_with_a_deadline()
    waited(within, TIMEOUT / 2)
    assert services.turns_sweep() == {"requeued": 0, "timed_out": 1}
    assert services.turns_sweep() == {"requeued": 0, "timed_out": 0}
    assert list(Move.objects.values_list("deal__game", "seq", "actor")) == [
        (expired.pk, 1, "timeout")
    ]
    assert enqueued == []


def test_the_sweep_leaves_a_human_turn_that_was_just_played(enqueued):
    game = humans_with_a_deadline()
    waited(game, TIMEOUT * 2)
    submit(game, 0, "3C")  # the move restarts the clock for the next seat
    assert services.turns_sweep() == {"requeued": 0, "timed_out": 0}
