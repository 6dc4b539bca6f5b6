"""The bots search with the engine's own ``FastState``: rebuilt from what a seat may see,
it is the engine's state, and stepped with the true hands it stays the engine's state
until the first player goes out (where a search stops)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pusoy.engine import DealState
from pusoy.engine.fast import FastState
from pusoy.engine.movegen import beats_with_small_play, small_plays_above
from pusoy.engine.rules import PRESETS, Rules
from pusoy.engine.tables import tables_for
from tests.ai.helpers import positions

PUBLIC = ("turn", "beat_mask", "beat_key", "last", "leader", "passed", "active", "played")


def public(fast: FastState) -> tuple[object, ...]:
    return (*(getattr(fast, name) for name in PUBLIC), fast.required, list(fast.counts))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions)
def test_a_view_rebuilds_the_engines_state(state: DealState) -> None:
    engine = state.fast
    for seat in range(state.num_players):
        fast = FastState.from_view(state.view(seat))
        assert public(fast) == public(engine)
        assert fast.hands == [engine.hands[s] if s == seat else 0 for s in range(state.num_players)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, seed=st.integers(0, 2**16))
def test_a_search_follows_the_engine_to_the_first_player_out(state: DealState, seed: int) -> None:
    rng = random.Random(seed)
    sim = FastState.from_view(state.view(state.fast.turn))
    sim.hands = state.fast.hands
    while True:
        assert public(sim) == public(state.fast)
        assert sim.hands == state.fast.hands
        assert sorted(sim.legal_plays()) == sorted(state.legal_plays_fast())
        plays = sim.legal_plays()
        choice = rng.randrange(len(plays) + (sim.beat_key >= 0))
        mask, key = plays[choice] if choice < len(plays) else (0, -1)
        finished = len(state.finished_order)
        state.push_fast(mask, key)
        if sim.push(mask, key):
            assert state.finished_order[finished:] == (sim.out,)
            break
        assert not state.is_over


@settings(max_examples=400, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    hand=st.sets(st.integers(0, 51), max_size=13).map(lambda cards: sum(1 << c for c in cards)),
    card=st.integers(0, 51),
    size=st.integers(1, 3),
)
def test_the_bots_quick_beat_test_agrees_with_the_plays_that_beat(
    preset: str, hand: int, card: int, size: int
) -> None:
    # ``beats_with_small_play`` answers "is any play above this one?" without listing them.
    t = tables_for(Rules.from_spec(preset))
    bits = list(range(card, card - card % 4 + 4))[:size]  # one rank's cards from ``card`` up
    key = t.classify(sum(1 << b for b in bits)) if len(bits) == size else None
    if key is None:
        return
    assert beats_with_small_play(t, hand, key) == bool(small_plays_above(t, hand, key))
