"""A frozen copy of the ``heuristic`` bot as it was on 2026-11-29, before it played for
points (issue 12): the benchmark baseline ``python -m benchmarks.strength.ai_points`` measures
today's heuristic against. Never used by the service; never edit it (it is the yardstick).

The ``heuristic`` bot then: plans its hand into the fewest plays and plays the plan.

On lead it runs out when every play but one is unbeatable, and otherwise leads its
lowest play, avoiding the shape an opponent about to go out could answer. Following, it
beats with a play of its plan when it can, breaks the plan only when an opponent is
close to going out or the rest of the hand still plays out, keeps its 2s while its hand
is long, and blocks a next player holding one card with its highest single.

``heuristic_play`` works on a ``FastState`` and reads only the mover's hand and public facts,
so the expert uses it as its rollout policy for every seat.
"""

from __future__ import annotations

import random

from pusoy.ai.plan import (
    DEUCE_RANK,
    Plan,
    beatable,
    low_card_key,
    plan,
    rank_cost,
)
from pusoy.engine.cards import FULL_DECK_MASK
from pusoy.engine.fast import PASS_PLAY, CardMask, FastPlay, FastState, play_size
from pusoy.engine.moves import PASS, Move
from pusoy.engine.state import PlayerView

DEUCES = 15 << (4 * DEUCE_RANK)
# Keep 2s for control while the hand holds more cards than this (and nobody is close).
KEEP_DEUCES_ABOVE = 6


def heuristic_play(sim: FastState) -> FastPlay:
    """The heuristic's play for the seat to move in ``sim``; ``(0, -1)`` is a pass."""
    t = sim.t
    me = sim.turn
    hand = sim.hands[me]
    counts = sim.counts
    active = sim.active
    min_opp = 99
    max_opp = 0
    for s in range(sim.n):  # (a loop: this is the rollouts' inner step)
        if s != me and active >> s & 1:
            c = counts[s]
            if c < min_opp:
                min_opp = c
            if c > max_opp:
                max_opp = c
    unseen = FULL_DECK_MASK & ~hand & ~sim.played
    current = plan(t, hand)

    if sim.required:
        # The opening play: the plan's play holding the required card, else that card alone.
        for p in current:
            if p[0] & sim.required:
                return p
        plays = sim.legal_plays()
        return min(plays, key=lambda p: (play_size(p[1]), p[1]))

    if sim.beat_key < 0:
        return _lead(sim, current, unseen, min_opp, max_opp)
    return _follow(sim, current, unseen, min_opp, max_opp)


def _lead(sim: FastState, current: Plan, unseen: CardMask, min_opp: int, max_opp: int) -> FastPlay:
    t = sim.t
    if len(current) == 1:
        return current[0]
    weak = [p for p in current if beatable(t, p, unseen, max_opp)]
    if len(weak) <= 1 and len(weak) < len(current):
        # Every play but (at most) one wins its trick: cash the winners, the last one last.
        bosses = [p for p in current if p not in weak]
        return max(bosses, key=lambda p: (play_size(p[1]), -p[1]))
    options = weak or list(current)
    if min_opp == 1:
        # Someone is about to go out on any single: lead a bigger shape, else our best single.
        bigger = [p for p in options if play_size(p[1]) > 1] or [
            p for p in current if play_size(p[1]) > 1
        ]
        if bigger:
            options = bigger
        else:
            return max(current, key=lambda p: p[1])
    elif min_opp == 2:
        options = [p for p in options if play_size(p[1]) != 2] or options
    return min(options, key=lambda p: (low_card_key(t, p[0]), -play_size(p[1])))


def _follow(
    sim: FastState, current: Plan, unseen: CardMask, min_opp: int, max_opp: int
) -> FastPlay:
    t = sim.t
    me = sim.turn
    hand = sim.hands[me]
    plays = sim.legal_plays()
    if not plays:
        return PASS_PLAY
    for p in plays:
        if p[0] == hand:
            return p  # going out
    size = play_size(sim.beat_key)
    next_seat = sim.next_in(me, sim.active)
    if size == 1 and sim.counts[next_seat] == 1:
        return max(plays, key=lambda p: p[1])  # block: the highest single we have
    danger = min_opp <= 2 or sim.counts[sim.last] <= 3
    components = {m for m, _ in current}
    in_plan = [p for p in plays if p[0] in components]
    long_hand = hand.bit_count() > KEEP_DEUCES_ABOVE
    if in_plan:
        choice = min(in_plan, key=lambda p: p[1])
        if choice[0] & DEUCES and long_hand and not danger and size < 5:
            return PASS_PLAY
        return choice
    # Breaking the plan: how many more plays the rest of the hand needs.
    if size == 5:
        if not danger:
            return PASS_PLAY
        return min(plays, key=lambda p: p[1])
    fives = 0
    for m, key in current:
        if play_size(key) == 5:
            fives |= m
    best: FastPlay | None = None
    best_cost = 99
    for p in sorted(plays, key=lambda p: p[1]):
        if p[0] & DEUCES and long_hand and not danger:
            continue
        cost = 2 if p[0] & fives else rank_cost(t, hand, p)
        if cost < best_cost:
            best, best_cost = p, cost
            if cost <= 0:
                break
    if best is None:
        return PASS_PLAY
    if best_cost <= 0 or danger:
        return best
    if hand.bit_count() <= 8:
        rest = plan(t, hand ^ best[0])
        if sum(1 for p in rest if beatable(t, p, unseen, max_opp)) <= 1:
            return best  # winning the lead here lets the rest of the hand run out
    return PASS_PLAY


def heuristic_move(view: PlayerView, rng: random.Random) -> Move:
    """The frozen heuristic's move: the arena seat
    ``benchmarks.strength.frozen.heuristic_2026_11:heuristic_move``."""
    mask, _key = heuristic_play(FastState.from_view(view))
    return Move(mask) if mask else PASS
