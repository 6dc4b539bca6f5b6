"""AI seats through a real Celery worker process on Redis, with Postgres: a whole match
over HTTP, and a worker SIGKILLed in the middle of an AI turn."""

from __future__ import annotations

import datetime as dt
import random
import time

import pytest
from django.utils import timezone

from games import services
from games.models import Deal, Game, Move
from pusoy_api.celery import app as celery_app
from tests.api.helpers import client_for, create_game, play_one, state_of
from tests.throwaway import wait_for

# A wait for an AI's move this long with no move means the turn stalled (a lost task).
STALL_SECONDS = 3

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]


def wait_for_my_turn(client, game_id, timeout=60.0, on_stall=None):
    """Follow the deal by long-polling its history, as an app would (a wait ends when a
    move is stored, by NOTIFY), until it is this player's turn or the game is over.
    `on_stall` is called when a wait of STALL_SECONDS brings no move."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = state_of(client, game_id)
        if state["status"] != "active" or state["deal"]["turn"] == state["seat"]:
            return state
        deal = state["deal"]
        news = client.get(
            f"/api/v1/games/{game_id}/moves"
            f"?deal={deal['number']}&since={deal['seq']}&wait={STALL_SECONDS}"
        )
        assert news.status_code == 200, news.json()
        if not news.json()["moves"] and not news.json()["finished"] and on_stall:
            on_stall()
    raise AssertionError(f"AI did not move within {timeout}s")


def assert_sequences_whole(game_id):
    for deal in Deal.objects.filter(game_id=game_id):
        seqs = list(Move.objects.filter(deal=deal).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, deal.seq + 1)), f"deal {deal.number}: {seqs}"


def test_one_human_three_ai_play_a_match_through_a_real_worker(celery_worker):
    ana = client_for("ana")
    seats = [{"type": "human"}, {"type": "ai", "level": "heuristic"}] + [
        {"type": "ai", "level": "greedy"}
    ] * 2
    game = create_game(ana, seats, target_deals=2)
    rng = random.Random(5)
    while (state := wait_for_my_turn(ana, game["id"]))["status"] == "active":
        play_one(ana, game["id"], rng, state)
    assert Game.objects.get(pk=game["id"]).status == "finished"
    actors = set(Move.objects.filter(deal__game_id=game["id"]).values_list("actor", flat=True))
    assert {"ai:heuristic", "ai:greedy"} <= actors
    assert_sequences_whole(game["id"])


def requeue_lost_turns():
    """What celery beat's sweep does, run now as if the stall limit had passed."""
    services.turns_sweep(now=timezone.now() + dt.timedelta(minutes=10))


def test_a_worker_killed_mid_ai_turn_loses_nothing_and_doubles_nothing(celery_worker):
    ana = client_for("ana")
    seats = [{"type": "human"}, {"type": "ai", "level": "expert"}] + [
        {"type": "ai", "level": "random"}
    ] * 2
    # Two deals, so there are many chances to land a kill while the expert thinks (it
    # answers at once when it has a single legal move).
    game = create_game(ana, seats, target_deals=2)
    rng = random.Random(11)
    kills = attempts = 0
    while (state := wait_for_my_turn(ana, game["id"], on_stall=requeue_lost_turns))[
        "status"
    ] == "active":
        answer = play_one(ana, game["id"], rng, state)
        if kills == 0 and answer["ended_deal"] is None:
            attempts += 1
            deal_number, seq = state["deal"]["number"], answer["move"]["seq"]
            kills += kill_while_the_ai_thinks(celery_worker, game["id"], deal_number, seq)
    assert kills == 1, f"no kill landed mid-turn in {attempts} attempts"
    assert Game.objects.get(pk=game["id"]).status == "finished"
    assert_sequences_whole(game["id"])


def kill_while_the_ai_thinks(worker, game_id, deal_number, seq) -> bool:
    """SIGKILL the worker while it runs the AI's task for the turn after move `seq`, and
    start it again; whether the kill landed before the AI's move. The expert (seat 1)
    thinks for ~0.6 s; a bot that answers at once is missed (the move is there)."""
    unanswered = Deal.objects.filter(game_id=game_id, number=deal_number, seq=seq)
    wait_for(
        lambda: ai_task_running(worker, (game_id, deal_number, seq)) or not unanswered.exists(),
        timeout=30,
        interval=0.05,
        what="the AI's task running or done",
    )
    worker.kill()
    landed = unanswered.exists()
    worker.start()
    return landed


def ai_task_running(worker, turn) -> bool:
    """Whether the worker is running the AI task for `turn` (game id, deal, seq) now."""
    node = worker.node_name()
    active = celery_app.control.inspect(destination=[node], timeout=0.5).active() or {}
    return any(
        task["name"] == "games.ai_move" and tuple(task["args"]) == turn
        for task in active.get(node, [])
    )
