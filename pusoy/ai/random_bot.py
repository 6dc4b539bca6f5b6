"""The ``random`` bot: a uniformly random legal move (pass included when following)."""

from __future__ import annotations

import random

from pusoy.engine.moves import Move
from pusoy.engine.state import PlayerView


def random_move(view: PlayerView, rng: random.Random) -> Move:
    return rng.choice(view.legal_moves())
