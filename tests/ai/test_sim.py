"""The bots' lean ``FastState`` follows the engine move by move on every rule variant."""

from __future__ import annotations

import random

import pytest

from games.engine import DealState, Rules
from games.engine.fast import FastState
from tests.ai.helpers import RULE_SPECS


@pytest.mark.parametrize("spec", RULE_SPECS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_sim_matches_the_engine(spec: object, players: int) -> None:
    rng = random.Random(f"sim{spec}{players}")
    rules = Rules.from_spec(spec)
    for _ in range(15):
        state = DealState.from_seed(rules, rng.randbytes(32), players)
        sim = FastState.from_view(state.view(state.turn))
        sim.hands = [sum(c.mask for c in hand) for hand in state.hands]
        while True:
            assert sim.turn == state.turn
            assert sorted(sim.legal_plays()) == sorted(state.legal_plays_fast())
            to_beat = state.to_beat
            assert sim.beat_key == (-1 if to_beat is None else to_beat.key)
            assert sim.counts == list(state.card_counts)
            assert sim.passed == sum(1 << s for s in state.passed)
            moves = state.legal_moves()
            move = rng.choice(moves)
            key = -1 if move.is_pass else next(k for m, k in sim.legal_plays() if m == move.mask)
            out = sim.push(move.mask, key)
            finished = len(state.finished_order)
            state.apply(move)
            if out:
                assert len(state.finished_order) == finished + 1
                assert state.finished_order[-1] == sim.out
                break
            # A sim rebuilt from any view of the new position agrees as well.
            fresh = FastState.from_view(state.view(state.turn))
            assert (fresh.turn, fresh.beat_key, fresh.passed, fresh.active, fresh.played) == (
                sim.turn,
                sim.beat_key,
                sim.passed,
                sim.active,
                sim.played,
            )
