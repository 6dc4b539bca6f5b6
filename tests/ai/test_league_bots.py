"""The league's own bots (ISMCTS, the hoarder, the shedder): legal moves only, from one
seat's view (``test_visibility`` redeals the hidden cards under them), and the ISMCTS
search without the heuristic's hand planning."""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pusoy.ai import ismcts
from pusoy.ai.budget import Budget
from pusoy.ai.ismcts import ismcts_move
from pusoy.ai.styles import hoarder_move, shedder_move
from pusoy.engine import DealState, Move, Rules
from tests.ai.helpers import LEAGUE_BOTS, RULE_SPECS, positions


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, bot_seed=st.integers(0, 2**16))
def test_style_bots_are_legal(state: DealState, bot_seed: int) -> None:
    view = state.view(state.turn)
    legal = view.legal_moves()
    assert hoarder_move(view, random.Random(bot_seed)) in legal
    assert shedder_move(view, random.Random(bot_seed)) in legal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, bot_seed=st.integers(0, 2**16))
def test_ismcts_is_legal_and_repeatable(state: DealState, bot_seed: int) -> None:
    view = state.view(state.turn)
    budget = Budget(iterations=15)
    move = ismcts_move(view, random.Random(bot_seed), budget)
    assert move in view.legal_moves()
    assert ismcts_move(view, random.Random(bot_seed), budget) == move


@pytest.mark.parametrize("spec", RULE_SPECS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_deals_between_the_league_bots(spec: object, players: int) -> None:
    """Mixed tables play deals to the end; ``apply`` rejects any illegal move."""
    rng = random.Random(f"{spec}{players}")
    bots = list(LEAGUE_BOTS.values())
    state = DealState.from_seed(Rules.from_spec(spec), rng.randbytes(32), players)
    while not state.is_over:
        seat = state.turn
        state.apply(bots[seat % len(bots)](state.view(seat), rng))


def test_ismcts_plans_nothing_with_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its tree and rollouts run with the heuristic's planner and moves out of reach, and
    it holds nothing of the heuristic's, the planner's or the history reading's."""
    borrowed = {"pusoy.ai.heuristic", "pusoy.ai.plan", "pusoy.ai.inference", "pusoy.ai.expert"}
    for name, value in vars(ismcts).items():
        assert getattr(value, "__module__", None) not in borrowed, name
        assert getattr(value, "__name__", None) not in borrowed, name

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("ISMCTS asked the heuristic")

    import pusoy.ai.heuristic
    import pusoy.ai.plan

    # Every module holds these by the name it imported them under: replace them there
    # (a module's own attribute alone is not what its importers call).
    planning = {
        id(f)
        for f in (
            pusoy.ai.plan.plan,
            pusoy.ai.plan.five_candidates,
            pusoy.ai.heuristic.heuristic_play,
            pusoy.ai.heuristic.rollout_play,
        )
    }
    replaced = 0
    for module in [m for n, m in sys.modules.items() if n.startswith("pusoy.")]:
        for name, value in list(vars(module).items()):
            if id(value) in planning:
                monkeypatch.setattr(module, name, refuse)
                replaced += 1
    assert replaced > 4  # their own modules and at least one importer
    state = DealState.from_seed(Rules.from_spec("philippine"), bytes(32), 4)
    rng = random.Random(1)
    for _ in range(8):
        seat = state.turn
        state.apply(ismcts_move(state.view(seat), rng, Budget(iterations=30)))


def test_every_league_bot_goes_out_when_it_can() -> None:
    state = DealState.new("philippine", ["3C 3D", "5C 6C 7H", "7C 8C 8H", "9C TC JD"])
    for name, bot in LEAGUE_BOTS.items():
        assert bot(state.view(0), random.Random(0)) == Move.parse("3C 3D"), name


def test_the_styles_lead_opposite_ends() -> None:
    """On the opening lead the shedder leads the biggest play holding 3C (a straight),
    the hoarder the 3C alone."""
    hands = ["3C 4C 5S 6H 7C 9D JD", "5C 6C 7H 9H 9S TC", "8C 8H 9C JC QC KC", "3D 3H 3S TD"]
    view = DealState.new("philippine", hands).view(0)
    assert shedder_move(view, random.Random(0)) == Move.parse("3C 4C 5S 6H 7C")
    assert hoarder_move(view, random.Random(0)) == Move.parse("3C")
