"""Bots against bots over whole matches: did playing for the match win more of them?

Match ``m`` is a run of deals with the scores carried over (the winner of a deal leads
the next), ended after ``deals`` deals or at ``target`` score as in a game; each match
is played once per rotation of the seats, from the same deals, so every level plays
every seat position and the cards' luck cancels between levels. Every seat sees where
the match stands (``PlayerView.match``). Seats are named as in ``pusoy.ai.arena``.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Sequence
from dataclasses import dataclass

from pusoy.ai import Budget
from pusoy.ai.arena import deal_seed, rotation, seat_bot, wilson
from pusoy.engine.match import MatchStanding, match_order
from pusoy.engine.rules import Rules
from pusoy.engine.state import DealState


@dataclass(frozen=True)
class MatchOutcome:
    index: int
    levels: tuple[str, ...]  # level per seat
    ranking: tuple[int, ...]  # seats, the match winner first
    scores: tuple[int, ...]
    deals: int


@dataclass(frozen=True)
class MatchTask:
    index: int
    seats: tuple[str, ...]
    rules: Rules
    seed: str
    budget: Budget
    deals: int | None = None
    target: int | None = None


def play_match(task: MatchTask) -> MatchOutcome:
    """Play match ``task.index`` to its end."""
    n = len(task.seats)
    levels = rotation(task.seats, task.index)
    bots = {level: seat_bot(level, task.budget) for level in set(levels)}
    rng = random.Random(f"{task.seed}:{task.index}")
    standing = MatchStanding(
        scores=(0,) * n, deals_won=(0,) * n, deals_left=task.deals, target_score=task.target
    )
    leader: int | None = None
    number = 0
    while True:
        number += 1
        state = DealState.from_seed(
            task.rules, deal_seed(f"{task.seed}:{task.index // n}", number), n, leader=leader
        )
        while not state.is_over:
            seat = state.turn
            assert seat is not None
            view = state.view(seat).with_match(standing)
            state.apply(bots[levels[seat]](view, rng))
        result = state.result
        assert result is not None
        ended = standing.ends_with(result.points)
        standing = standing.after(result.points, result.winner)
        leader = result.winner
        if ended:
            break
    scores = standing.scores
    ranking = match_order(scores, standing.deals_won, task.rules.scoring)
    return MatchOutcome(task.index, levels, tuple(ranking), scores, number)


def run_matches(tasks: Sequence[MatchTask], workers: int) -> list[MatchOutcome]:
    if workers <= 1:
        return [play_match(t) for t in tasks]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return sorted(pool.imap_unordered(play_match, tasks), key=lambda o: o.index)


def match_wins(
    outcomes: Sequence[MatchOutcome], level: str
) -> tuple[int, int, tuple[float, float], float]:
    """Matches ``level`` won, matches played, the Wilson 95% interval of its share, and
    its fair share (its seats over the players)."""
    wins = sum(1 for o in outcomes if o.levels[o.ranking[0]] == level)
    seats = outcomes[0].levels.count(level) if outcomes else 0
    fair = seats / len(outcomes[0].levels) if outcomes else 0.0
    return wins, len(outcomes), wilson(wins, len(outcomes)), fair
