"""A lean mutable deal on bit masks for bots: built from a ``PlayerView`` (only what the
seat may see, other hands empty) or from a sampled world, and stepped through rollouts.

It mirrors ``DealState.push_fast`` (tricks, passes, ``pass_locks_out``, ``play_out``), but
stops at the next player to go out: that is all a bot's objective needs (points are
counted when the first player goes out). ``tests/ai/test_sim.py`` checks it move by move
against the engine.
"""

from __future__ import annotations

from games.engine.movegen import legal_plays
from games.engine.rules import Rules
from games.engine.state import PlayerView
from games.engine.tables import Tables, tables_for

Plays = list[tuple[int, int]]


class Sim:
    """The public situation of a deal, plus whatever hands are known (or sampled)."""

    __slots__ = (
        "active",
        "beat_key",
        "beat_mask",
        "counts",
        "hands",
        "last",
        "locks",
        "n",
        "out",
        "passed",
        "played",
        "required",
        "rules",
        "t",
        "turn",
    )

    rules: Rules
    t: Tables
    n: int
    hands: list[int]
    counts: list[int]
    turn: int
    beat_mask: int
    beat_key: int
    last: int
    passed: int
    active: int
    played: int
    required: int
    locks: bool
    out: int

    @classmethod
    def from_view(cls, view: PlayerView) -> Sim:
        """The situation as ``view.seat`` sees it: its own hand, every other hand empty
        (their sizes are in ``counts``)."""
        if view.turn is None:
            raise ValueError("the deal is over")
        self = cls.__new__(cls)
        self.rules = view.rules
        self.t = tables_for(view.rules)
        self.n = view.num_players
        self.hands = [0] * view.num_players
        self.hands[view.seat] = view.hand_mask
        self.counts = list(view.card_counts)
        self.turn = view.turn
        to_beat = view.to_beat
        self.beat_mask = 0 if to_beat is None else to_beat.mask
        self.beat_key = -1 if to_beat is None else to_beat.key
        last = view.last_player
        self.last = view.trick_leader if last is None else last
        self.passed = sum(1 << s for s in view.passed)
        self.active = sum(1 << s for s in view.in_play)
        played = 0
        for card in view.played_cards:
            played |= card.mask
        self.played = played
        self.required = 0 if view.required_card is None else view.required_card.mask
        self.locks = view.rules.pass_locks_out
        self.out = -1
        return self

    @classmethod
    def at_start(cls, rules: Rules, hands: list[int], counts: list[int], leader: int) -> Sim:
        """A deal before its first move (``hands`` may be empty masks when only the
        ``counts`` matter, e.g. to replay a public history)."""
        self = cls.__new__(cls)
        self.rules = rules
        self.t = tables_for(rules)
        self.n = n = len(counts)
        self.hands = hands
        self.counts = counts
        self.turn = leader
        self.beat_mask = 0
        self.beat_key = -1
        self.last = leader
        self.passed = 0
        self.active = (1 << n) - 1
        self.played = 0
        self.required = 0
        self.locks = rules.pass_locks_out
        self.out = -1
        return self

    def copy(self) -> Sim:
        other = Sim.__new__(Sim)
        other.rules = self.rules
        other.t = self.t
        other.n = self.n
        other.hands = self.hands[:]
        other.counts = self.counts[:]
        other.turn = self.turn
        other.beat_mask = self.beat_mask
        other.beat_key = self.beat_key
        other.last = self.last
        other.passed = self.passed
        other.active = self.active
        other.played = self.played
        other.required = self.required
        other.locks = self.locks
        other.out = self.out
        return other

    def legal_plays(self) -> Plays:
        """The legal plays ``(mask, key)`` of the seat to move (its hand must be known)."""
        return legal_plays(self.t, self.hands[self.turn], self.beat_key, self.required)

    def next_in(self, seat: int, seats: int) -> int:
        n = self.n
        while True:
            seat = seat + 1 if seat + 1 < n else 0
            if seats >> seat & 1:
                return seat

    def push(self, mask: int, key: int) -> bool:
        """Apply a play ``(mask, key)`` or a pass (mask 0) by the seat to move; True when
        that play took the mover out (``out`` is then the seat, and the sim stops)."""
        seat = self.turn
        if mask:
            hand = self.hands[seat] & ~mask
            self.hands[seat] = hand
            left = self.counts[seat] - mask.bit_count()
            self.counts[seat] = left
            self.played |= mask
            self.beat_mask = mask
            self.beat_key = key
            self.last = seat
            self.required = 0
            if not self.locks:
                self.passed = 0
            if not left:
                self.out = seat
                return True
        else:
            self.passed |= 1 << seat
        active = self.active
        waiting = active & ~self.passed
        last = self.last
        if not waiting & ~(1 << last):
            if not active >> last & 1:
                last = self.next_in(last, active)
            self.beat_mask = 0
            self.beat_key = -1
            self.passed = 0
            self.turn = last
            self.last = last
            return False
        self.turn = self.next_in(seat, waiting)
        return False
