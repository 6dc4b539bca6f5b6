"""The Celery broker down when a human's move commits, before an AI seat's turn: the move
is stored and answered 201; once the broker is back, the sweep queues the AI turn again
and a real worker plays it."""

from __future__ import annotations

import random
import time

import pytest

from tests.faults.helpers import NO_HANG_SECONDS, human_seat_game, register, report
from tests.throwaway import wait_for

pytestmark = pytest.mark.faults


def read_state(server, token, game_id):
    answer = server.call("GET", f"/api/v1/games/{game_id}/state", token=token)
    assert answer.status == 200, answer
    return answer.body


def my_turn(server, token, game_id, after_seq=-1):
    """The state when it is this player's turn at a seq beyond `after_seq`, else None."""
    state = read_state(server, token, game_id)
    assert state["status"] == "active", state
    deal = state["deal"]
    return state if deal["turn"] == state["seat"] and deal["seq"] > after_seq else None


def test_move_answers_201_with_the_broker_down_and_the_ai_plays_once_it_is_back(celery_stack):
    # A turn not queued is found by the sweep after a second, not 30.
    quick_sweep = {"AI_STALL_SECONDS": "1", "SWEEP_INTERVAL_SECONDS": "1"}
    with celery_stack("web-broker", quick_sweep) as (broker, server, _worker):
        token = register(server, "ben")
        game_id = human_seat_game(server, token)["id"]
        state = wait_for(
            lambda: my_turn(server, token, game_id), timeout=60, what="the AI seats before me"
        )

        broker.stop()
        deal = state["deal"]
        move = random.Random(7).choice(deal["legal_moves"])
        answer = server.call(
            "POST",
            f"/api/v1/games/{game_id}/moves",
            {**move, "expected_seq": deal["seq"]},
            token=token,
            timeout=NO_HANG_SECONDS,
        )
        assert answer.status == 201, answer
        report("move POST with the broker down", [answer.seconds])
        after = read_state(server, token, game_id)["deal"]
        assert after["seq"] == deal["seq"] + 1  # stored, and nobody could play since
        # Still serving: a balancer keeps the instance; monitoring is told.
        probe = server.call("GET", "/healthz", timeout=3)
        assert probe.status == 200, probe
        assert probe.body["status"] == "degraded"
        assert set(probe.body["details"]) == {"broker"}, probe.body
        full = server.call("GET", "/healthz/full", timeout=3)
        assert full.status == 503, full
        assert set(full.body["error"]["details"]) == {"broker"}, full.body

        broker.start()
        started = time.perf_counter()
        wait_for(
            lambda: my_turn(server, token, game_id, after_seq=after["seq"]),
            timeout=90,
            interval=0.2,
            what="the AI turn played after the broker came back",
        )
        report("broker back -> AI turns played, my turn again", [time.perf_counter() - started])
        assert "could not queue games.ai_move" in server.log()
