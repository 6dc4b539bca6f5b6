"""The history reading: scoring a world at the situations replayed once per move gives
what a full replay of the deal in that world gives (and the sum of its opponents'
scores), ``recent`` reads a suffix, and worlds dealt seat by seat respect the view."""

from __future__ import annotations

import functools
import random

import pytest

from games.ai import choose_move
from games.ai.heuristic import heuristic_play
from games.ai.inference import ActionModel
from games.ai.worlds import WorldSampler
from games.engine import DealState
from games.engine.fast import FastState


def replayed_mismatches(model: ActionModel, hands: list[int]) -> int:
    """The reference: replay the whole deal in the world and ask the heuristic."""
    initial = [hands[s] | model.played_by[s] for s in range(model.n)]
    sim = FastState.at_start(
        model.rules, initial, [h.bit_count() for h in initial], model.first_seat
    )
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
                    opponents = [s for s in range(4) if s != view.seat]
                    assert full == sum(model.seat_mismatches(s, hands[s]) for s in opponents)
                    recent = model.mismatches(hands, recent=3)
                    assert recent <= full
                    assert recent <= 3
                    checked += 1
            state.apply(choose_move("heuristic", view, rng))
            moves += 1
    assert checked > 20


def test_worlds_dealt_seat_by_seat_agree_with_everything_public() -> None:
    rng = random.Random(3)
    for _ in range(4):
        state = DealState.from_seed("philippine", rng.randbytes(32), 4)
        while not state.is_over:
            view = state.view(state.turn)
            model = ActionModel(view)
            sampler = WorldSampler(view)
            hands = sampler.sample_by_seat(
                rng, functools.partial(model.seat_mismatches, recent=3), 4
            )
            played = sum(card.mask for card in view.played_cards)
            assert hands[view.seat] == view.hand_mask
            for s in range(4):
                assert hands[s].bit_count() == view.card_counts[s]
                if s != view.seat:
                    assert not hands[s] & (played | view.hand_mask)
                    assert not any(hands[s] & hands[o] for o in range(4) if o != s)
            state.apply(choose_move("heuristic", view, rng))
