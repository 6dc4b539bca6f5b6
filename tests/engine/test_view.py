"""PlayerView: what one seat may see, complete enough for a bot."""

from __future__ import annotations

import json
import random
from dataclasses import fields

from pusoy.engine import DealState, Move, PlayerView, Rules


def test_view_holds_no_other_hand() -> None:
    state = DealState.from_seed(Rules.from_spec(None), bytes(range(32)), 4)
    rng = random.Random(5)
    for _ in range(20):
        state.apply(rng.choice(state.legal_moves()))
    for seat in range(4):
        view = state.view(seat)
        own = {str(c) for c in view.hand}
        played = {str(c) for c in view.played_cards}
        hidden = {str(c) for s in range(4) if s != seat for c in state.hands[s]}
        text = json.dumps(view.to_dict())
        assert not any(f'"{card}"' in text for card in hidden)
        assert own == {str(c) for c in state.hands[seat]}
        assert played.isdisjoint(hidden)
        card_fields = [f.name for f in fields(PlayerView) if "hand" in f.name]
        assert card_fields == ["hand"]  # the only hand a view holds is its own


def test_view_public_information() -> None:
    state = DealState.from_seed(Rules.from_spec(None), bytes(range(32)), 4)
    leader = state.turn
    assert leader is not None
    state.apply(Move.parse("3C"))
    state.apply(Move.pass_())
    view = state.view(0)
    assert view.card_counts == (13, 13, 12, 13)
    assert view.turn == state.turn
    assert str(view.to_beat) == "3C"
    assert view.last_player == leader
    assert view.trick_leader == leader
    assert view.passed == frozenset({(leader + 1) % 4})
    assert [str(c) for c in view.played_cards] == ["3C"]
    assert [(s, str(m)) for s, m in view.history] == [(leader, "3C"), ((leader + 1) % 4, "pass")]
    assert view.seq == 2
    assert not view.is_over
    assert view.result is None
    assert view.in_play == frozenset(range(4))


def test_view_legal_moves_match_state_on_turn() -> None:
    rng = random.Random(11)
    for spec in ("philippine", "hong-kong", {"pass_locks_out": True, "triples": False}):
        state = DealState.from_seed(Rules.from_spec(spec), rng.randbytes(32), rng.choice([2, 3, 4]))
        while not state.is_over:
            seat = state.turn
            assert seat is not None
            assert state.view(seat).legal_moves() == state.legal_moves()
            other = (seat + 1) % state.num_players
            assert state.view(other).legal_moves() == []
            state.apply(rng.choice(state.legal_moves()))
        assert state.view(0).result == state.result
        assert state.view(0).is_over
