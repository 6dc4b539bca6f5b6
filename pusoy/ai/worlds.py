"""Sampling the hidden cards: hands for the opponents that agree with everything a seat
sees (its own hand, the cards played, every seat's card count, the opening card, and
in 3-player deals the card dealt face up, which stays with its holder until played).

The cards a seat has not seen are its unseen pool: 52 minus its hand minus the cards
played. Each opponent gets a uniform random subset of the pool of its card count; what
is left over was set aside (2 players, or 3 with ``leftover: set-aside``). On the opening
lead, the seat to move holds the required card, and when that is not the opening card
(the opening card was set aside) every lower card was set aside too.

Passes are used softly: a player who passed on a single is less likely to hold a 2 or
an ace that beat it (``PASS_WEIGHT``), by giving those cards to it last when dealing.
"""

from __future__ import annotations

import random
from typing import Final

from pusoy.engine.cards import FULL_DECK_MASK
from pusoy.engine.fast import FastState, Tables, play_size, tables_for
from pusoy.engine.state import PlayerView

# Probability that a card a player declined to play on a single (by passing) stays out
# of the sample for that player when another home exists.
PASS_WEIGHT: Final = 0.6
# The same for a card below the lowest card of a trick the player led (players lead
# their lowest cards, so such a card was probably not in its hand then, nor now).
LEAD_WEIGHT: Final = 0.85


def cards_dealt(view: PlayerView) -> list[int]:
    """Each seat's card count as dealt: what it holds now plus what it played."""
    dealt = list(view.card_counts)
    for seat, move in view.history:
        dealt[seat] += move.mask.bit_count()
    return dealt


def _indices(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class WorldSampler:
    """Draws opponents' hands for one view. ``sample(rng)`` -> a hand mask per seat
    (the viewer's own hand at its seat)."""

    def __init__(self, view: PlayerView, *, use_passes: bool = True) -> None:
        t = tables_for(view.rules)
        self.seat = view.seat
        self.own = view.hand_mask
        played = 0
        for card in view.played_cards:
            played |= card.mask
        self.unseen = FULL_DECK_MASK & ~self.own & ~played
        self.counts = list(view.card_counts)
        self.opponents = [
            s for s in range(view.num_players) if s != view.seat and self.counts[s] > 0
        ]
        self.forced: dict[int, int] = {}  # seat -> the cards it must hold (a mask)
        excluded = 0
        required = view.required_card
        if required is not None and view.turn is not None and view.turn != view.seat:
            self.forced[view.turn] = required.mask
            if required != view.rules.opening_card:
                key = t.single_key[required.index]
                for i in _indices(self.unseen):
                    if t.single_key[i] < key:
                        excluded |= 1 << i
        face_up = view.face_up_card
        seat = view.face_up_seat
        if face_up is not None and seat in self.opponents and self.unseen & face_up.mask:
            self.forced[seat] = self.forced.get(seat, 0) | face_up.mask
        self.forced_mask = 0
        for mask in self.forced.values():
            self.forced_mask |= mask
        # Cards free to move between opponents (and the set-aside cards) in a world.
        self.free = self.unseen & ~excluded & ~self.forced_mask
        self.pool = _indices(self.free)
        # Cards each opponent probably lacks: high singles it passed on.
        self.avoid: dict[int, int] = {}
        self.avoid_strong: dict[int, int] = {}
        if use_passes:
            self.avoid = _passed_over(view, t, self.unseen)
            self.avoid_strong = _below_leads(view, t, self.unseen)

    def sample(self, rng: random.Random) -> list[int]:
        hands = [0] * len(self.counts)
        hands[self.seat] = self.own
        pool = self.pool[:]
        rng.shuffle(pool)
        need = {s: self.counts[s] for s in self.opponents}
        for seat, mask in self.forced.items():
            hands[seat] |= mask
            need[seat] -= mask.bit_count()
        if self.avoid or self.avoid_strong:
            pool = self._deal_avoiding(pool, need, hands, rng)
        else:
            at = 0
            for seat in self.opponents:
                k = need[seat]
                for index in pool[at : at + k]:
                    hands[seat] |= 1 << index
                at += k
        return hands

    def _deal_avoiding(
        self, pool: list[int], need: dict[int, int], hands: list[int], rng: random.Random
    ) -> list[int]:
        """Deal the shuffled pool seat by seat (in random order); a card a seat probably
        lacks is passed on to later seats with probability ``PASS_WEIGHT`` while the
        seat can still fill its count from the cards after it."""
        remaining = pool
        order = self.opponents[:]
        rng.shuffle(order)
        for seat in order:
            hand, remaining = self.deal_seat(seat, need[seat], remaining, rng)
            hands[seat] |= hand
        return remaining

    def deal_seat(
        self, seat: int, k: int, remaining: list[int], rng: random.Random
    ) -> tuple[int, list[int]]:
        """``k`` cards for ``seat`` from the shuffled ``remaining`` (the hints applied):
        the hand's mask and the cards left, in order."""
        avoid = self.avoid.get(seat, 0)
        strong = self.avoid_strong.get(seat, 0)
        hand = 0
        taken = 0
        skipped: list[int] = []
        for pos, index in enumerate(remaining):
            if taken == k:
                skipped.extend(remaining[pos:])
                break
            spare = len(remaining) - pos - 1 - (k - taken)
            if spare >= 0 and (
                (strong >> index & 1 and rng.random() < LEAD_WEIGHT)
                or (avoid >> index & 1 and rng.random() < PASS_WEIGHT)
            ):
                skipped.append(index)
                continue
            hand |= 1 << index
            taken += 1
        return hand, skipped


def _passed_over(view: PlayerView, t: Tables, unseen: int) -> dict[int, int]:
    """For each opponent, the unseen cards of rank A or 2 that would have beaten a single
    it passed on: a soft hint that it lacks them."""
    avoid: dict[int, int] = {}
    to_beat_key = -1
    high = 0
    for r in (11, 12):
        high |= 15 << (4 * r)
    candidates = unseen & high
    if not candidates:
        return avoid
    for seat, move in view.history:
        if move.mask:
            to_beat_key = t.classify(move.mask) or -1
            continue
        if seat == view.seat or to_beat_key < 0 or play_size(to_beat_key) != 1:
            continue
        lacks = 0
        for i in _indices(candidates):
            if t.single_key[i] > to_beat_key:
                lacks |= 1 << i
        if lacks:
            avoid[seat] = avoid.get(seat, 0) | lacks
    return avoid


def _below_leads(view: PlayerView, t: Tables, unseen: int) -> dict[int, int]:
    """For each opponent, the unseen cards below the lowest card of a trick it led
    (the opening lead aside, and only while nobody else was close to going out, when
    players lead high on purpose): a hint that it did not hold them."""
    n = view.num_players
    counts = cards_dealt(view)
    threshold = [-1] * n
    sim = FastState.at_start(view.rules, [0] * n, counts, view.history[0][0] if view.history else 0)
    single_key = t.single_key
    for step, (seat, move) in enumerate(view.history):
        if sim.turn != seat:
            break
        mask = move.mask
        if mask and sim.beat_key < 0 and step > 0 and seat != view.seat:
            calm = min(counts[s] for s in range(n) if s != seat) > 2
            if calm:
                lowest = min(single_key[i] for i in _indices(mask))
                threshold[seat] = max(threshold[seat], lowest)
        key = t.classify(mask) if mask else 0
        if key is None or sim.push(mask, key):
            break
    avoid: dict[int, int] = {}
    for seat in range(n):
        if threshold[seat] >= 0:
            below = 0
            for i in _indices(unseen):
                if single_key[i] < threshold[seat]:
                    below |= 1 << i
            if below:
                avoid[seat] = below
    return avoid
