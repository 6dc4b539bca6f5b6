"""docs/rules.md, 3 players: the 52nd card goes face up to the holder of the opening card."""

from __future__ import annotations

import pytest

from games.engine import PRESETS, Rules, deal_from_seed, face_up_card, shuffle_deck


@pytest.mark.parametrize("n", range(40))
def test_the_52nd_card_is_face_up_and_in_its_receivers_hand(n):
    seed = bytes([n]) * 32
    rules = PRESETS["philippine"]
    card = face_up_card(seed, rules, 3)
    assert card == shuffle_deck(seed)[51]
    hands, set_aside = deal_from_seed(seed, rules, 3)
    holders = [seat for seat, hand in enumerate(hands) if card in hand]
    assert len(holders) == 1
    assert len(hands[holders[0]]) == 18
    assert set_aside == ()
    if card != rules.opening_card:
        assert rules.opening_card in hands[holders[0]]


def test_no_face_up_card_when_set_aside_or_not_three_players():
    seed = bytes(range(32))
    assert face_up_card(seed, PRESETS["philippine-deuce-high"], 3) is None
    assert face_up_card(seed, PRESETS["philippine"], 4) is None
    assert face_up_card(seed, Rules.from_spec({"hand_size": 13}), 2) is None
