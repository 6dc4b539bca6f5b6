"""The embedded default (no broker) plays like the full stack: a move is answered once it
is stored, the AI seats reply in the background, and a deadline passes with nobody
calling. Against the real web server as a subprocess, on SQLite, as `serve.sh` runs it."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from tests.faults.helpers import register
from tests.throwaway import LiveServer, sqlite_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    with sqlite_server(
        tmp_path_factory.mktemp("embedded"),
        name="embedded",
        env={"EMBEDDED_TASKS": "background", "SWEEP_INTERVAL_SECONDS": "1"},
        log_chars=8000,
    ) as web:
        yield web


def history(server, token, game_id, since, wait):
    answer = server.call(
        "GET", f"/api/v1/games/{game_id}/moves?since={since}&wait={wait}", token=token,
        timeout=wait + 10,
    )  # fmt: skip
    assert answer.status == 200, answer
    return answer.body


def state(server, token, game_id):
    answer = server.call("GET", f"/api/v1/games/{game_id}/state", token=token)
    assert answer.status == 200, answer
    return answer.body


def wait_for_my_turn(server, token, game_id, deadline_seconds=30.0):
    """Follow the history by long-polling (as an app would) until it is this seat's turn."""
    deadline = time.monotonic() + deadline_seconds
    while time.monotonic() < deadline:
        current = state(server, token, game_id)
        if current["deal"]["turn"] == current["seat"]:
            return current
        history(server, token, game_id, current["deal"]["seq"], wait=5)
    raise AssertionError(f"not my turn after {deadline_seconds}s: {current}")


def test_a_move_is_answered_at_once_and_the_ai_seats_reply_in_the_background(server):
    token = register(server, "emb_ana")
    seats = [{"type": "human"}] + [{"type": "ai", "level": "greedy"}] * 3
    created = server.call("POST", "/api/v1/games", {"seats": seats}, token=token)
    assert created.status == 201, created
    game_id = created.body["id"]
    mine = wait_for_my_turn(server, token, game_id)
    deal = mine["deal"]
    move = next(m for m in deal["legal_moves"] if m["action"] == "play")
    answer = server.call(
        "POST",
        f"/api/v1/games/{game_id}/moves",
        {**move, "expected_seq": deal["seq"]},
        token=token,
    )
    assert answer.status == 201, answer
    after = answer.body["state"]["deal"]
    # The answer is the game as the move left it: the next seat, an AI, is still to play.
    assert after["seq"] == deal["seq"] + 1
    assert after["turn"] != mine["seat"]
    # Their replies arrive by themselves, as the history's long-poll shows.
    replies = history(server, token, game_id, after["seq"], wait=20)["moves"]
    assert replies, "no AI move within the wait"
    assert {m["actor"] for m in replies} == {"ai:greedy"}
    wait_for_my_turn(server, token, game_id)


def test_a_turn_deadline_passes_with_nobody_calling(server):
    ana, ben = register(server, "emb_ben"), register(server, "emb_cia")
    created = server.call(
        "POST",
        "/api/v1/games",
        {"seats": [{"type": "human"}] * 2, "turn_timeout": 10},
        token=ana,
    )
    assert created.status == 201, created
    game_id = created.body["id"]
    joined = server.call("POST", f"/api/v1/games/{game_id}/join", {}, token=ben)
    assert joined.status == 200, joined
    assert state(server, ana, game_id)["deal"]["deadline"] is not None
    # Nobody moves. The embedded scheduler's sweep plays the expired turn (10 s, then
    # within a sweep interval); the long-poll is woken by it.
    moves = []
    deadline = time.monotonic() + 40
    while not moves and time.monotonic() < deadline:
        moves = history(server, ana, game_id, 0, wait=15)["moves"]
    assert moves, "the deadline passed and nobody played"
    assert moves[0]["actor"] == "timeout"


@pytest.mark.django_db(transaction=True)
def test_the_post_queues_the_ai_turn_for_the_runner_instead_of_computing_it(monkeypatch):
    # In-process, with a runner whose threads are not started: what the request leaves
    # for the background is exactly the AI's turn, and the answer came without it.
    from games.models import Move
    from pusoy_api import embedded
    from tests.api.helpers import client_for, create_game, play_one, state_of

    runner = embedded.Runner(workers=1, schedule={})
    monkeypatch.setattr(embedded, "_runner", runner)
    ana = client_for("ana")
    seats = [{"type": "human"}] + [{"type": "ai", "level": "greedy"}] * 3
    game_id = create_game(ana, seats)["id"]
    while (current := state_of(ana, game_id))["deal"]["turn"] != current["seat"]:
        task, args, _ = runner.tasks.get_nowait()  # an AI leads: play it as the runner would
        task(*args)
    before = Move.objects.count()
    answer = play_one(ana, game_id, random.Random(4), current)
    assert Move.objects.count() == before + 1  # the human's move only
    task, args, _ = runner.tasks.get_nowait()
    assert task.name == "games.ai_move"
    assert args == (game_id, 1, answer["move"]["seq"])
    assert runner.tasks.empty()
