"""Reading the opponents' past moves: how well a sampled world explains them.

A world (a hand per seat, now) fixes every opponent's hand at every past moment: its
hand now plus the cards it played since. ``ActionModel.mismatches`` replays the public
history of the deal in that world and counts the opponents' moves that the
``heuristic`` would not have made with those hands. The expert draws a few worlds per
world it searches and keeps one with probability proportional to
``MISMATCH_WEIGHT ** mismatches`` (sampling-importance resampling): worlds in which
the opponents' leads, plays and passes make sense weigh more, and none is ruled out,
since people do not play like the heuristic.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.ai.heuristic import heuristic_play
from games.ai.match import stances
from games.engine.fast import FastState
from games.engine.state import PlayerView
from games.engine.tables import tables_for

MISMATCH_WEIGHT = 0.05
# Replays stop counting this many mismatches above the best draw so far.
MISMATCH_SLACK = 2


class ActionModel:
    """The public history of one view, ready to be replayed in sampled worlds."""

    def __init__(self, view: PlayerView) -> None:
        t = tables_for(view.rules)
        self.rules = view.rules
        self.t = t
        self.seat = view.seat
        self.n = n = view.num_players
        self.steps: list[tuple[int, int, int]] = []  # (seat, mask, key) per past move
        played_by = [0] * n
        for seat, move in view.history:
            key = -1 if move.is_pass else t.classify(move.mask)
            if key is None:  # pragma: no cover - the engine only records plays
                break
            self.steps.append((seat, move.mask, key))
            played_by[seat] |= move.mask
        self.played_by = played_by
        first = view.history[0] if view.history else None
        opening = view.rules.opening_card.mask
        # The first play of a first deal holds the opening card.
        self.first_required = opening if first is not None and first[1].mask & opening else 0
        # (the seat to move when nothing was played yet; a view of a finished deal has
        # a history, so the fallback 0 is never used)
        self.first_seat: int = first[0] if first is not None else (view.turn or 0)
        # The public history is the same in every world, and the heuristic reads only the
        # mover's hand and public facts: so the situation before each opponent move is
        # replayed once here, and a world is scored by asking the heuristic at each of
        # them with that opponent's hand then (its hand now plus what it played since).
        # Most recent first: ``mismatches(..., recent=k)`` reads the last k only.
        # Each opponent's stance in the match (public: the scores are).
        self.stances = stances(view.match, view.rules.scoring, n)
        self.points: list[tuple[int, int, FastState, int]] = []  # (seat, mask, sim before, later)
        self.by_seat: dict[int, list[tuple[int, int, FastState, int]]] = {}
        if not self.steps:
            return
        initial = [played_by[s] for s in range(n)]
        counts = [0] * n
        for s in range(n):
            counts[s] = view.card_counts[s] + played_by[s].bit_count()
        sim = FastState.at_start(view.rules, initial, counts, self.first_seat)
        sim.required = self.first_required
        points = []
        for index, (seat, mask, key) in enumerate(self.steps):
            if sim.turn != seat:
                break  # (after a player went out with play_out: not replayed)
            if seat != self.seat:
                points.append((index, seat, mask, sim.copy()))
            if sim.push(mask, key):
                break
        later = [0] * n  # the cards each seat played from a point on
        j = len(self.steps) - 1
        for index, seat, mask, snapshot in reversed(points):
            while j >= index:
                later[self.steps[j][0]] |= self.steps[j][1]
                j -= 1
            self.points.append((seat, mask, snapshot, later[seat]))
        for point in self.points:
            self.by_seat.setdefault(point[0], []).append(point)

    def seat_mismatches(self, seat: int, hand: int, recent: int | None = None) -> int:
        """The moves among the ``recent`` latest of ``seat`` (all when None) that the
        heuristic would not have made holding ``hand`` now: a world's mismatches are the
        sum of its opponents' (the heuristic reads only the mover's hand)."""
        points = self.by_seat.get(seat, ())
        missed = 0
        stance = self.stances[seat]
        for _seat, mask, snapshot, later in points if recent is None else points[:recent]:
            snapshot.hands[seat] = hand | later
            if heuristic_play(snapshot, stance)[0] != mask:
                missed += 1
        return missed

    def mismatches(self, hands: list[int], limit: int = 99, recent: int | None = None) -> int:
        """How many past opponent moves (the ``recent`` latest ones when given) the
        heuristic would not have made in the world ``hands`` (hands now), counting up
        to ``limit``."""
        missed = 0
        points = self.points if recent is None else self.points[:recent]
        for seat, mask, snapshot, later in points:
            snapshot.hands[seat] = hands[seat] | later
            if heuristic_play(snapshot, self.stances[seat])[0] != mask:
                missed += 1
                if missed >= limit:
                    break
        return missed


def resample(
    draw: Callable[[], list[int]],
    model: ActionModel,
    rng: random.Random,
    draws: int,
    recent: int | None = None,
) -> list[int]:
    """Draw ``draws`` worlds; keep one with probability ~ ``MISMATCH_WEIGHT ** mismatches``
    (mismatches among the ``recent`` latest opponent moves when given)."""
    if draws <= 1 or not model.points:
        return draw()
    worlds = []
    scores = []
    low = 99
    for _ in range(draws):
        world = draw()
        score = model.mismatches(world, limit=low + MISMATCH_SLACK, recent=recent)
        worlds.append(world)
        scores.append(score)
        low = min(low, score)
    return rng.choices(worlds, [MISMATCH_WEIGHT ** (s - low) for s in scores])[0]
