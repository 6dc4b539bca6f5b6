"""Round trips per request, pinned, as production runs (a shared cache: Redis, here the
per-process cache standing in for it) and without one. Each statement counted is named
below, so that a change that adds one says which."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.helpers import play_one, start_human_game, state_of, whose_turn

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

# A test's transaction turns the request's BEGIN/COMMIT into SAVEPOINT/RELEASE: counted
# the same.
MOVE = [
    "SAVEPOINT",  # the request's transaction (BEGIN)
    "the game locked",
    "its seats with their players (read after the lock: games.selectors.game_with_seats)",
    "the deal",
    "the move, the deal and the game's version: one statement",
    "the feeds' locks and the one NOTIFY, then the events' INSERT: one round trip",
    "RELEASE",  # COMMIT
]
READS = {
    "state": ["the game joined to its seats", "the deal"],
    "game": ["the game joined to its seats", "its creator", "its deals"],
    "me": ["the player with its rating"],
}
TOKEN = 1  # the token with its player, when no shared cache remembers it
WEBHOOKS_AND_DEVICES = 2  # read for the move's recipients, unless known to have none


def counted(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code in (200, 201), response.json()
    return len(captured)


def a_turn(clients, game_id, action: str):
    """The player to move, their state, and a move of `action` that keeps the deal going
    (None when there is none: a pass when leading, or a play out of their last cards)."""
    client = whose_turn(clients, game_id)
    deal = state_of(client, game_id)["deal"]
    for move in deal["legal_moves"]:
        if move["action"] == action and (
            action == "pass" or len(move["cards"]) < len(deal["hand"])
        ):
            return client, {**move, "expected_seq": deal["seq"]}
    return client, None


def requests() -> dict[str, int]:
    game_id, clients = start_human_game(4, target_deals=5)
    rng = random.Random(5)
    # A round of moves first: each player has been the recipient of a `your_turn`, so
    # whether they have webhooks or devices is known (once learned, remembered).
    for _ in range(4):
        play_one(whose_turn(clients, game_id), game_id, rng)
    got: dict[str, int] = {}
    for _ in range(200):
        if {"move", "pass"} <= set(got):
            break
        action = "pass" if "move" in got else "play"
        client, move = a_turn(clients, game_id, action)
        if move is None:  # play something else and look again next turn
            play_one(client, game_id, rng)
            continue
        key = "move" if action == "play" else "pass"
        got[key] = counted(
            lambda c=client, m=move: c.post(f"/api/v1/games/{game_id}/moves", m, format="json")
        )
    client = clients[0]
    client.get("/api/v1/players/me")  # the token remembered, when it can be
    got["state"] = counted(lambda: client.get(f"/api/v1/games/{game_id}/state"))
    got["game"] = counted(lambda: client.get(f"/api/v1/games/{game_id}"))
    got["me"] = counted(lambda: client.get("/api/v1/players/me"))
    return got


def test_queries_per_request_with_a_shared_cache(shared_cache):
    got = requests()
    assert got == {
        "move": len(MOVE),
        "pass": len(MOVE),
        "state": len(READS["state"]),
        "game": len(READS["game"]),
        "me": len(READS["me"]),
    }


def test_queries_per_request_without_a_shared_cache():
    got = requests()
    extra = TOKEN + WEBHOOKS_AND_DEVICES
    assert got == {
        "move": len(MOVE) + extra,
        "pass": len(MOVE) + extra,
        "state": len(READS["state"]) + TOKEN,
        "game": len(READS["game"]) + TOKEN,
        "me": len(READS["me"]) + TOKEN,
    }


def test_a_read_and_a_move_take_the_deal_this_process_holds_for_the_version(
    shared_cache, django_capture_on_commit_callbacks
):
    """games.deal_cache: once this process has read (or written) the game at its version,
    `GET state` and the move's locked read skip "the deal" (kept only once committed: the
    test's transaction never commits, so the callbacks are run by hand)."""
    game_id, clients = start_human_game(4, target_deals=5)
    rng = random.Random(5)
    for _ in range(4):
        play_one(whose_turn(clients, game_id), game_id, rng)
    client, move = a_turn(clients, game_id, "pass")
    if move is None:
        client, move = a_turn(clients, game_id, "play")
    assert move is not None
    with django_capture_on_commit_callbacks(execute=True):
        state_of(client, game_id)  # a miss: the deal read and kept for this version
    assert counted(lambda: client.get(f"/api/v1/games/{game_id}/state")) == 1
    with django_capture_on_commit_callbacks(execute=True):
        moved = counted(lambda: client.post(f"/api/v1/games/{game_id}/moves", move, format="json"))
    assert moved == len(MOVE) - 1
    # The move's own commit kept the deal for the version it made: the next read hits.
    assert counted(lambda: client.get(f"/api/v1/games/{game_id}/state")) == 1
