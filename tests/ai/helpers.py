"""Random deals and positions for the AI tests."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from pusoy.ai import expert
from pusoy.ai.arena import Bot, seat_bot
from pusoy.ai.budget import Budget
from pusoy.engine import DealState, Rules

RULE_SPECS: list[Any] = [
    "philippine",
    "philippine-online",
    "philippine-deuce-high",
    "hong-kong",
    {"preset": "philippine-deuce-high", "play_out": True},
    {"preset": "philippine", "pass_locks_out": True},
    {"preset": "hong-kong", "triples": False, "straights": "no-deuce"},
    {"preset": "philippine-online", "scoring": "cards-left-tiered", "hand_size": 13},
]


def random_position(spec: Any, players: int, seed: int, steps: int) -> DealState:
    """A deal advanced by up to ``steps`` uniformly random legal moves (not over)."""
    rng = random.Random(seed)
    rules = Rules.from_spec(spec)
    state = DealState.from_seed(rules, rng.randbytes(32), players)
    for _ in range(steps):
        moves = state.legal_moves()
        probe = state.copy()
        move = rng.choice(moves)
        probe.apply(move)
        if probe.is_over:
            break
        state = probe
    return state


# Random positions: any rule variant, 2 to 4 players, a random point of a random deal.
positions = st.builds(
    random_position,
    spec=st.sampled_from(RULE_SPECS),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 60),
)


# The league's own bots (``pusoy.ai.league``), the search on a small budget: every bot of
# the league but the levels, which the tests take from ``LEVELS``.
LEAGUE_BOTS: dict[str, Bot] = {
    "ismcts": seat_bot("pusoy.ai.ismcts:ismcts_move/12", Budget()),
    "hoarder": seat_bot("pusoy.ai.styles:hoarder_move", Budget()),
    "shedder": seat_bot("pusoy.ai.styles:shedder_move", Budget()),
}


def searches_beside_the_default(
    tuning: expert.Tuning, steps: int, rollouts: int
) -> list[tuple[dict[Any, tuple[int, float]], Any, dict[Any, tuple[int, float]]]]:
    """Per position (``philippine``, 4 players, seeds 0-5, ``steps`` random moves in): the
    default search's stats, then ``tuning``'s play and stats, on the same random source."""
    out = []
    for seed in range(6):
        state = random_position("philippine", 4, seed, steps)
        view = state.view(state.turn)
        budget = Budget.of_rollouts(rollouts)
        _play, default = expert.search(view, random.Random(1), budget)
        play, stats = expert.search(view, random.Random(1), budget, tuning)
        out.append((default, play, stats))
    return out
