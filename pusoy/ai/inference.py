"""Reading the opponents' past moves: which worlds explain them, and drawing those.

A world (a hand per seat, now) fixes every opponent's hand at every past moment: its
hand now plus the cards it played since. ``ActionModel.seat_mismatches`` counts the
moves of one opponent that the ``heuristic`` would not have made with its hand in that
world. The expert searches worlds drawn with probability proportional to
``MISMATCH_WEIGHT ** mismatches``: worlds in which the opponents' leads, plays and
passes make sense weigh more, and none is ruled out, since people do not play like the
heuristic. ``chained_worlds`` draws them by Markov chains (``WorldChain``), which
rescore only the two hands a step changes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final

from pusoy.ai.heuristic import heuristic_play
from pusoy.ai.match import stances
from pusoy.ai.worlds import WorldSampler, cards_dealt
from pusoy.engine.fast import FastState
from pusoy.engine.state import PlayerView
from pusoy.engine.tables import tables_for

MISMATCH_WEIGHT: Final = 0.05
LOG_WEIGHT: Final = math.log(MISMATCH_WEIGHT)


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
        # Each opponent's stance in the match (public: the scores are).
        self.stances = stances(view.match, view.rules.scoring, n)
        # seat_mismatches per (seat, hand), shared by the chains that read with this model
        # (a chain revisits hands, and its neighbours visit some of the same).
        # (a count stopped at a cap is remembered as a lower bound: exact is False)
        self._known: dict[tuple[int, int], tuple[int, bool]] = {}
        self.points: list[tuple[int, int, FastState, int]] = []  # (seat, mask, sim before, later)
        self.by_seat: dict[int, list[tuple[int, int, FastState, int]]] = {}
        if not self.steps:
            return
        initial = [played_by[s] for s in range(n)]
        sim = FastState.at_start(view.rules, initial, cards_dealt(view), self.first_seat)
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

    def known_mismatches(self, seat: int, hand: int, cap: int | None = None) -> int:
        """``seat_mismatches``, remembered; with ``cap``, an answer above ``cap`` may be
        any number above it (the count stopped there)."""
        key = (seat, hand)
        found = self._known.get(key)
        if found is not None:
            count, exact = found
            if exact or (cap is not None and count > cap):
                return count
        count = self.seat_mismatches(seat, hand, cap)
        self._known[key] = (count, cap is None or count <= cap)
        return count

    def seat_mismatches(self, seat: int, hand: int, cap: int | None = None) -> int:
        """The moves of ``seat`` that the heuristic would not have made holding ``hand``
        now: a world's mismatches are the sum of its opponents' (the heuristic reads
        only the mover's hand). With ``cap``, counting stops once above it."""
        missed = 0
        stance = self.stances[seat]
        for _seat, mask, snapshot, later in self.by_seat.get(seat, ()):
            snapshot.hands[seat] = hand | later
            if heuristic_play(snapshot, stance)[0] != mask:
                missed += 1
                if cap is not None and missed > cap:
                    break
        return missed


# ``WorldChain``: steps before the first world, and between two worlds.
CHAIN_BURN_IN: Final = 20
CHAIN_STEPS: Final = 6
# Chains run side by side, a world from each in turn: consecutive worlds of one chain
# are alike, and the search learns little from a world much like the last one.
CHAINS: Final = 4


class WorldChain:
    """Worlds from a Markov chain over the deals of the unseen cards (Metropolis).

    A step swaps one card between two holders (two opponents, or an opponent and the
    cards set aside), cards a seat must hold staying put, and is kept with probability
    ``MISMATCH_WEIGHT ** (mismatches added)``. The proposal is symmetric (the holders'
    counts never change), so the chain visits each deal that agrees with the counts as
    often as ``MISMATCH_WEIGHT ** mismatches`` says, and each step rescores only the two
    hands it changed: measured, it places more hidden cards right per millisecond than
    drawing whole worlds and judging them (docs/ai.md). Consecutive worlds are
    ``steps`` apart (``CHAIN_STEPS`` unless given), the first ``burn_in`` steps from the
    start (``CHAIN_BURN_IN`` unless given)."""

    def __init__(
        self,
        sampler: WorldSampler,
        model: ActionModel,
        rng: random.Random,
        *,
        steps: int = 0,
        burn_in: int | None = None,
    ) -> None:
        self.model = model
        self.rng = rng
        self.steps = steps or CHAIN_STEPS
        self.hands = sampler.sample(rng)
        self.fixed = sampler.forced  # seat -> cards it must hold (never swapped)
        self.holders = list(sampler.opponents)
        dealt = 0
        for seat in sampler.opponents:
            dealt |= self.hands[seat]
        self.aside = sampler.free & ~dealt
        self.scores = {s: model.known_mismatches(s, self.hands[s]) for s in self.holders}
        self.advance(CHAIN_BURN_IN if burn_in is None else burn_in)

    def advance(self, steps: int) -> None:
        rng = self.rng
        hands = self.hands
        holders = self.holders
        with_aside = self.aside != 0
        count = len(holders) + (1 if with_aside else 0)
        if count < 2:
            return
        for _ in range(steps):
            i, j = rng.sample(range(count), 2)
            a = holders[i] if i < len(holders) else -1
            b = holders[j] if j < len(holders) else -1
            if a < 0:
                a, b = b, a
            free_a = hands[a] & ~self.fixed.get(a, 0)
            free_b = self.aside if b < 0 else hands[b] & ~self.fixed.get(b, 0)
            if not free_a or not free_b:
                continue
            x = _random_bit(free_a, rng)
            y = _random_bit(free_b, rng)
            # Kept when u < MISMATCH_WEIGHT ** added, i.e. when at most ``allowed``
            # mismatches are added: drawn first, so that scoring the new hands can stop
            # as soon as the step is sure to be refused (most steps are).
            u = rng.random()
            allowed = math.ceil(math.log(u) / LOG_WEIGHT) - 1 if u > 0 else len(self.model.steps)
            old_a = self.scores[a]
            old_b = self.scores[b] if b >= 0 else 0
            new_a = hands[a] ^ x | y
            # (b's mismatches cannot fall below zero: a's alone may settle it)
            score_a = self.model.known_mismatches(a, new_a, old_a + old_b + allowed)
            added = score_a - old_a
            if added - old_b > allowed:
                continue
            if b >= 0:
                new_b = hands[b] ^ y | x
                score_b = self.model.known_mismatches(b, new_b, old_b + allowed - added)
                added += score_b - old_b
            if added > allowed:
                continue
            hands[a] = new_a
            self.scores[a] = score_a
            if b >= 0:
                hands[b] = new_b
                self.scores[b] = score_b
            else:
                self.aside = self.aside ^ y | x

    def sample(self) -> list[int]:
        """The next world (a hand per seat)."""
        self.advance(self.steps)
        return list(self.hands)


def chained_worlds(
    sampler: WorldSampler,
    model: ActionModel,
    rng: random.Random,
    chains: int = 0,
    *,
    steps: int = 0,
    burn_in: int | None = None,
) -> Callable[[], list[int]]:
    """Worlds from ``chains`` independent ``WorldChain``s in turn (each started when
    first asked, so a short search pays for few burn-ins); ``steps`` and ``burn_in``
    as ``WorldChain`` takes them."""
    count = chains or CHAINS
    started: list[WorldChain] = []
    turn = [0]

    def next_world() -> list[int]:
        i = turn[0] % count
        turn[0] += 1
        if i == len(started):
            started.append(WorldChain(sampler, model, rng, steps=steps, burn_in=burn_in))
            return list(started[i].hands)
        return started[i].sample()

    return next_world


def _random_bit(mask: int, rng: random.Random) -> int:
    """One set bit of ``mask``, uniformly."""
    for _ in range(rng.randrange(mask.bit_count())):
        mask &= mask - 1
    return mask & -mask
