"""The ``greedy`` bot: the lowest play that beats the table; on lead the lowest single
(on the opening lead, the lowest legal play holding the required card).

The rule is written once, on the fast state (``greedy_play``): the bot plays it on the
view, and the expert's rollouts play it for a seat they read as greedy
(``pusoy.ai.opponents``)."""

from __future__ import annotations

import random

from pusoy.engine.fast import PASS_PLAY, FastPlay, FastState, play_size
from pusoy.engine.moves import PASS, Move
from pusoy.engine.state import PlayerView


def greedy_play(sim: FastState) -> FastPlay:
    """The greedy play of the seat to move: when following the lowest play that beats
    the table, or a pass; on lead the fewest cards, then the lowest."""
    plays = sim.legal_plays()
    if sim.beat_key < 0:
        return min(plays, key=lambda p: (play_size(p[1]), p[1]))
    if not plays:
        return PASS_PLAY
    return min(plays, key=lambda p: p[1])


def lowest_lead(view: PlayerView) -> Move:
    """The lowest legal play on lead: fewest cards, then the lowest. On the opening lead
    every legal play holds the required card, so this is that card alone."""
    if view.turn != view.seat or view.to_beat is not None:
        raise ValueError("no play to lead: not this seat's turn to lead")
    return Move(greedy_play(FastState.from_view(view))[0])


def greedy_move(view: PlayerView, rng: random.Random) -> Move:
    mask, _key = greedy_play(FastState.from_view(view))
    return Move(mask) if mask else PASS
