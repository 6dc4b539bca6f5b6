"""AI players: each level is a function of one seat's ``PlayerView`` (never the full
state) and a random source, returning a legal move. See docs/ai.md.

>>> import random
>>> from pusoy.engine import DealState
>>> state = DealState.new("philippine", ["3C 4D 9S", "5C 6C 7H", "7C 8C 8H", "9C TC JD"])
>>> choose_move("greedy", state.view(0), random.Random(1))
Move.parse('3C')
"""

from __future__ import annotations

import random

from pusoy.ai.budget import DEFAULT_BUDGET, Budget
from pusoy.ai.expert import expert_move
from pusoy.ai.greedy import greedy_move, lowest_lead
from pusoy.ai.heuristic import heuristic_move
from pusoy.ai.random_bot import random_move
from pusoy.engine.moves import PASS, Move
from pusoy.engine.state import PlayerView

LEVELS = ("random", "greedy", "heuristic", "expert")

__all__ = ["DEFAULT_BUDGET", "LEVELS", "Budget", "choose_move", "timeout_move"]


def choose_move(
    level: str, view: PlayerView, rng: random.Random, *, budget: Budget | None = None
) -> Move:
    """The move of the bot ``level`` for the seat of ``view``, on its turn.

    ``budget`` bounds the expert's search (default: ``DEFAULT_BUDGET``, 1 s); the other
    levels answer at once. Raises ValueError for an unknown level or when it is not
    this seat's turn.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; known: {', '.join(LEVELS)}")
    if view.turn != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn")
    if level == "random":
        return random_move(view, rng)
    if level == "greedy":
        return greedy_move(view, rng)
    if level == "heuristic":
        return heuristic_move(view, rng)
    return expert_move(view, rng, budget)


def timeout_move(view: PlayerView) -> Move:
    """What the server plays for a human whose time ran out: a pass when following, the
    lowest legal play when leading (on the opening lead, the required card alone)."""
    if view.turn != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn")
    if view.to_beat is not None:
        return PASS
    return lowest_lead(view)
