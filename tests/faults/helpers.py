"""What the fault tests share: skipping without binaries, accounts, the outage answer."""

from __future__ import annotations

import os
import statistics
from typing import Any

import pytest

from tests.throwaway import Answer, LiveServer

REQUIRE_SERVICES = os.environ.get("PUSOY_REQUIRE_SERVICES") == "1"
PASSWORD = "a-long-enough-test-password-42"
# "No hang": an outage answer must come well before the 10-12 s a request used to hang
# for (a pool wait of 10 s); not a latency target, which this shared machine cannot time.
NO_HANG_SECONDS = 6.0


def need(available: bool, what: str) -> None:
    """Skip (saying why) on a machine without the binaries; CI, which sets
    PUSOY_REQUIRE_SERVICES=1, fails instead, so no such test can vanish silently."""
    if available:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"{what} not installed and PUSOY_REQUIRE_SERVICES=1")
    pytest.skip(f"{what} not installed: this test needs it")


def register(server: LiveServer, username: str) -> str:
    answer = server.call(
        "POST", "/api/v1/auth/register", {"username": username, "password": PASSWORD}
    )
    assert answer.status == 201, answer
    return answer.body["token"]


def assert_unavailable(answer: Answer) -> None:
    """The outage answer: 503, the error envelope, and when to come back."""
    assert answer.status == 503, answer
    assert answer.error_code() == "service_unavailable", answer
    assert set(answer.body["error"]) == {"code", "message", "details"}, answer
    assert int(answer.headers.get("retry-after", "0")) >= 1, answer.headers


def report(label: str, seconds: list[float]) -> None:
    """Latencies are printed (run with -s to see them), never asserted tightly."""
    values = ", ".join(f"{s:.2f}" for s in seconds)
    print(f"\n[latency] {label}: median {statistics.median(seconds):.2f}s ({values})")


def post_move(server: Any, token: str, game_id: str, move: dict, expected_seq: int) -> Answer:
    """One of the state's `legal_moves`, refused (409) if the deal moved on past
    `expected_seq`."""
    return server.call(
        "POST",
        f"/api/v1/games/{game_id}/moves",
        {**move, "expected_seq": expected_seq},
        token=token,
    )


def human_seat_game(server: LiveServer, token: str, ai_level: str = "random") -> dict[str, Any]:
    """A game of one human and three AI seats (dealt at once, as every seat is filled)."""
    seats = [{"type": "human"}] + [{"type": "ai", "level": ai_level}] * 3
    answer = server.call("POST", "/api/v1/games", {"seats": seats}, token=token)
    assert answer.status == 201, answer
    return answer.body
