"""Issue 42's instant level: the heuristic's play, checked by a search of fixed size.

The heuristic (``pusoy.ai.heuristic``) plans its hand and plays the plan; against
players that search (the league's ISMCTS, issue 42) its fixed habits lose deals. Here
its play and a few alternatives (``candidates``) are each played out in the same
worlds of the hidden cards (``ROLLOUTS`` rollouts in all) by the expert's rollouts (the
heuristic for every seat, ``expert.play_out``) and scored by the expert's reward (the
deal's payment), and another move replaces the heuristic's only when it is ahead on
those paired worlds by more than ``KEEP_DEFAULT_Z`` standard errors. The worlds come
from ``WorldSampler`` (uniform but for the soft hints of passes and leads): the expert's
reading of the history costs about a millisecond a world, more than the whole search may.

The size is a count of rollouts, never a time, so the move is the same on any machine
and under any load; 3.4-4.4 ms a move at p95 compiled on a quiet core (docs/ai.md, "The
instant level against the league"). A pure function of the view and the random source.
"""

from __future__ import annotations

import math
import random
from typing import Final

from pusoy.ai.expert import WIN_BONUS, play_out, reward_with_bonus
from pusoy.ai.heuristic import heuristic_play
from pusoy.ai.match import NORMAL, stances
from pusoy.ai.worlds import WorldSampler, cards_dealt
from pusoy.engine.fast import PASS_PLAY, FastPlay, FastState, play_size
from pusoy.engine.moves import PASS, Move
from pusoy.engine.state import PlayerView

# The search's size: the heuristic's play and at most MAX_CANDIDATES - 1 others, each
# played out in ROLLOUTS // (candidates) worlds (13 for three, 20 for two).
ROLLOUTS: Final = 40
MAX_CANDIDATES: Final = 3
# Another move replaces the heuristic's only when ahead of it by this many standard
# errors of the paired difference: on a dozen worlds, noise must not overrule it.
KEEP_DEFAULT_Z: Final = 1.0


def candidates(sim: FastState, plays: list[FastPlay], default: FastPlay) -> list[FastPlay]:
    """The heuristic's play first; following, a pass; then the lowest play of each size
    from the lowest (the cheapest other ways to take or give up the trick), then the
    other plays from the lowest; ``MAX_CANDIDATES`` at most."""
    out = [default]
    if sim.beat_key >= 0 and default != PASS_PLAY:
        out.append(PASS_PLAY)
    lowest: dict[int, FastPlay] = {}
    for p in plays:
        size = play_size(p[1])
        if size not in lowest or p[1] < lowest[size][1]:
            lowest[size] = p
    for p in (*sorted(lowest.values(), key=lambda p: p[1]), *sorted(plays, key=lambda p: p[1])):
        if len(out) >= MAX_CANDIDATES:
            break
        if p not in out:
            out.append(p)
    return out


def instant_play(view: PlayerView, rng: random.Random) -> FastPlay:
    """The chosen play for the seat to move (module doc)."""
    root = FastState.from_view(view)
    me = view.seat
    hand = root.hands[me]
    plays = root.legal_plays()
    for p in plays:
        if p[0] == hand:
            return p
    seat_stances = stances(view.match, view.rules.scoring, root.n)
    default = heuristic_play(root, seat_stances[me])
    if any(stance != NORMAL for stance in seat_stances):
        # This deal may end the match, and the heuristic plays it for the match (its
        # stance); the search's reward, the deal's payment, would overrule that.
        return default
    cands = candidates(root, plays, default)
    if len(cands) == 1:
        return default
    dealt = cards_dealt(view)
    sampler = WorldSampler(view)
    diffs: list[list[float]] = [[] for _ in cands]
    for _ in range(ROLLOUTS // len(cands)):
        base = root.copy()
        base.hands = sampler.sample(rng)
        mine = play_out(base, default, me, dealt, _reward)
        for i in range(1, len(cands)):
            diffs[i].append(play_out(base, cands[i], me, dealt, _reward) - mine)
    best = max(range(1, len(cands)), key=lambda i: sum(diffs[i]))
    mean, se = _mean_and_error(diffs[best])
    return cands[best] if mean > KEEP_DEFAULT_Z * se else default


def _reward(sim: FastState, me: int, dealt: list[int]) -> float:
    return reward_with_bonus(sim, me, dealt, WIN_BONUS)


def _mean_and_error(values: list[float]) -> tuple[float, float]:
    k = len(values)
    mean = sum(values) / k
    var = sum((v - mean) ** 2 for v in values) / (k - 1)
    return mean, math.sqrt(var / k)


def instant_move(view: PlayerView, rng: random.Random) -> Move:
    """The heuristic's move checked by the search (not a lobby level yet: docs/ai.md)."""
    if view.turn != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn")
    mask, _key = instant_play(view, rng)
    return Move(mask) if mask else PASS
