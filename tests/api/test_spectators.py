"""Anyone may watch a public game; no answer to a spectator ever holds a hand."""

from __future__ import annotations

import random

import pytest

from games.models import Deal
from tests.api.helpers import client_for, play_one, start_human_game, whose_turn
from tests.api.hidden import (
    cards_held,
    cards_in,
    everything_a_player_can_ask,
    first_deal_on,
    others_cards,
)

pytestmark = pytest.mark.django_db

PRESETS = ["philippine", "philippine-online", "philippine-deuce-high", "hong-kong"]
NAMES = ("ana", "ben", "cia", "dee")


def spectator_sees_no_hand(spectator, game_id: str) -> None:
    """Every answer to the spectator: no card of a hand in play, only counts."""
    every_hand = others_cards(game_id, -1)
    answers = everything_a_player_can_ask(spectator, game_id)
    for body in answers:
        assert not cards_in(body) & every_hand, body
    state = answers[0]
    assert state["view"] == "spectator"
    assert "hand" not in state["deal"]
    assert "legal_moves" not in state["deal"]
    assert sum(state["deal"]["card_counts"]) == cards_held(game_id)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_a_spectator_of_every_preset_never_sees_a_hand(preset, players):
    names = tuple(f"{n}_{preset[:3]}{players}" for n in NAMES)
    game_id, clients = start_human_game(players, rules=preset, names=names)
    spectator = client_for(f"eve_{preset[:3]}{players}")
    rng = random.Random(f"{preset}{players}")
    for _ in range(12):
        spectator_sees_no_hand(spectator, game_id)
        mover = whose_turn(clients, game_id)
        if mover is None:
            break
        play_one(mover, game_id, rng)


def test_a_spectator_watches_a_deal_to_its_end_and_then_sees_its_record():
    """Checked after every move up to and past the end of deal 1: nothing is hidden once
    a deal is over, and its record, refused while it was on, then shows the hands."""
    game_id, clients = start_human_game(2, names=("ana_end", "ben_end"))
    spectator = client_for("eve_end")
    rng = random.Random("to the end")
    record = f"/api/v1/games/{game_id}/deals/1/record"
    assert spectator.get(record).status_code == 409
    while first_deal_on(game_id):
        spectator_sees_no_hand(spectator, game_id)
        play_one(whose_turn(clients, game_id), game_id, rng)
    spectator_sees_no_hand(spectator, game_id)  # the game over: the counts left stay
    answer = spectator.get(record)
    assert answer.status_code == 200
    assert answer.json()["hands"] == Deal.objects.get(game_id=game_id, number=1).hands
