"""The ``learned`` bot: a small policy network over one seat's view (docs/ai.md,
"The learned level").

``learned_move(view, rng)`` scores every candidate move (the legal plays, and a pass
when following) with the network shipped in ``policy.npz`` (``policy_2p.npz`` at a table
of two) and plays the best; it reads only the seat's ``PlayerView`` and is deterministic
(``rng`` is unused). The arena and the benchmarks name it
``pusoy.ai.learned:learned_move``; it is not one of ``pusoy.ai.LEVELS`` (the lobby's and
the ratings' levels).
"""

from __future__ import annotations

import random

import numpy as np

from pusoy.ai.learned.features import candidate_features, candidates, state_features
from pusoy.ai.learned.model import Policy, shipped
from pusoy.engine.fast import FastPlay, FastState
from pusoy.engine.moves import PASS, Move
from pusoy.engine.state import PlayerView

__all__ = ["learned_move", "learned_play"]


def learned_play(sim: FastState, policy: Policy | None = None) -> FastPlay:
    """The network's play for the seat to move in ``sim`` (its hand known, the others'
    unused); ``(0, -1)`` is a pass."""
    moves = candidates(sim)
    if len(moves) == 1:
        return moves[0]
    net = policy or shipped(sim.n)
    scores = net.scores(state_features(sim), candidate_features(sim, moves))
    return moves[int(np.argmax(scores))]


def learned_move(view: PlayerView, rng: random.Random) -> Move:
    """The ``learned`` level: deterministic (``rng`` is unused)."""
    if view.turn != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn")
    mask, _key = learned_play(FastState.from_view(view))
    return Move(mask) if mask else PASS
