"""The ``heuristic`` bot: plans its hand into the fewest plays and plays the plan.

On lead it runs out when every play but one is unbeatable, and otherwise leads its
lowest play, avoiding the shape an opponent about to go out could answer. Following, it
beats with a play of its plan when it can, breaks the plan only when an opponent is
close to going out or the rest of the hand still plays out, keeps its 2s while its hand
is long, and blocks a next player holding one card with its highest single.

Under the ``cards-left`` scorings every card left costs points when another player goes
out, so while the hand is far from going out (5 or more plays that unseen cards could
beat) and an opponent is near it (8 cards or fewer, under both ``cards-left`` and
``cards-left-tiered``) the bot plays for points: it follows whenever
it can and leads its biggest play, shedding the cards it would pay for. In a deal that
may end a match it sheds from the start when ahead and never when far behind
(``pusoy.ai.match.seat_stance``).

``heuristic_play`` works on a ``FastState`` and reads only the mover's hand and public facts,
so the expert uses it as its rollout policy for every seat.
"""

from __future__ import annotations

import random
from typing import Final

from pusoy.ai.match import NORMAL, PROTECT, seat_stance
from pusoy.ai.plan import (
    DEUCE_RANK,
    Plan,
    beatable,
    low_card_key,
    plan,
    rank_cost,
    remember_rest,
)
from pusoy.engine.cards import FULL_DECK_MASK
from pusoy.engine.fast import PASS_PLAY, CardMask, FastPlay, FastState, play_size
from pusoy.engine.moves import PASS, Move
from pusoy.engine.state import PlayerView

DEUCES: Final = 15 << (4 * DEUCE_RANK)
# Keep 2s for control while the hand holds more cards than this (and nobody is close).
KEEP_DEUCES_ABOVE: Final = 6
# Playing for points: shed when an opponent holds at most SHED_WHEN_OPPONENT_AT[scoring]
# cards while this hand still needs SHED_WHEN_PLAYS_LEFT beatable plays or more. Tuned
# against the heuristic of before (benchmarks.strength.ai_points; docs/ai.md has the sweep).
# Under the tiered scoring that sweep said to shed from the start (13), but only against
# copies that never shed: the league (docs/ai.md, "Why the instant level wins less under
# the house rules") found 8 winning more deals against every style but the hoarder.
SHED_WHEN_OPPONENT_AT = {"cards-left": 8, "cards-left-tiered": 8}
SHED_WHEN_PLAYS_LEFT: Final = 5


def heuristic_play(sim: FastState, stance: int = NORMAL) -> FastPlay:
    """The heuristic's play for the seat to move in ``sim``; ``(0, -1)`` is a pass.
    ``stance``: how the seat plays the deal for the match (``pusoy.ai.match``)."""
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

    if sim.required:
        # The opening play: the plan's play holding the required card, else that card alone.
        for p in plan(t, hand):
            if p[0] & sim.required:
                return p
        return min(sim.legal_plays(), key=lambda p: (play_size(p[1]), p[1]))

    plays: list[FastPlay] = []
    if sim.beat_key >= 0:
        # What needs no plan first: the expert's reading of the history asks the
        # heuristic about hands it never met, and planning those is most of what the
        # reading costs (docs/ai.md "The compiled search").
        plays = sim.legal_plays()
        if not plays:
            return PASS_PLAY
        for p in plays:
            if p[0] == hand:
                return p  # going out
        if play_size(sim.beat_key) == 1 and counts[sim.next_in(me, active)] == 1:
            return max(plays, key=lambda p: p[1])  # block: the highest single we have
    current = plan(t, hand)

    # Play for points (never under ``deuces-double``, where a loser's cards cost nothing):
    # someone may go out soon and this hand will not beat them to it.
    weak: list[FastPlay] | None = None  # the plan's plays unseen cards could beat
    shed_at = SHED_WHEN_OPPONENT_AT.get(sim.rules.scoring, -1)
    if stance != NORMAL:
        # Protecting a match lead, every card left may cost it: shed from the start;
        # chasing, only going out first can help: never.
        shed_at = 13 if stance == PROTECT and shed_at >= 0 else -1
    if min_opp <= shed_at and len(current) >= SHED_WHEN_PLAYS_LEFT:
        weak = [p for p in current if beatable(t, p, unseen, max_opp)]
    shed = weak is not None and len(weak) >= SHED_WHEN_PLAYS_LEFT
    if sim.beat_key < 0:
        if shed:
            return _shedding_lead(sim, current, min_opp)
        return _lead(sim, current, unseen, min_opp, max_opp, weak)
    return _follow(sim, plays, current, unseen, min_opp, max_opp, shed)


def _shedding_lead(sim: FastState, current: Plan, min_opp: int) -> FastPlay:
    """The biggest play of the plan (the lowest of that size); a single only when the
    plan has nothing bigger, then the highest if an opponent is on one card."""
    t = sim.t
    size = max(play_size(p[1]) for p in current)
    if size == 1 and min_opp == 1:
        return max(current, key=lambda p: p[1])
    return min(
        (p for p in current if play_size(p[1]) == size),
        key=lambda p: low_card_key(t, p[0]),
    )


def _lead(
    sim: FastState,
    current: Plan,
    unseen: CardMask,
    min_opp: int,
    max_opp: int,
    weak: list[FastPlay] | None,
) -> FastPlay:
    """``weak``: the plan's beatable plays when the caller has them already."""
    t = sim.t
    if len(current) == 1:
        return current[0]
    if weak is None:
        weak = [p for p in current if beatable(t, p, unseen, max_opp)]
    if len(weak) <= 1 and len(weak) < len(current):
        # Every play but (at most) one wins its trick: cash the winners, the last one last.
        bosses = [p for p in current if p not in weak]
        if sim.rules.scoring == "deuces-double":
            # Going out: each 2 in the final play doubles the stake, so they go last.
            if not weak:
                return max(
                    bosses, key=lambda p: (-(p[0] & DEUCES).bit_count(), play_size(p[1]), -p[1])
                )
            if any(p[0] & DEUCES for p in bosses) and (min_opp > 1 or play_size(weak[0][1]) > 1):
                # Even the beatable play goes first, so the 2s can win the lead back and
                # end the deal (measured: about +2 per such lead against heuristics).
                return weak[0]
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
    sim: FastState,
    plays: list[FastPlay],
    current: Plan,
    unseen: CardMask,
    min_opp: int,
    max_opp: int,
    shed: bool,
) -> FastPlay:
    """``plays``: the legal plays, none of them going out or a block (the caller's)."""
    t = sim.t
    hand = sim.hands[sim.turn]
    size = play_size(sim.beat_key)
    if shed:
        # Any play sheds as many cards as any other: the one that breaks the hand least.
        if size == 5:
            return min(plays, key=lambda p: p[1])
        return min(plays, key=lambda p: (rank_cost(t, hand, p), p[1]))
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


def rollout_play(sim: FastState, stance: int = NORMAL) -> FastPlay:
    """``heuristic_play`` that also caches the mover's remaining plan (rollouts)."""
    play = heuristic_play(sim, stance)
    if play[0]:
        remember_rest(sim.t, sim.hands[sim.turn], play[0])
    return play


def heuristic_move(view: PlayerView, rng: random.Random) -> Move:
    """The ``heuristic`` level: deterministic (``rng`` is unused)."""
    mask, _key = heuristic_play(
        FastState.from_view(view), seat_stance(view.match, view.rules.scoring, view.seat)
    )
    return Move(mask) if mask else PASS
