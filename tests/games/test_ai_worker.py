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
from tests.api.helpers import client_for, create_game, play_one, state_of

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]


def wait_for_my_turn(client, game_id, timeout=60.0, on_stall=None):
    """Poll until it is this player's turn or the game is over (AI moves are async)."""
    deadline = time.monotonic() + timeout
    last_seq, stalled_since = None, time.monotonic()
    while time.monotonic() < deadline:
        state = state_of(client, game_id)
        if state["status"] != "active" or state["deal"]["turn"] == state["seat"]:
            return state
        seq = (state["deal"]["number"], state["deal"]["seq"])
        if seq != last_seq:
            last_seq, stalled_since = seq, time.monotonic()
        elif on_stall and time.monotonic() - stalled_since > 3:
            on_stall()
            stalled_since = time.monotonic()
        time.sleep(0.05)
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
        play_one(ana, game["id"], rng, state)
        if kills == 0:
            attempts += 1
            current = Deal.objects.filter(game_id=game["id"]).order_by("-number").first()
            time.sleep(0.2)  # the expert (seat 1) is thinking now: it takes ~0.6 s
            celery_worker.kill()
            if Deal.objects.filter(pk=current.pk, seq=current.seq).exists():
                kills += 1  # killed before the AI's move landed: the case we want
            celery_worker.start()
    assert kills == 1, f"no kill landed mid-turn in {attempts} attempts"
    assert Game.objects.get(pk=game["id"]).status == "finished"
    assert_sequences_whole(game["id"])
