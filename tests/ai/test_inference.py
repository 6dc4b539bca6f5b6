"""The history reading: scoring a world at the situations replayed once per move gives
what a full replay of the deal in that world gives (and the sum of its opponents'
scores), ``recent`` reads a suffix, and worlds dealt seat by seat respect the view."""

from __future__ import annotations

import collections
import itertools
import random
from collections.abc import Callable

import pytest

from pusoy.ai import Budget, expert
from pusoy.ai.heuristic import heuristic_move, heuristic_play
from pusoy.ai.inference import MISMATCH_WEIGHT, ActionModel, WorldChain, chained_worlds
from pusoy.ai.worlds import WorldSampler
from pusoy.engine import DealState, PlayerView
from pusoy.engine.fast import FastState


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
                    opponents = [s for s in range(4) if s != view.seat]
                    scored = sum(model.seat_mismatches(s, hands[s]) for s in opponents)
                    assert scored == replayed_mismatches(model, hands)
                    checked += 1
            state.apply(heuristic_move(view, rng))
            moves += 1
    assert checked > 20


def test_a_capped_count_is_exact_up_to_the_cap_and_above_it_past_it() -> None:
    """The chain stops counting once a step is sure to be refused; what it remembers of
    a stopped count must not pass later for the exact one."""
    rng = random.Random(12)
    state = DealState.from_seed("philippine", rng.randbytes(32), 4)
    while len(state.history) < 16:
        state.apply(heuristic_move(state.view(state.turn), rng))
    view = state.view(state.turn)
    sampler = WorldSampler(view, use_passes=False)
    reference = ActionModel(view)
    stopped = 0
    for _ in range(60):
        hands = sampler.sample(rng)
        for seat in sampler.opponents:
            exact = reference.seat_mismatches(seat, hands[seat])
            model = ActionModel(view)
            for cap in range(exact + 2):
                capped = model.known_mismatches(seat, hands[seat], cap)
                assert capped == exact if exact <= cap else capped > cap
                stopped += exact > cap
            assert model.known_mismatches(seat, hands[seat]) == exact
    assert stopped > 20


def _late_position() -> PlayerView:
    """A 4-player deal of heuristics, when the hidden cards are first 9 or fewer, seen
    by the seat to move: few enough deals of them to list."""
    rng = random.Random(21)
    while True:
        state = DealState.from_seed("philippine", rng.randbytes(32), 4)
        while not state.is_over:
            view = state.view(state.turn)
            hidden = sum(view.card_counts) - len(view.hand)
            if hidden <= 9 and len(view.history) > 12:
                return view
            state.apply(heuristic_move(view, rng))


def test_the_chain_draws_worlds_as_often_as_they_explain_the_opponents_moves() -> None:
    """Its stationary distribution: every deal of the hidden cards that agrees with the
    counts, weighted by MISMATCH_WEIGHT ** mismatches (listed exactly here), against
    the chain's visits over many steps."""
    view = _late_position()
    sampler = WorldSampler(view)
    model = ActionModel(view)
    opponents = sampler.opponents
    target: dict[tuple[int, ...], float] = {}
    pool = sampler.free
    counts = [view.card_counts[s] - sampler.forced.get(s, 0).bit_count() for s in opponents]
    cards = [1 << i for i in range(52) if pool >> i & 1]

    def deal(i: int, hands: list[int]) -> None:
        if i == len(opponents) - 1:
            hands = [*hands, sum(c for c in cards if not any(c & h for h in hands))]
            world = tuple(
                h | sampler.forced.get(s, 0) for s, h in zip(opponents, hands, strict=True)
            )
            mismatches = sum(
                model.seat_mismatches(s, h) for s, h in zip(opponents, world, strict=True)
            )
            target[world] = MISMATCH_WEIGHT**mismatches
            return
        taken = 0
        for h in hands:
            taken |= h
        free = [c for c in cards if not c & taken]
        for combo in itertools.combinations(free, counts[i]):
            deal(i + 1, [*hands, sum(combo)])

    deal(0, [])
    total = sum(target.values())
    assert len(target) > 20
    chain = WorldChain(sampler, model, random.Random(5), steps=1)
    visits: collections.Counter[tuple[int, ...]] = collections.Counter()
    steps = 40_000
    for _ in range(steps):
        hands = chain.sample()
        visits[tuple(hands[s] for s in opponents)] += 1
    assert set(visits) <= set(target)
    distance = sum(abs(visits[w] / steps - p / total) for w, p in target.items()) / 2
    assert distance < 0.05  # total variation (a uniform chain over-weighting misfits: ~0.3)


WorldSource = Callable[[PlayerView, ActionModel, WorldSampler], Callable[[], list[int]]]


def _mismatch_totals(
    seed: int, deals: int, every: int, first: WorldSource, second: WorldSource
) -> tuple[int, int]:
    """The opponents' moves unexplained by 4 worlds from each source, summed over the
    positions (every ``every``-th move after the 8th) of ``deals`` deals of heuristics."""
    rng = random.Random(seed)
    totals = [0, 0]
    for _ in range(deals):
        state = DealState.from_seed("philippine", rng.randbytes(32), 4)
        while not state.is_over:
            view = state.view(state.turn)
            if len(view.history) > 8 and len(view.history) % every == 0:
                model = ActionModel(view)
                sampler = WorldSampler(view)
                opponents = [s for s in range(4) if s != view.seat]
                sources = [first(view, model, sampler), second(view, model, sampler)]
                for _ in range(4):
                    for i, next_world in enumerate(sources):
                        world = next_world()
                        totals[i] += sum(model.seat_mismatches(s, world[s]) for s in opponents)
            state.apply(heuristic_move(view, rng))
    return totals[0], totals[1]


def test_chained_worlds_explain_the_opponents_moves_better_than_plain_draws() -> None:
    rng = random.Random(8)
    drawn, chained = _mismatch_totals(
        8,
        3,
        1,
        lambda view, model, sampler: lambda: sampler.sample(rng),
        lambda view, model, sampler: chained_worlds(sampler, model, rng),
    )
    assert chained < 0.7 * drawn  # (measured: about 0.54)


def test_a_longer_chain_explains_the_opponents_moves_better() -> None:
    """``burn_in`` and ``steps`` (the reading benchmark's long chains): the default
    chains are far from what they converge to when a search takes its worlds."""
    rng = random.Random(9)
    short, long = _mismatch_totals(
        9,
        2,
        3,
        lambda view, model, sampler: chained_worlds(sampler, model, rng),
        lambda view, model, sampler: chained_worlds(sampler, model, rng, burn_in=200, steps=30),
    )
    assert long < 0.7 * short  # (measured on the reading benchmark: about 0.4)


def test_a_big_budget_reads_the_history_sharper() -> None:
    """The expert's worlds: a search of 1 s draws them from the long chains, one of
    100 ms (or of few rollouts, whatever its time) from the short ones."""
    rng = random.Random(10)
    short, sharp = _mismatch_totals(
        10,
        2,
        3,
        lambda view, model, sampler: expert.world_source(view, rng, Budget(seconds=0.1)),
        lambda view, model, sampler: expert.world_source(view, rng, Budget(seconds=1.0)),
    )
    assert sharp < 0.7 * short
    sharp_from = expert.SHARP_READING_FROM
    assert expert.budget_rollouts(Budget(seconds=0.1)) < sharp_from
    assert expert.budget_rollouts(Budget(seconds=1.0)) >= sharp_from
    assert expert.budget_rollouts(Budget(seconds=60, iterations=300)) < sharp_from
