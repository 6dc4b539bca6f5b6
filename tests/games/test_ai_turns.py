"""AI turns and move deadlines, in-process (no broker): the service logic of the flow."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from games import services
from games.models import Deal, Game, Move
from tests.api.helpers import client_for, create_game, state_of

# Real commits: AI moves are queued with transaction.on_commit.
pytestmark = pytest.mark.django_db(transaction=True)

AI_SEATS = [{"type": "human"}] + [{"type": "ai", "level": "random"}] * 3


def play_human_until_finished(client, game_id, rng):
    for _ in range(500):
        state = state_of(client, game_id)
        if state["status"] != "active":
            return
        deal = state["deal"]
        assert deal["turn"] == state["seat"], "after a human move the AIs play at once"
        move = rng.choice(deal["legal_moves"])
        response = client.post(
            f"/api/v1/games/{game_id}/moves",
            {**move, "expected_seq": deal["seq"]},
            format="json",
        )
        assert response.status_code == 201, response.json()
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("level", ["random", "greedy", "heuristic"])
def test_one_human_and_three_ai_play_a_match_in_process(level):
    ana = client_for("ana")
    seats = [{"type": "human"}] + [{"type": "ai", "level": level}] * 3
    game = create_game(ana, seats, target_deals=2)
    assert game["status"] == "active"
    play_human_until_finished(ana, game["id"], random.Random(level))
    finished = Game.objects.get(pk=game["id"])
    assert finished.status == "finished"
    actors = set(Move.objects.filter(deal__game=finished).values_list("actor", flat=True))
    assert actors == {"player", f"ai:{level}"}


def test_a_stale_ai_task_applies_nothing():
    ana = client_for("ana")
    game = create_game(ana, AI_SEATS)
    deal = Deal.objects.get(game_id=game["id"])
    before = deal.seq
    assert not services.ai_turn_play(game_id=game["id"], deal_number=1, expected_seq=before - 1)
    assert not services.ai_turn_play(game_id=game["id"], deal_number=2, expected_seq=before)
    assert Deal.objects.get(pk=deal.pk).seq == before


def expire_turn(game_id):
    deal = Deal.objects.get(game_id=game_id)
    deal.turn_started_at = timezone.now() - dt.timedelta(hours=2)
    deal.save(update_fields=["turn_started_at"])
    return deal


def test_an_expired_human_turn_is_played_once_even_with_two_sweeps():
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}, {"type": "human"}], turn_timeout=60)
    ben.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    deal = expire_turn(game["id"])
    leader = deal.turn
    required = deal.snapshot["state"]["required_card"]
    assert services.turns_sweep() == {"requeued": 0, "timed_out": 1}
    assert services.turns_sweep() == {"requeued": 0, "timed_out": 0}
    moves = list(Move.objects.filter(deal=deal))
    assert len(moves) == 1
    (move,) = moves
    assert (move.seat, move.actor, move.action) == (leader, "timeout", "play")
    # Leading the first deal, the lowest legal play is the required card alone (3C, or the
    # lowest card dealt when 3C was set aside in a 2-player deal).
    assert move.cards == [required]
    # Following, the server passes.
    expire_turn(game["id"])
    services.turns_sweep()
    last = Move.objects.filter(deal=deal).order_by("-seq").first()
    assert (last.seq, last.action, last.actor) == (2, "pass", "timeout")


def test_a_turn_within_its_deadline_is_left_alone():
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}, {"type": "human"}], turn_timeout=3600)
    ben.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert services.turns_sweep() == {"requeued": 0, "timed_out": 0}
    assert not Move.objects.exists()
    state = state_of(ana, game["id"])
    assert state["deal"]["deadline"] is not None


def test_the_sweep_requeues_a_lost_ai_turn(monkeypatch):
    ana = client_for("ana")
    # Lose every AI task: the human's game stalls on an AI turn.
    monkeypatch.setattr("games.tasks.ai_move.delay", lambda *args: None)
    game = create_game(ana, AI_SEATS)
    deal = Deal.objects.get(game_id=game["id"])
    if deal.turn == 0:
        state = state_of(ana, game["id"])
        ana.post(
            f"/api/v1/games/{game['id']}/moves", state["deal"]["legal_moves"][0], format="json"
        )
        deal.refresh_from_db()
    stalled_at = deal.seq
    assert deal.turn != 0
    monkeypatch.undo()
    later = timezone.now() + dt.timedelta(minutes=5)
    assert services.turns_sweep(now=later)["requeued"] == 1
    deal.refresh_from_db()
    assert deal.seq > stalled_at
