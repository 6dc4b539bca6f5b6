"""The history reading: scoring a world at the situations replayed once per move gives
what a full replay of the deal in that world gives, and ``recent`` reads a suffix."""

from __future__ import annotations

import random

import pytest

from games.ai import choose_move
from games.ai.heuristic import heuristic_play
from games.ai.inference import ActionModel
from games.ai.sim import Sim
from games.ai.worlds import WorldSampler
from games.engine import DealState


def replayed_mismatches(model: ActionModel, hands: list[int]) -> int:
    """The reference: replay the whole deal in the world and ask the heuristic."""
    initial = [hands[s] | model.played_by[s] for s in range(model.n)]
    sim = Sim.at_start(model.rules, initial, [h.bit_count() for h in initial], model.first_seat)
    sim.required = model.first_required
    missed = 0
    for seat, mask, key in model.steps:
        if sim.turn != seat:
            break
        if seat != model.seat and heuristic_play(sim)[0] != mask:
            missed += 1
        if sim.push(mask, key):
            break
    return missed


@pytest.mark.parametrize(
    "spec", ["philippine", "hong-kong", {"preset": "philippine", "pass_locks_out": True}]
)
def test_scoring_at_snapshots_matches_a_full_replay(spec: object) -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(5):
        state = DealState.from_seed(spec, rng.randbytes(32), 4)
        moves = 0
        while not state.is_over:
            view = state.view(state.turn)
            if moves % 4 == 3:
                model = ActionModel(view)
                sampler = WorldSampler(view)
                for _ in range(5):
                    hands = sampler.sample(rng)
                    full = model.mismatches(hands)
                    assert full == replayed_mismatches(model, hands)
                    recent = model.mismatches(hands, recent=3)
                    assert recent <= full
                    assert recent <= 3
                    checked += 1
            state.apply(choose_move("heuristic", view, rng))
            moves += 1
    assert checked > 20
