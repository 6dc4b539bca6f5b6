"""During a deal no response to a player holds a card of another player's hand."""

from __future__ import annotations

import random

import pytest

from games.models import Deal
from tests.api.helpers import client_for, play_one, start_human_game, state_of, whose_turn
from tests.api.hidden import cards_in, everything_a_player_can_ask, others_cards

pytestmark = pytest.mark.django_db


def test_no_response_shows_another_players_cards_during_the_deal():
    game_id, clients = start_human_game(4)
    stranger = client_for("eve")
    rng = random.Random(7)
    for _ in range(25):
        for seat, client in enumerate(clients):
            hidden = others_cards(game_id, seat)
            for body in everything_a_player_can_ask(client, game_id):
                assert not cards_in(body) & hidden, body
        all_hands = others_cards(game_id, -1)
        for body in everything_a_player_can_ask(stranger, game_id):
            assert not cards_in(body) & all_hands
        mover = whose_turn(clients, game_id)
        if mover is None:
            break
        play_one(mover, game_id, rng)


def test_records_and_replays_are_refused_while_the_deal_is_on():
    game_id, clients = start_human_game(4)
    for path in ("deals/1/record", "deals/1/replay"):
        response = clients[0].get(f"/api/v1/games/{game_id}/{path}")
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "deal_in_progress"


def test_state_shows_own_hand_and_only_counts_of_others():
    game_id, clients = start_human_game(4)
    for seat, client in enumerate(clients):
        deal = state_of(client, game_id)["deal"]
        assert deal["card_counts"] == [13, 13, 13, 13]
        assert len(deal["hand"]) == 13
        assert not set(deal["hand"]) & others_cards(game_id, seat)
        assert "hands" not in deal
        assert "seed" not in deal
        assert len(deal["commitment"]) == 64


def test_an_error_names_only_the_cards_the_player_sent():
    game_id, clients = start_human_game(4)
    turn = state_of(clients[0], game_id)["deal"]["turn"]
    someone_elses = sorted(others_cards(game_id, turn))[:2]
    response = clients[turn].post(
        f"/api/v1/games/{game_id}/moves",
        {"action": "play", "cards": ["3C", *someone_elses]},
        format="json",
    )
    assert response.status_code == 422
    named = cards_in(response.json())
    assert named <= {"3C", *someone_elses}
    # Which of the sent cards someone else holds is not revealed beyond "not yours".
    assert response.json()["error"]["code"] == "cards_not_in_hand"


def test_the_face_up_52nd_card_of_a_three_player_deal_is_shown_to_everyone():
    game_id, clients = start_human_game(3)
    deal = Deal.objects.get(game_id=game_id)
    shown = [state_of(client, game_id)["deal"]["face_up_card"] for client in clients]
    assert (
        shown[0]
        == shown[1]
        == shown[2]
        == {
            "card": deal.face_up_card,
            "seat": next(s for s, hand in enumerate(deal.hands) if deal.face_up_card in hand),
        }
    )
    holder = shown[0]["seat"]
    assert shown[0]["card"] in state_of(clients[holder], game_id)["deal"]["hand"]
    assert state_of(clients[0], game_id)["deal"]["card_counts"][holder] == 18


def test_four_player_deals_have_no_face_up_card():
    game_id, clients = start_human_game(4)
    assert state_of(clients[0], game_id)["deal"]["face_up_card"] is None
