"""AI seats play whole matches in-process (no broker): over HTTP, each AI turn queued
when the move before it commits. The turns' service logic (stale tasks, deadlines, the
sweep) is tested in test_services_turns.py."""

from __future__ import annotations

import random

import pytest

from games.models import Game, Move
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
