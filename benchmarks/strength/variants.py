"""Variants of the bots that no level plays, for the league to compare with today's
(``python -m benchmarks.strength.league --candidate heuristic --baseline
benchmarks.strength.variants:NAME``; docs/ai.md, "The league"). Never used by the service.
"""

from __future__ import annotations

import random

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
