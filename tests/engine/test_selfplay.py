"""Self-play: thousands of random deals over every preset and player count, through the
public API (legal_moves, validate, apply), with the invariants checked as they go."""

from __future__ import annotations

import random

import pytest

from pusoy.engine import DealState, Rules, record_from_state, verify_record
from tests.engine.helpers import PRESET_NAMES

DEALS_PER_CASE = 400
HOUSE_RULES = [
    {"play_out": True},
    {"pass_locks_out": True},
    {"triples": False},
    {"straights": "no-deuce"},
    {"scoring": "cards-left-tiered"},
    {"leftover": "set-aside", "hand_size": 13},
]
CASES = [(name, {}, n) for name in PRESET_NAMES for n in (2, 3, 4)] + [
    ("philippine", extra, n) for extra in HOUSE_RULES for n in (2, 3, 4)
]
TOTAL_DEALS = DEALS_PER_CASE * len(CASES)  # 12,000 deals


@pytest.mark.parametrize(("preset", "extra", "n"), CASES)
def test_random_self_play(preset: str, extra: dict, n: int) -> None:
    rules = Rules.from_spec({"preset": preset, **extra})
    rng = random.Random(f"{preset}{extra}{n}")
    for deal in range(DEALS_PER_CASE):
        leader = None if deal % 3 else rng.randrange(n)
        state = DealState.from_seed(rules, rng.randbytes(32), n, leader=leader)
        dealt = [len(h) for h in state.hands]
        while not state.is_over:
            seat = state.turn
            assert seat is not None
            moves = state.legal_moves()
            assert moves, "a seat to move always has a legal move"
            move = rng.choice(moves)
            cards = [str(c) for c in move.cards]
            validated = state.validate(seat, move.action, cards if cards else None)
            assert validated == move
            state.apply(move, seat)
        result = state.result
        assert result is not None
        assert sum(len(h) for h in state.hands) + len(state.played_cards) == sum(dealt)
        assert result.cards_left[result.winner] == 0
        if rules.scoring == "deuces-double":
            assert sorted(result.points)[:-1] == [0] * (n - 1)
            assert result.points[result.winner] in (1, 2, 4, 8, 16)
        else:
            assert result.points[result.winner] == 0
            assert all(p >= c for p, c in zip(result.points, result.cards_left, strict=True))
        if deal % 25 == 0:
            verdict = verify_record(record_from_state(state).to_dict())
            assert verdict.valid, verdict
