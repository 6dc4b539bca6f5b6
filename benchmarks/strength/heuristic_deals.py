"""Positions of deals played by heuristics, with the true hands: what the AI benchmarks
that judge a bot's knowledge or choices (``ai_reading``, ``ai_regret``) look at."""

from __future__ import annotations

import random
from collections.abc import Iterator

from pusoy.ai.heuristic import heuristic_move
from pusoy.engine import DealState, PlayerView, Rules


def deal_positions(
    rules: Rules, seed: bytes, players: int, rng: random.Random
) -> Iterator[tuple[PlayerView, list[int]]]:
    """Every position of the deal of ``seed`` as four (or ``players``) heuristics play
    it: the view of the seat to move and every seat's hand as a card mask."""
    state = DealState.from_seed(rules, seed, players)
    while not state.is_over:
        assert state.turn is not None  # a deal not over always has a seat to move
        view = state.view(state.turn)
        yield view, [sum(c.mask for c in hand) for hand in state.hands]
        state.apply(heuristic_move(view, rng))
