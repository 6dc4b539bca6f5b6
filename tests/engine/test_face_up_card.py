"""docs/rules.md, 3 players: the 52nd card goes face up to the holder of the opening card."""

from __future__ import annotations

import pytest

from pusoy.engine import (
    PRESETS,
    DealState,
    EngineError,
    Rules,
    deal_from_seed,
    face_up_card,
    shuffle_deck,
)


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


@pytest.mark.parametrize("n", range(12))
def test_every_view_shows_the_face_up_card_and_its_holder(n):
    seed = bytes([n + 100]) * 32
    rules = PRESETS["philippine"]
    state = DealState.from_seed(rules, seed, 3)
    card = face_up_card(seed, rules, 3)
    holder = next(s for s, hand in enumerate(state.initial_hands) if card in hand)
    assert (state.face_up_card, state.face_up_seat) == (card, holder)
    for seat in range(3):
        view = state.view(seat)
        assert (view.face_up_card, view.face_up_seat) == (card, holder)
        assert view.to_dict()["face_up_card"] == {"card": str(card), "seat": holder}
    # The snapshot keeps it, through moves.
    state.apply(state.legal_moves()[0])
    again = DealState.from_dict(state.to_dict())
    assert (again.face_up_card, again.face_up_seat, again.seq) == (card, holder, 1)


def test_deals_without_a_face_up_card_show_none():
    seed = bytes(range(32))
    for rules, n in ((PRESETS["philippine"], 4), (PRESETS["philippine-deuce-high"], 3)):
        state = DealState.from_seed(rules, seed, n)
        assert state.face_up_card is None
        assert state.face_up_seat is None
        assert state.view(0).face_up_card is None
        assert "face_up" not in state.to_dict()
        assert state.view(1).to_dict()["face_up_card"] is None


def test_a_face_up_card_must_be_in_a_hand():
    with pytest.raises(EngineError) as error:
        DealState.new("philippine", ["3C 4C", "5C 6C", "7C 8C"], face_up="2S")
    assert error.value.code == "bad_hands"
    state = DealState.new("philippine", ["3C 4C", "5C 6C", "7C 8C"], face_up="6C")
    assert (str(state.face_up_card), state.face_up_seat) == ("6C", 1)
