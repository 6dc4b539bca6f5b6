"""Variants of the bots that no level plays, for the league to compare with today's
(``python -m benchmarks.strength.league --candidate heuristic --baseline
benchmarks.strength.variants:NAME``; docs/ai.md, "The league"). Never used by the service.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pusoy.ai.budget import Budget
from pusoy.ai.expert import Tuning, search
from pusoy.ai.heuristic import heuristic_move, heuristic_play
from pusoy.ai.match import NORMAL, PROTECT, seat_stance
from pusoy.engine.fast import FastState
from pusoy.engine.moves import PASS, Move
from pusoy.engine.state import PlayerView


def heuristic_sheds_from_start(view: PlayerView, rng: random.Random) -> Move:
    """The heuristic of before issue 42's league: under ``cards-left-tiered`` it plays for
    points from the start (``SHED_WHEN_OPPONENT_AT`` was 13 there), not once an opponent
    is down to 8 cards. The stance that protects a match lead sheds from the start too and
    changes nothing else, so it is that stance whenever the match leaves the seat's own
    stance normal."""
    if view.rules.scoring != "cards-left-tiered" or (
        seat_stance(view.match, view.rules.scoring, view.seat) != NORMAL
    ):
        return heuristic_move(view, rng)
    mask, _key = heuristic_play(FastState.from_view(view), PROTECT)
    return Move(mask) if mask else PASS


def _expert_tuned(tuning: Tuning) -> Callable[[PlayerView, random.Random, Budget], Move]:
    def move(view: PlayerView, rng: random.Random, budget: Budget) -> Move:
        play, _stats = search(view, rng, budget, tuning)
        return Move(play[0]) if play[0] else PASS

    return move


# The expert with one knob turned (``expert.Tuning``): in a league as
# ``benchmarks.strength.variants:expert_NAME/300``; their cost per move on the same
# positions: ``python -m benchmarks.speed.expert_variants``.
EXPERT_TUNINGS = {
    "expert": Tuning(),
    "keep_z0": Tuning(keep_default_z=0.0),
    "keep_z2": Tuning(keep_default_z=2.0),
    "halving": Tuning(halving=True),
    "sharp": Tuning(sharp=True),
    "eliminate_z3": Tuning(eliminate_z=3.0),
    "near_miss_1": Tuning(near_miss_weight=1.0),
    "near_miss_3": Tuning(near_miss_weight=3.0),
    "near_miss_10": Tuning(near_miss_weight=10.0),
    "near_miss_30": Tuning(near_miss_weight=30.0),
    "uniform": Tuning(read_history=False),
    "uniform_near_miss_3": Tuning(read_history=False, near_miss_weight=3.0),
    "styles": Tuning(model_opponents=True),
    "styles_keep_z2": Tuning(model_opponents=True, keep_default_z=2.0),
}
expert_keep_z0 = _expert_tuned(EXPERT_TUNINGS["keep_z0"])
expert_keep_z2 = _expert_tuned(EXPERT_TUNINGS["keep_z2"])
expert_halving = _expert_tuned(EXPERT_TUNINGS["halving"])
expert_sharp = _expert_tuned(EXPERT_TUNINGS["sharp"])
expert_eliminate_z3 = _expert_tuned(EXPERT_TUNINGS["eliminate_z3"])
expert_near_miss_1 = _expert_tuned(EXPERT_TUNINGS["near_miss_1"])
expert_near_miss_3 = _expert_tuned(EXPERT_TUNINGS["near_miss_3"])
expert_near_miss_10 = _expert_tuned(EXPERT_TUNINGS["near_miss_10"])
expert_near_miss_30 = _expert_tuned(EXPERT_TUNINGS["near_miss_30"])
expert_uniform = _expert_tuned(EXPERT_TUNINGS["uniform"])
expert_uniform_near_miss_3 = _expert_tuned(EXPERT_TUNINGS["uniform_near_miss_3"])
expert_styles = _expert_tuned(EXPERT_TUNINGS["styles"])
expert_styles_keep_z2 = _expert_tuned(EXPERT_TUNINGS["styles_keep_z2"])
