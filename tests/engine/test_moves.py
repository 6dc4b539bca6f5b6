"""Move: a small immutable value with notation in and out."""

from __future__ import annotations

import copy
import pickle

import pytest

from pusoy.engine import DealState, InvalidMoveError, Move, Rules


def test_move_notation_round_trip() -> None:
    move = Move.parse("9H 9S")
    assert str(move) == "9S 9H"
    assert repr(move) == "Move.parse('9S 9H')"
    assert eval(repr(move)) == move
    assert [str(c) for c in move.cards] == ["9S", "9H"]
    assert not move.is_pass
    assert move.action == "play"
    assert move.to_dict() == {"action": "play", "cards": ["9S", "9H"]}
    assert Move.play(["9h", "9s"]) == move
    assert hash(Move.play("9S 9H")) == hash(move)


def test_pass_move() -> None:
    for text in ("pass", "PASS", " Pass "):
        assert Move.parse(text) == Move.pass_()
    assert Move.pass_().is_pass
    assert Move.pass_().cards == ()
    assert str(Move.pass_()) == "pass"
    assert eval(repr(Move.pass_())) == Move.pass_()
    assert Move.pass_().to_dict() == {"action": "pass"}


def test_move_is_immutable_and_copyable() -> None:
    move = Move.parse("3C")
    with pytest.raises(AttributeError):
        move.mask = 5  # type: ignore[misc]
    assert copy.copy(move) == move
    assert pickle.loads(pickle.dumps(move)) == move


def test_bad_moves() -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse("3C 3C")
    assert info.value.code == "duplicate_cards"
    with pytest.raises(InvalidMoveError) as info:
        Move.play([])
    assert info.value.code == "not_a_combination"
    with pytest.raises(InvalidMoveError) as info:
        Move.parse("3C 1X")
    assert info.value.code == "invalid_card"


def test_state_copy_is_independent() -> None:
    state = DealState.from_seed(Rules.from_spec(None), bytes(32), 4)
    clone = state.copy()
    clone.apply(clone.legal_moves()[0])
    assert state.seq == 0
    assert clone.seq == 1
    assert state.hands != clone.hands
    assert pickle.loads(pickle.dumps(state)).to_dict() == state.to_dict()
