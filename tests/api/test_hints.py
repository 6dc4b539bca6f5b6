"""Hints through HTTP: a legal move of the caller's own hand and a reason, on their turn,
only in games created with hints; every other case refused with its code."""

from __future__ import annotations

import random

import pytest

from tests.api.helpers import (
    client_for,
    create_game,
    play_until_finished_fast,
    start_human_game,
    state_of,
)

pytestmark = pytest.mark.django_db

AI_SEATS = [{"type": "ai", "level": level} for level in ("random", "greedy", "heuristic")]


def code_of(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_on_my_turn_the_hint_is_a_legal_move_with_a_reason_until_the_deal_ends():
    game_id, clients = start_human_game(4, hints=True)
    rng = random.Random(2)
    for _ in range(40):
        state = state_of(clients[0], game_id)
        if state["status"] != "active":
            break
        turn = state["deal"]["turn"]
        mine = state_of(clients[turn], game_id)["deal"]
        answer = clients[turn].get(f"/api/v1/games/{game_id}/hint")
        assert answer.status_code == 200, answer.json()
        hint = answer.json()
        assert hint["move"] in mine["legal_moves"]
        assert set(hint["move"]["cards"]) <= set(mine["hand"])
        assert hint["reason"].endswith(".")
        # Asked again before anyone moves: the same hint.
        assert clients[turn].get(f"/api/v1/games/{game_id}/hint").json() == hint
        # Everyone else is refused, whatever they ask.
        other = clients[(turn + 1) % 4]
        assert code_of(other.get(f"/api/v1/games/{game_id}/hint")) == (409, "not_your_turn")
        move = hint["move"] if rng.random() < 0.7 else rng.choice(mine["legal_moves"])
        posted = clients[turn].post(f"/api/v1/games/{game_id}/moves", move, format="json")
        assert posted.status_code == 201, posted.json()


def test_the_first_hint_of_a_deal_plays_the_opening_card():
    game_id, clients = start_human_game(4, hints=True)
    state = state_of(clients[0], game_id)
    leader = clients[state["deal"]["turn"]]
    hint = leader.get(f"/api/v1/games/{game_id}/hint").json()
    assert "3C" in hint["move"]["cards"]
    assert "3C" in hint["reason"]


def test_a_game_without_hints_refuses():
    game_id, clients = start_human_game(2)
    turn = state_of(clients[0], game_id)["deal"]["turn"]
    answer = clients[turn].get(f"/api/v1/games/{game_id}/hint")
    assert code_of(answer) == (409, "hints_off")


def test_outsiders_spectators_and_other_games_are_refused():
    game_id, clients = start_human_game(2, hints=True)
    outsider = client_for("zed")
    assert code_of(outsider.get(f"/api/v1/games/{game_id}/hint")) == (403, "not_a_participant")
    private = create_game(clients[0], [{"type": "human"}] * 2, hints=True, visibility="private")
    assert code_of(outsider.get(f"/api/v1/games/{private['id']}/hint")) == (404, "not_found")


def test_waiting_finished_and_resigned_games_are_refused():
    ana = client_for("ana")
    waiting = create_game(ana, [{"type": "human"}] * 2, hints=True)
    assert code_of(ana.get(f"/api/v1/games/{waiting['id']}/hint")) == (409, "game_not_active")

    finished = create_game(ana, [{"type": "human"}, *AI_SEATS], hints=True)
    play_until_finished_fast(finished["id"], random.Random(1))
    assert code_of(ana.get(f"/api/v1/games/{finished['id']}/hint")) == (409, "game_not_active")

    game_id, clients = start_human_game(3, hints=True, names=("bo", "cy", "di"))
    assert clients[0].post(f"/api/v1/games/{game_id}/resign").status_code == 200
    assert code_of(clients[0].get(f"/api/v1/games/{game_id}/hint")) == (409, "seat_resigned")
