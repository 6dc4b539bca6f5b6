"""What the policy network sees: one vector of the situation, one per candidate move.

Both are built from ``FastState.from_view`` (the seat's own hand, public facts, the
other hands unknown), so they are a function of the seat's view only. Cards are placed
by rank and by suit *strength* (``rules.suit_order``), so that "the highest suit" is
the same input under every suit order. Counts of seats are read relative to the mover
(next, across, previous), so one network serves every seat.

The candidates are every legal play, and a pass when following (``candidates``); the
network scores each and the policy is the softmax over them.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from pusoy.ai.plan import beatable, plan, rank_cost
from pusoy.engine.cards import FULL_DECK_MASK
from pusoy.engine.fast import PASS_PLAY, FastPlay, FastState, five_kind, play_size
from pusoy.engine.rules import SCORINGS, Rules
from pusoy.engine.tables import DEUCES_MASK, RANK_MASKS, low_rank, rank_counts

Vector = npt.NDArray[np.float32]

# Bump when a feature changes meaning: weights trained on another version do not load.
VERSION: Final = 1
SIZE_SLOT: Final = {1: 0, 2: 1, 3: 2, 5: 3}
ACES: Final = RANK_MASKS[11]

# The situation's vector, by slices.
S_HAND, S_PLAYED, S_HAND_RANKS, S_UNSEEN_RANKS = 0, 52, 104, 117
S_SEATS: Final = 130  # 3 relative seats x SEAT_FEATURES
SEAT_FEATURES: Final = 8
S_ME: Final = S_SEATS + 3 * SEAT_FEATURES  # 154: my count, leading, opening lead
S_BEAT: Final = S_ME + 3  # 157: size (4), five kind (5), top rank (13), top suit (4)
S_PLAYERS: Final = S_BEAT + 26  # 183: 2, 3 or 4 players
S_SCORING: Final = S_PLAYERS + 3  # 186: SCORINGS, then another
S_REST: Final = S_SCORING + len(SCORINGS) + 1  # 190
STATE_SIZE: Final = S_REST + 5

# A candidate's vector.
C_PASS, C_SIZE, C_KIND, C_TOP_RANK, C_TOP_SUIT = 0, 1, 5, 10, 23
C_REST: Final = 27
C_CARDS: Final = C_REST + 12
CANDIDATE_SIZE: Final = C_CARDS + 52


@cache
def _suit_strength(suit_order: str) -> npt.NDArray[np.intp]:
    """Card bit ``4 * rank + suit`` -> input position ``4 * rank + strength of suit``."""
    strength = [suit_order.index(s) for s in "CSHD"]
    return np.array([4 * (i >> 2) + strength[i & 3] for i in range(52)], dtype=np.intp)


def _bits(mask: int) -> npt.NDArray[np.uint8]:
    """The 52 card bits of ``mask``, by card bit."""
    raw = np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:52]


def _put_cards(out: Vector, at: int, mask: int, order: npt.NDArray[np.intp]) -> None:
    out[at + order] = _bits(mask)


def _top(mask: int, suit_order: str) -> tuple[int, int]:
    """Rank and suit strength of the highest card bit of ``mask``."""
    bit = mask.bit_length() - 1
    return bit >> 2, suit_order.index("CSHD"[bit & 3])


def candidates(sim: FastState) -> list[FastPlay]:
    """The moves the policy chooses from: the legal plays, then a pass when following."""
    plays = list(sim.legal_plays())
    if sim.beat_key >= 0:
        plays.append(PASS_PLAY)
    return plays


def state_features(sim: FastState) -> Vector:
    """The situation as the seat to move (``sim.turn``) sees it."""
    rules: Rules = sim.rules
    order = _suit_strength(rules.suit_order)
    out = np.zeros(STATE_SIZE, dtype=np.float32)
    me = sim.turn
    n = sim.n
    hand = sim.hands[me]
    unseen = FULL_DECK_MASK & ~hand & ~sim.played
    _put_cards(out, S_HAND, hand, order)
    _put_cards(out, S_PLAYED, sim.played, order)
    out[S_HAND_RANKS : S_HAND_RANKS + 13] = np.array(rank_counts(hand)) / 4
    out[S_UNSEEN_RANKS : S_UNSEEN_RANKS + 13] = np.array(rank_counts(unseen)) / 4
    others = []
    for j in range(1, n):
        seat = (me + j) % n
        c = sim.counts[seat]
        at = S_SEATS + (j - 1) * SEAT_FEATURES
        active = sim.active >> seat & 1
        if active:
            others.append(c)
        out[at : at + SEAT_FEATURES] = (
            c / 13,
            c == 1,
            c == 2,
            c <= 4,
            active,
            sim.passed >> seat & 1,
            sim.beat_key >= 0 and sim.last == seat,
            sim.leader == seat,
        )
    out[S_ME] = sim.counts[me] / 13
    out[S_ME + 1] = sim.beat_key < 0
    out[S_ME + 2] = sim.required != 0
    if sim.beat_key >= 0:
        size = play_size(sim.beat_key)
        out[S_BEAT + SIZE_SLOT[size]] = 1
        if size == 5:
            out[S_BEAT + 4 + five_kind(sim.beat_key)] = 1
        rank, suit = _top(sim.beat_mask, rules.suit_order)
        out[S_BEAT + 9 + rank] = 1
        out[S_BEAT + 22 + suit] = 1
    out[S_PLAYERS + min(max(n, 2), 4) - 2] = 1
    scoring = SCORINGS.index(rules.scoring) if rules.scoring in SCORINGS else len(SCORINGS)
    out[S_SCORING + scoring] = 1
    current = plan(sim.t, hand)
    max_opp = max(others, default=0)
    out[S_REST] = min(others, default=0) / 13
    out[S_REST + 1] = max_opp / 13
    out[S_REST + 2] = len(current) / 13
    out[S_REST + 3] = sum(1 for p in current if beatable(sim.t, p, unseen, max_opp)) / 13
    out[S_REST + 4] = rules.pass_locks_out
    return out


def candidate_features(sim: FastState, moves: list[FastPlay]) -> Vector:
    """One row per move of ``moves`` (``candidates(sim)``), for the seat to move."""
    rules = sim.rules
    t = sim.t
    order = _suit_strength(rules.suit_order)
    out = np.zeros((len(moves), CANDIDATE_SIZE), dtype=np.float32)
    me = sim.turn
    hand = sim.hands[me]
    count = hand.bit_count()
    unseen = FULL_DECK_MASK & ~hand & ~sim.played
    max_opp = max(
        (sim.counts[s] for s in range(sim.n) if s != me and sim.active >> s & 1), default=0
    )
    current = plan(t, hand)
    components = {m for m, _ in current}
    by_size: dict[int, list[int]] = {}
    for mask, key in moves:
        if mask:
            by_size.setdefault(play_size(key), []).append(key)
    for keys in by_size.values():
        keys.sort()
    cards = np.zeros((len(moves), 52), dtype=np.uint8)
    for i, (mask, key) in enumerate(moves):
        row = out[i]
        if not mask:
            row[C_PASS] = 1
            continue
        size = play_size(key)
        row[C_SIZE + SIZE_SLOT[size]] = 1
        if size == 5:
            row[C_KIND + five_kind(key)] = 1
        rank, suit = _top(mask, rules.suit_order)
        row[C_TOP_RANK + rank] = 1
        row[C_TOP_SUIT + suit] = 1
        keys = by_size[size]
        place = keys.index(key)
        touched = sum(1 for m in components if m & mask)
        row[C_REST : C_REST + 12] = (
            low_rank(mask) / 12,
            (mask & DEUCES_MASK).bit_count() / 4,
            (mask & ACES).bit_count() / 4,
            mask == hand,
            (count - size) / 13,
            mask in components,
            touched / 4,
            beatable(t, (mask, key), unseen, max_opp),
            place / max(len(keys) - 1, 1),
            place == 0,
            place == len(keys) - 1,
            min(max(rank_cost(t, hand, (mask, key)), -1), 2) / 2 if size < 5 else 0,
        )
        cards[i] = _bits(mask)
    out[:, C_CARDS + order] = cards
    return out
