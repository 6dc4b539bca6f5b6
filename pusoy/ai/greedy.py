"""The ``greedy`` bot: the lowest play that beats the table; on lead the lowest single
(on the opening lead, the lowest legal play holding the required card)."""

from __future__ import annotations

import random

from pusoy.engine.fast import play_size
from pusoy.engine.moves import PASS, Move
from pusoy.engine.state import PlayerView


def lowest_lead(view: PlayerView) -> Move:
    """The lowest legal play on lead: fewest cards, then the lowest. On the opening lead
    every legal play holds the required card, so this is that card alone."""
    plays = view.legal_plays_fast()
    if not plays:
        raise ValueError("no play to lead: not this seat's turn to lead")
    mask, _key = min(plays, key=lambda p: (play_size(p[1]), p[1]))
    return Move(mask)


def greedy_move(view: PlayerView, rng: random.Random) -> Move:
    if view.to_beat is None:
        return lowest_lead(view)
    plays = view.legal_plays_fast()
    if not plays:
        return PASS
    mask, _key = min(plays, key=lambda p: p[1])
    return Move(mask)
