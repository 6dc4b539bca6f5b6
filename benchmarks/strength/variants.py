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
from pusoy.ai.instant import instant_play
from pusoy.ai.learned import learned_play
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
# positions: ``python -m benchmarks.speed.expert_variants``. Each is the expert of
# 2026-12-06 (every seat's rollouts the planner's, the planner's move kept unless another
# is 1 standard error better) with that knob turned, as it was measured; ``styles_keep_z2``
# is the expert of 2026-12-07. The ``noise`` variants are that expert with rollout noise
# (docs/ai.md, "Two more tries at the search"); the ``learned`` ones play the searching
# seat's own first moves of each rollout by the learned network (docs/ai.md, "The learned
# policy in the rollouts"); ``instant_default`` keeps the instant level's move, not the
# planner's, unless another is 2 standard errors better (docs/ai.md, "The instant level's
# move as the expert's default"); the ``margin`` ones ask another move for a lead of 0.5 or
# 1 in payment on top of the 2 standard errors (docs/ai.md, "A margin for leaving the
# planner's move").
BEFORE_STYLES = Tuning(keep_default_z=1.0, model_opponents=False)
EXPERT_TUNINGS = {
    "expert": Tuning(),
    "before_styles": BEFORE_STYLES,
    "keep_z0": BEFORE_STYLES._replace(keep_default_z=0.0),
    "keep_z2": BEFORE_STYLES._replace(keep_default_z=2.0),
    "halving": BEFORE_STYLES._replace(halving=True),
    "sharp": BEFORE_STYLES._replace(sharp=True),
    "eliminate_z3": BEFORE_STYLES._replace(eliminate_z=3.0),
    "near_miss_1": BEFORE_STYLES._replace(near_miss_weight=1.0),
    "near_miss_3": BEFORE_STYLES._replace(near_miss_weight=3.0),
    "near_miss_10": BEFORE_STYLES._replace(near_miss_weight=10.0),
    "near_miss_30": BEFORE_STYLES._replace(near_miss_weight=30.0),
    "uniform": BEFORE_STYLES._replace(read_history=False),
    "uniform_near_miss_3": BEFORE_STYLES._replace(read_history=False, near_miss_weight=3.0),
    "styles": BEFORE_STYLES._replace(model_opponents=True),
    "styles_keep_z2": BEFORE_STYLES._replace(model_opponents=True, keep_default_z=2.0),
    "noise_10": Tuning(rollout_noise=0.1),
    "noise_10_self": Tuning(rollout_noise=0.1, rollout_noise_self=True),
    "noise_25": Tuning(rollout_noise=0.25),
    "learned_1": Tuning(own_policy=learned_play, own_moves=1),
    "learned_13": Tuning(own_policy=learned_play, own_moves=13),
    "instant_default": Tuning(default_policy=instant_play),
    "margin_05": Tuning(keep_margin=0.5),
    "margin_1": Tuning(keep_margin=1.0),
}
expert_before_styles = _expert_tuned(EXPERT_TUNINGS["before_styles"])
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
expert_noise_10 = _expert_tuned(EXPERT_TUNINGS["noise_10"])
expert_noise_10_self = _expert_tuned(EXPERT_TUNINGS["noise_10_self"])
expert_noise_25 = _expert_tuned(EXPERT_TUNINGS["noise_25"])
expert_learned_1 = _expert_tuned(EXPERT_TUNINGS["learned_1"])
expert_learned_13 = _expert_tuned(EXPERT_TUNINGS["learned_13"])
expert_instant_default = _expert_tuned(EXPERT_TUNINGS["instant_default"])
expert_margin_05 = _expert_tuned(EXPERT_TUNINGS["margin_05"])
expert_margin_1 = _expert_tuned(EXPERT_TUNINGS["margin_1"])
