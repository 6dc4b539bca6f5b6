"""Validation of raw client input: one stable code, in the order of issue 3."""

from __future__ import annotations

import pytest

from pusoy.engine import (
    DealState,
    EngineError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Rules,
)
from tests.engine.helpers import fill_hands, play_moves

PH = Rules.from_spec("philippine")


def fresh() -> DealState:
    # seat 0: 3C 4C 4D 5C 6C ...; seat 1 holds 7H ...
    return DealState.new(PH, fill_hands(["3C 4C 4D 5S 6H 7D", "7H 8H", "9C", "TC"], [13] * 4))


def code(state: DealState, seat: int, action: str, cards: list | None = None) -> str | None:
    try:
        state.validate(seat, action, cards)
    except EngineError as error:
        return error.code
    return None


@pytest.mark.parametrize(
    ("seat", "action", "cards", "expected"),
    [
        (1, "play", ["ZZ"], "not_your_turn"),  # turn before anything about the cards
        (0, "pass", None, "cannot_pass_on_lead"),
        (0, "pass", [], "cannot_pass_on_lead"),
        (0, "play", ["3C", "XX"], "invalid_card"),
        (0, "play", ["3C", "3C", "ZZ"], "invalid_card"),  # invalid before duplicates
        (0, "play", ["3C", "3c"], "duplicate_cards"),
        (0, "play", ["7H", "7H"], "duplicate_cards"),  # duplicates before hand check
        (0, "play", ["7H"], "cards_not_in_hand"),
        (0, "play", ["7H", "3C", "4D"], "cards_not_in_hand"),  # before not_a_combination
        (0, "play", [], "not_a_combination"),
        (0, "play", ["3C", "4C"], "not_a_combination"),
        (0, "play", ["4C", "4D"], "must_include_opening_card"),
        (0, "play", ["3C", "4D", "5S", "6H", "7D"], None),
        (0, "play", ["3C"], None),
        (0, "move", ["3C"], "invalid_action"),
        (0, "play", "3C", "invalid_card"),
    ],
)
def test_validate_order_on_lead(
    seat: int, action: str, cards: list | None, expected: str | None
) -> None:
    assert code(fresh(), seat, action, cards) == expected


def test_validate_order_when_following() -> None:
    state = fresh()
    play_moves(state, [(0, "3C 4D 5S 6H 7D")])
    assert code(state, 1, "play", ["7H"]) == "wrong_size"
    state = fresh()
    play_moves(state, [(0, "3C")])
    assert code(state, 1, "pass") is None
    assert code(state, 1, "play", ["KD", "KH"]) == "wrong_size"
    assert code(state, 1, "play", ["7H", "8H", "ZZ"]) == "invalid_card"
    assert code(state, 2, "play", ["9C"]) == "not_your_turn"
    assert code(state, 1, "pass", ["7H"]) == "invalid_action"
    play_moves(state, [(1, "7H")])
    play_moves(state, [(2, "9C")])
    assert code(state, 3, "play", ["TC"]) is None
    state.apply(state.validate(3, "play", ["TC"]))
    assert code(state, 0, "play", ["4C"]) == "does_not_beat"


def test_game_not_active_first() -> None:
    hands = fill_hands(["3C", "7H", "9C", "TC"], [1, 13, 13, 13])
    state = DealState.new(PH, hands, set_aside=_rest(hands))
    state.apply(Move.parse("3C"))
    assert state.is_over
    assert code(state, 1, "play", ["ZZ"]) == "game_not_active"
    assert code(state, 0, "pass") == "game_not_active"
    with pytest.raises(IllegalMoveError) as info:
        state.check(Move.parse("7H"), 1)
    assert info.value.code == "game_not_active"


def _rest(hands: list[list[str]]) -> list[str]:
    from tests.engine.helpers import set_aside_of

    return set_aside_of(hands)


def test_error_classes_and_shape() -> None:
    state = fresh()
    with pytest.raises(InvalidMoveError):
        state.validate(0, "play", ["3C", "4C"])
    with pytest.raises(IllegalMoveError):
        state.validate(0, "play", ["4C"])
    with pytest.raises(IllegalMoveError) as info:
        state.validate(0, "play", ["7H", "3C"])
    assert info.value.to_dict() == {
        "code": "cards_not_in_hand",
        "message": info.value.message,
        "details": {"cards": ["7H"]},
    }
    assert isinstance(info.value, ValueError)


def test_errors_never_name_other_players_cards() -> None:
    """Messages and details name only cards the submitter sent or public cards."""
    state = fresh()
    others = {str(c) for seat in (1, 2, 3) for c in state.hands[seat]}
    attempts = [
        (0, "play", ["3C", "4C"]),
        (0, "play", ["4C", "4D"]),
        (0, "play", ["7H", "8H", "9C", "3C"]),
        (1, "play", ["8H"]),
        (0, "pass", None),
    ]
    for seat, action, cards in attempts:
        with pytest.raises(EngineError) as info:
            state.validate(seat, action, cards)
        text = info.value.message + repr(info.value.details)
        leaked = {c for c in others if c in text} - set(cards or [])
        assert not leaked, (info.value.code, text)


def test_check_and_apply_use_the_same_order() -> None:
    state = fresh()
    with pytest.raises(IllegalMoveError) as info:
        state.apply(Move.parse("7H"))
    assert info.value.code == "cards_not_in_hand"
    assert state.seq == 0  # nothing applied
    assert not state.is_legal(Move.parse("4C"))
    assert state.is_legal(Move.parse("3C"))
    state.apply(Move.parse("3C"))
    with pytest.raises(IllegalMoveError) as info:
        state.apply(Move.parse("9C"), 2)
    assert info.value.code == "not_your_turn"
