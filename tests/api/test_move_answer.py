"""The 201 answer to a move is the game as the move left it, also when it ends a deal."""

from __future__ import annotations

import pytest

from games.models import Deal
from tests.api.helpers import rig_deal, start_human_game, state_of

pytestmark = pytest.mark.django_db

# Seat 0 holds only the opening card: its first play ends the deal (1 point to seat 0).
ONE_CARD_DEAL = ["3C", "4S 5S", "6H 7H", "8D 9D"]


def play(client, game_id, cards, **headers):
    return client.post(
        f"/api/v1/games/{game_id}/moves",
        {"action": "play", "cards": cards},
        format="json",
        **headers,
    )


def test_the_move_that_ends_a_match_answers_the_final_scores():
    game_id, clients = start_human_game(4)
    rig_deal(game_id, ONE_CARD_DEAL)
    answer = play(clients[0], game_id, ["3C"]).json()
    assert answer["state"]["status"] == "finished"
    assert answer["state"]["scores"] == [1, 0, 0, 0]
    assert answer["state"] == state_of(clients[0], game_id)
    ended = answer["ended_deal"]
    assert ended["number"] == 1
    assert ended["result"] == {"winner": 0, "points": [1, 0, 0, 0], "places": [0, 1, 2, 3]}
    assert ended["seed"] == Deal.objects.get(game_id=game_id, number=1).seed


def test_the_move_that_ends_a_deal_of_a_match_answers_its_result_and_the_next_deal():
    game_id, clients = start_human_game(4, target_deals=2)
    rig_deal(game_id, ONE_CARD_DEAL)
    answer = play(clients[0], game_id, ["3C"]).json()
    # The state is the next deal's, with the scores the finished deal left...
    assert answer["state"]["deal"]["number"] == 2
    assert answer["state"]["scores"] == [1, 0, 0, 0]
    assert answer["state"] == state_of(clients[0], game_id)
    # ...and the deal just finished is in the answer, or the client would never see it.
    assert answer["ended_deal"]["number"] == 1
    assert answer["ended_deal"]["result"]["winner"] == 0
    assert answer["ended_deal"]["seed"] is not None


def test_an_ordinary_move_ends_no_deal():
    game_id, clients = start_human_game(4)
    rig_deal(game_id, ["3C 4C", "4S 5S", "6H 7H", "8D 9D"])
    answer = play(clients[0], game_id, ["3C"]).json()
    assert answer["ended_deal"] is None
    assert answer["move"]["cards"] == ["3C"]
    assert answer["state"] == state_of(clients[0], game_id)


def test_an_idempotent_retry_replays_the_final_answer_byte_for_byte():
    game_id, clients = start_human_game(4, target_deals=2)
    rig_deal(game_id, ONE_CARD_DEAL)
    first = play(clients[0], game_id, ["3C"], HTTP_IDEMPOTENCY_KEY="end-of-deal")
    again = play(clients[0], game_id, ["3C"], HTTP_IDEMPOTENCY_KEY="end-of-deal")
    assert first.status_code == again.status_code == 201
    assert first.content == again.content
    assert first.json()["state"]["scores"] == [1, 0, 0, 0]
    assert first["Idempotent-Replayed"] == "false"
    assert again["Idempotent-Replayed"] == "true"
