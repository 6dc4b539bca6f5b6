"""Every move error code through HTTP, each leaving the game exactly as it was."""

from __future__ import annotations

import pytest

from games.models import Deal, Game, Move
from tests.api.helpers import RIGGED, client_for, create_game, rig_deal, start_human_game, state_of

pytestmark = pytest.mark.django_db


def snapshot(game_id):
    game = Game.objects.get(pk=game_id)
    deal = Deal.objects.filter(game=game).order_by("-number").first()
    return (
        game.version,
        game.status,
        deal and (deal.seq, deal.turn, deal.snapshot),
        Move.objects.filter(deal__game=game).count(),
    )


def post_move(client, game_id, body, **headers):
    return client.post(f"/api/v1/games/{game_id}/moves", body, format="json", **headers)


@pytest.fixture
def game():
    """A dealt 4-player game: (id, clients, the state of the seat to play)."""
    game_id, clients = start_human_game(4)
    leader_state = state_of(clients[0], game_id)
    turn = leader_state["deal"]["turn"]
    return game_id, clients, turn


def assert_refused(response, status, code, game_id, before):
    assert response.status_code == status, response.json()
    error = response.json()["error"]
    assert error["code"] == code
    assert isinstance(error["message"], str)
    assert isinstance(error["details"], dict)
    assert snapshot(game_id) == before


def test_not_your_turn(game):
    game_id, clients, turn = game
    other = clients[(turn + 1) % 4]
    before = snapshot(game_id)
    assert_refused(
        post_move(other, game_id, {"action": "pass"}), 409, "not_your_turn", game_id, before
    )


def test_cannot_pass_on_lead(game):
    game_id, clients, turn = game
    before = snapshot(game_id)
    response = post_move(clients[turn], game_id, {"action": "pass"})
    assert_refused(response, 422, "cannot_pass_on_lead", game_id, before)


@pytest.mark.parametrize(
    ("cards", "status", "code"),
    [
        (["ZZ"], 400, "invalid_card"),
        (["3X"], 400, "invalid_card"),
        ([""], 400, "invalid_card"),
        ([3], 400, "invalid_card"),
        (["3C", "3c"], 422, "duplicate_cards"),
        (["3C", "3♣"], 422, "duplicate_cards"),
        (["TD", "10d"], 422, "duplicate_cards"),
        ([" 3C"], 400, "invalid_card"),
        ([], 400, "invalid_input"),  # the schema: a play has 1 to 17 cards
    ],
)
def test_malformed_cards(game, cards, status, code):
    game_id, clients, turn = game
    before = snapshot(game_id)
    response = post_move(clients[turn], game_id, {"action": "play", "cards": cards})
    assert_refused(response, status, code, game_id, before)


def test_cards_not_in_hand_names_only_the_submitted_cards(game):
    game_id, clients, turn = game
    hand = set(state_of(clients[turn], game_id)["deal"]["hand"])
    missing = next(c for c in ("2D", "2H", "2S", "2C", "AD") if c not in hand)
    before = snapshot(game_id)
    response = post_move(clients[turn], game_id, {"action": "play", "cards": [missing]})
    assert_refused(response, 422, "cards_not_in_hand", game_id, before)
    assert missing in str(response.json())


def test_not_a_combination_and_must_include_opening_card(game):
    game_id, clients, turn = game
    hand = state_of(clients[turn], game_id)["deal"]["hand"]
    assert "3C" in hand
    before = snapshot(game_id)
    mismatched = [hand[0], next(c for c in hand if c[0] != hand[0][0])]
    response = post_move(clients[turn], game_id, {"action": "play", "cards": mismatched})
    assert_refused(response, 422, "not_a_combination", game_id, before)
    other = next(c for c in hand if c != "3C")
    response = post_move(clients[turn], game_id, {"action": "play", "cards": [other]})
    assert_refused(response, 422, "must_include_opening_card", game_id, before)


def test_wrong_size_and_does_not_beat(game):
    game_id, clients, _turn = game
    rig_deal(game_id, RIGGED)
    assert post_move(clients[0], game_id, {"action": "play", "cards": ["3C"]}).status_code == 201
    assert post_move(clients[1], game_id, {"action": "play", "cards": ["9S"]}).status_code == 201
    before = snapshot(game_id)
    response = post_move(clients[2], game_id, {"action": "play", "cards": ["4H", "5H"]})
    assert_refused(response, 422, "not_a_combination", game_id, before)
    response = post_move(clients[2], game_id, {"action": "play", "cards": ["3H 4H 5H 6H 7H"]})
    assert_refused(response, 400, "invalid_card", game_id, before)
    straight = ["3H", "4H", "5H", "6H", "7H"]
    response = post_move(clients[2], game_id, {"action": "play", "cards": straight})
    assert_refused(response, 422, "wrong_size", game_id, before)
    response = post_move(clients[2], game_id, {"action": "play", "cards": ["8H"]})
    assert_refused(response, 422, "does_not_beat", game_id, before)
    # Same rank: the suit decides (hearts beat spades in the Philippine order).
    assert post_move(clients[2], game_id, {"action": "play", "cards": ["9H"]}).status_code == 201


def test_stale_seq(game):
    game_id, clients, turn = game
    before = snapshot(game_id)
    response = post_move(
        clients[turn], game_id, {"action": "play", "cards": ["3C"], "expected_seq": 7}
    )
    assert_refused(response, 409, "stale_seq", game_id, before)
    assert response.json()["error"]["details"] == {"seq": 0}


def test_not_a_participant(game):
    game_id, _clients, _turn = game
    stranger = client_for("eve")
    before = snapshot(game_id)
    response = post_move(stranger, game_id, {"action": "pass"})
    assert_refused(response, 403, "not_a_participant", game_id, before)
    # Without a seat, a public game is there to watch: the table, no hand.
    watched = stranger.get(f"/api/v1/games/{game_id}/state").json()
    assert watched["view"] == "spectator"
    assert "hand" not in watched["deal"]


def test_game_not_active_while_waiting_for_players():
    ana = client_for("ana")
    game = create_game(ana, [{"type": "human"}, {"type": "human"}])
    before = snapshot(game["id"])
    response = post_move(ana, game["id"], {"action": "pass"})
    assert_refused(response, 409, "game_not_active", game["id"], before)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"action": "fold"},
        {"action": "play"},
        {"action": "play", "cards": "3C"},
        {"action": "play", "cards": [None]},
        {"action": "play", "cards": ["3C"] * 60},
        {"action": "play", "cards": ["3C"], "expected_seq": -1},
        {"action": "play", "cards": ["3C"], "expected_seq": "x"},
        ["not", "an", "object"],
    ],
)
def test_bad_bodies_are_400_invalid_input(game, body):
    game_id, clients, turn = game
    before = snapshot(game_id)
    response = post_move(clients[turn], game_id, body)
    assert_refused(response, 400, "invalid_input", game_id, before)


def test_unknown_game_is_404():
    ana = client_for("ana")
    response = post_move(ana, "00000000-0000-0000-0000-000000000000", {"action": "pass"})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"seats": [{"type": "human"}]}, "invalid_seats"),
        ({"seats": []}, "invalid_seats"),
        ({"seats": [{"type": "human"}] * 5}, "invalid_seats"),
        ({}, "invalid_seats"),
        ({"seats": [{"type": "human"}, {"type": "ai"}]}, "invalid_seats"),
        ({"seats": [{"type": "human"}, {"type": "ai", "level": "god"}]}, "invalid_seats"),
        ({"seats": [{"type": "human"}] * 2, "rules": "nope"}, "invalid_rules"),
        ({"seats": [{"type": "human"}] * 2, "rules": {"straights": "x"}}, "invalid_rules"),
        ({"seats": [{"type": "human"}] * 2, "rules": {"colour": "red"}}, "invalid_rules"),
        ({"seats": [{"type": "human"}] * 2, "target_deals": 0}, "invalid_input"),
        ({"seats": "four"}, "invalid_seats"),
    ],
)
def test_bad_game_creation(payload, code):
    ana = client_for("ana")
    response = ana.post("/api/v1/games", payload, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["error"]["code"] == code
    assert not Game.objects.exists()


def test_a_game_with_no_seat_for_its_creator_is_refused_by_the_rules():
    # Well-formed (the schema allows two AI seats), refused by a rule: 422.
    ana = client_for("ana")
    response = ana.post(
        "/api/v1/games", {"seats": [{"type": "ai", "level": "expert"}] * 2}, format="json"
    )
    assert response.status_code == 422, response.json()
    assert response.json()["error"]["code"] == "no_human_seat"
    assert not Game.objects.exists()
