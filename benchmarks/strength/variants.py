"""Variants of the bots that no level plays, for the league to compare with today's
(``python -m benchmarks.strength.league --candidate benchmarks.strength.variants:NAME
--baseline heuristic``; docs/ai.md, "The league"). Never used by the service.
"""

from __future__ import annotations

import random
from dataclasses import replace

from pusoy.ai.heuristic import heuristic_move
from pusoy.engine.moves import Move
from pusoy.engine.state import PlayerView


def heuristic_tiered_as_plain(view: PlayerView, rng: random.Random) -> Move:
    """Today's heuristic, but under ``cards-left-tiered`` it plays for points as under
    ``cards-left``: it sheds only once an opponent is down to 8 cards, not from the
    start (``heuristic.SHED_WHEN_OPPONENT_AT``). Only the scoring it reads changes: the
    scorings share every rule of play."""
    if view.rules.scoring == "cards-left-tiered":
        view = replace(view, rules=replace(view.rules, scoring="cards-left"))
    return heuristic_move(view, rng)
