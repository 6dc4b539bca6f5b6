"""Database queries per request do not grow with the length of the history."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.helpers import play_one, start_human_game, state_of, whose_turn

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _queries(request) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code in (200, 201), response.json()
    return len(captured.captured_queries), response


def _move_that_keeps_the_deal_going(state: dict) -> dict | None:
    """A legal move that does not end the deal (a deal's last move also scores it, which
    costs more queries and is not what is compared here)."""
    for move in state["legal_moves"]:
        if move["action"] == "pass" or len(move["cards"]) < len(state["hand"]):
            return move
    return None


def _counts(clients, game_id: str, rng: random.Random) -> dict[str, int] | None:
    """Queries for the three requests of a turn, made by the player to move; None (and
    nothing counted) when every legal move would end the deal."""
    client = whose_turn(clients, game_id)
    counts = {}
    counts["state"], response = _queries(lambda: client.get(f"/api/v1/games/{game_id}/state"))
    state = response.json()["deal"]
    move = rng.choice(state["legal_moves"])
    if len(state["hand"]) <= 5:
        move = _move_that_keeps_the_deal_going(state)
        if move is None:
            return None
    counts["history"], _ = _queries(lambda: client.get(f"/api/v1/games/{game_id}/moves"))
    counts["history_since"], _ = _queries(
        lambda: client.get(f"/api/v1/games/{game_id}/moves?since={max(0, state['seq'] - 2)}")
    )
    counts["move"], _ = _queries(
        lambda: client.post(
            f"/api/v1/games/{game_id}/moves",
            {**move, "expected_seq": state["seq"]},
            format="json",
        )
    )
    return counts


def test_queries_per_request_are_the_same_early_and_late_in_a_deal():
    # Many deals: random play can end a deal early; the late sample is taken in the
    # first deal that gets past move 28.
    game_id, clients = start_human_game(4, target_deals=20)
    rng = random.Random(11)
    for _ in range(2):
        _counts(clients, game_id, rng)  # past the first moves of the deal
    early = _counts(clients, game_id, rng)
    late = None
    for _ in range(2000):
        if state_of(clients[0], game_id)["deal"]["seq"] >= 28:
            late = _counts(clients, game_id, rng)
            if late is not None:
                break
        else:
            play_one(whose_turn(clients, game_id), game_id, rng)
    assert late == early
    # Pinned, so that a change that adds a round trip shows up here (without a shared
    # cache: tests/api/test_queries_pinned.py counts with one, and names each): auth 1;
    # the game joined to its seats 1; then the deal, its moves, or for a move: the
    # transaction, the game locked, its seats, the deal, one statement for the move
    # row with the deal and game updates (test transactions turn BEGIN/COMMIT into
    # savepoints); and the write's events, gathered (notifications.services.events_batched)
    # and written in three round trips whatever their number and recipients: the feeds' locks
    # with the one NOTIFY of the write (the game's waiters too) and one INSERT, sent
    # together, the read of webhooks that may want them (`move` to every human and
    # `your_turn` to the next: 16 queries when each event was written on its own), and the
    # read of the push devices of the `your_turn`'s recipient (push.services: only when a
    # pushed kind is among the events). Before the move's writes were combined and the
    # seats joined: 4, 5, 5, 13; before the events' locks and INSERT went together: 11.
    assert early == {"state": 3, "history": 4, "history_since": 4, "move": 10}
