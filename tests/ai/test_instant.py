"""The ``heuristic`` level's small search (``pusoy.ai.instant``): legal and repeatable on
every rule variant, the heuristic's play unless the search finds better, and the
heuristic's stance untouched in a deal that may end a match."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.strength import variants
from pusoy.ai import expert, instant
from pusoy.ai.budget import Budget
from pusoy.ai.heuristic import heuristic_move
from pusoy.ai.instant import candidates, instant_move
from pusoy.engine import DealState, MatchStanding, Rules
from pusoy.engine.fast import FastPlay, FastState
from pusoy.engine.state import PlayerView
from tests.ai.helpers import RULE_SPECS, positions, random_position


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, seed=st.integers(0, 2**16))
def test_the_level_is_legal_and_repeatable(state: DealState, seed: int) -> None:
    view = state.view(state.turn)
    move = instant_move(view, random.Random(seed))
    assert move in view.legal_moves()
    assert instant_move(view, random.Random(seed)) == move


@pytest.mark.parametrize("spec", RULE_SPECS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_deals_of_the_level(spec: object, players: int) -> None:
    """Deals played to the end by the level in every seat; ``apply`` rejects any
    illegal move."""
    rng = random.Random(f"{spec}{players}")
    state = DealState.from_seed(Rules.from_spec(spec), rng.randbytes(32), players)
    while not state.is_over:
        state.apply(instant_move(state.view(state.turn), rng))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, seed=st.integers(0, 2**16))
def test_the_heuristics_play_stands_unless_another_is_ahead(state: DealState, seed: int) -> None:
    """With a bar no paired difference clears, the level plays the heuristic's move; and
    whatever it plays is one of its candidates, the heuristic's first."""
    view = state.view(state.turn)
    sim = FastState.from_view(view)
    plays = sim.legal_plays()
    default = (heuristic_move(view, random.Random(0)).mask, 0)
    found = candidates(sim, plays, next((p for p in plays if p[0] == default[0]), (0, -1)))
    assert len(found) <= instant.MAX_CANDIDATES
    assert found[0][0] == default[0]
    move = instant_move(view, random.Random(seed))
    assert move.mask in {c[0] for c in found} or move.mask == sim.hands[sim.turn]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(instant, "KEEP_DEFAULT_Z", float("inf"))
        assert instant_move(view, random.Random(seed)) == heuristic_move(view, random.Random(0))


def test_a_deal_that_may_end_the_match_is_the_heuristics() -> None:
    """When the deal may end the match the heuristic plays a stance for it; the search,
    which scores the deal's payment, stays out."""
    rules = Rules.from_spec("philippine-online")
    rng = random.Random(3)
    for _ in range(20):
        state = DealState.from_seed(rules, rng.randbytes(32), 4)
        for _ in range(rng.randrange(12)):
            state.apply(heuristic_move(state.view(state.turn), rng))
        last = MatchStanding(scores=(0, 30, 12, 5), deals_won=(2, 0, 1, 1), deals_left=1)
        view = state.view(state.turn).with_match(last)
        assert instant_move(view, random.Random(1)) == heuristic_move(view, random.Random(0))


def test_it_is_not_its_turn() -> None:
    state = DealState.from_seed("philippine", bytes(32), 4)
    seat = next(s for s in range(4) if s != state.turn)
    with pytest.raises(ValueError, match="turn"):
        instant_move(state.view(seat), random.Random(0))


def test_the_expert_keeps_a_default_policys_move_and_searches_it() -> None:
    """``expert.Tuning.default_policy`` (the variant ``expert_instant_default``, not the
    served expert): the policy is asked with the searching seat's own view, and its move
    takes the planner's place as the one the search keeps unless beaten; with a bar no
    candidate can clear, the search plays it after weighing it against the others."""
    assert expert.Tuning().default_policy is None
    kept = 0
    for seed in range(8):
        state = random_position("philippine", 4, seed, seed % 4)
        view = state.view(state.turn)
        plays = FastState.from_view(view).legal_plays()
        if not plays:
            continue  # only a pass
        chosen = max(plays, key=lambda p: p[1])  # the highest play: seldom the planner's
        asked: list[int] = []

        def policy(
            seen: PlayerView,
            rng: random.Random,
            chosen: FastPlay = chosen,
            asked: list[int] = asked,
        ) -> FastPlay:
            asked.append(seen.seat)
            return chosen

        tuning = expert.Tuning(default_policy=policy, keep_default_z=math.inf)
        play, stats = expert.search(view, random.Random(seed), Budget.of_rollouts(200), tuning)
        if chosen[0] == view.hand_mask:
            continue  # a play that goes out is made without a search
        assert asked == [view.seat]
        assert play == chosen
        assert not stats or chosen in stats
        kept += bool(stats)
    assert kept >= 4
    # The variant's policy is the instant level's move, legal from the seat's view.
    state = random_position("hong-kong", 4, 3, 6)
    view = state.view(state.turn)
    move = variants.expert_instant_default(view, random.Random(0), Budget.of_rollouts(100))
    assert move in view.legal_moves()
