"""The fast API: a deal as a few ints, stepped by one function (docs/engine.md, "The fast API").

``DealState`` is the checked, public face of a deal; inside it is a ``FastState``, and
``FastState.push`` is the only code that moves a deal on (turn order, passes,
``pass_locks_out``, the end of a trick, going out). The bots use the same class for their
searches: built from a ``PlayerView`` (``FastState.from_view``: the other hands empty,
their sizes in ``counts``) or from a sampled world, copied and stepped through rollouts,
with no checks and no objects but ints.

Cards are ``CardMask`` ints (bit ``4 * rank + suit``), plays ``FastPlay`` pairs
``(mask, key)`` where the ``PlayKey`` orders the plays of one size (``play_size``).

>>> from pusoy.engine import DealState
>>> state = DealState.new("philippine", ["3C 4D 9S", "5C 6C 7H", "7C 8C 8H", "9C TC JD"])
>>> fast = FastState.from_view(state.view(0))
>>> plays = fast.legal_plays()
>>> [mask_text(mask) for mask, key in plays]
['3C']
>>> fast.push(*plays[0]), fast.turn, play_size(fast.beat_key)
(False, 1, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pusoy.engine.cards import mask_text
from pusoy.engine.movegen import Plays, legal_plays
from pusoy.engine.rules import Rules
from pusoy.engine.tables import (
    CardMask,
    FastPlay,
    PlayKey,
    Tables,
    five_kind,
    low_rank,
    play_size,
    tables_for,
)

if TYPE_CHECKING:
    from pusoy.engine.state import PlayerView

__all__ = [
    "PASS_PLAY",
    "CardMask",
    "FastPlay",
    "FastState",
    "PlayKey",
    "Plays",
    "Tables",
    "five_kind",
    "low_rank",
    "mask_text",
    "play_size",
    "tables_for",
]

PASS_PLAY: FastPlay = (0, -1)
"""A pass, as a play: no cards, no key."""


class FastState:
    """The situation of a deal as ints; ``push`` moves it on by one move, unchecked.

    Attributes (read them freely; only ``push``/``retire`` should change them, except
    ``hands``, which a search may fill with a sampled world):

    - ``t``: the ``Tables`` of the rules; ``n``: the number of seats;
    - ``hands``: a ``CardMask`` per seat (0 where unknown); ``counts``: cards per seat;
    - ``turn``: the seat to move (once the deal is over, the seat that went out last);
    - ``beat_mask``/``beat_key``: the play to beat (key -1 when leading a trick);
    - ``last``: the seat that made that play (on lead: the trick's leader);
    - ``leader``: the seat that led the current trick;
    - ``passed``: bits of the seats that passed in this trick; ``active``: bits of the
      seats still holding cards; ``played``: every card played so far;
    - ``required``: a card the next play must include (the opening card), or 0;
    - ``locks``: ``rules.pass_locks_out``; ``out``: the seat that went out on the last
      ``push`` that returned True (-1 before).
    """

    __slots__ = (
        "active",
        "beat_key",
        "beat_mask",
        "counts",
        "hands",
        "last",
        "leader",
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
    hands: list[CardMask]
    counts: list[int]
    turn: int
    beat_mask: CardMask
    beat_key: PlayKey
    last: int
    leader: int
    passed: int
    active: int
    played: CardMask
    required: CardMask
    locks: bool
    out: int

    def __init__(self) -> None:
        """An empty state, for ``at_start``, ``from_view`` and ``copy`` to fill: they set
        every attribute (mypyc's compiled class has no ``__new__`` to call instead)."""

    @classmethod
    def at_start(
        cls,
        rules: Rules,
        hands: list[CardMask],
        counts: list[int],
        leader: int,
        required: CardMask = 0,
    ) -> FastState:
        """A deal before its first move (``hands`` may be empty masks when only the
        ``counts`` matter, e.g. to replay a public history). The lists are kept, not
        copied."""
        self = cls()
        self.rules = rules
        self.t = tables_for(rules)
        self.n = n = len(counts)
        self.hands = hands
        self.counts = counts
        self.turn = leader
        self.beat_mask = 0
        self.beat_key = -1
        self.last = leader
        self.leader = leader
        self.passed = 0
        self.active = (1 << n) - 1
        self.played = 0
        self.required = required
        self.locks = rules.pass_locks_out
        self.out = -1
        return self

    @classmethod
    def from_view(cls, view: PlayerView) -> FastState:
        """The situation as ``view.seat`` sees it: its own hand, every other hand empty
        (their sizes are in ``counts``)."""
        if view.turn is None:
            raise ValueError("the deal is over")
        self = cls()
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
        self.leader = view.trick_leader
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

    def copy(self) -> FastState:
        other = FastState()
        other.rules = self.rules
        other.t = self.t
        other.n = self.n
        other.hands = self.hands[:]
        other.counts = self.counts[:]
        other.turn = self.turn
        other.beat_mask = self.beat_mask
        other.beat_key = self.beat_key
        other.last = self.last
        other.leader = self.leader
        other.passed = self.passed
        other.active = self.active
        other.played = self.played
        other.required = self.required
        other.locks = self.locks
        other.out = self.out
        return other

    def legal_plays(self) -> Plays:
        """The legal plays ``(mask, key)`` of the seat to move (its hand must be known);
        a pass is legal too whenever ``beat_key >= 0``."""
        return legal_plays(self.t, self.hands[self.turn], self.beat_key, self.required)

    def next_in(self, seat: int, seats: int) -> int:
        """The first seat after ``seat`` (in turn order) among the bits of ``seats``."""
        n = self.n
        while True:
            seat = seat + 1 if seat + 1 < n else 0
            if seats >> seat & 1:
                return seat

    def push(self, mask: CardMask, key: PlayKey) -> bool:
        """Apply a play ``(mask, key)`` or a pass (mask 0) by the seat to move, unchecked.

        Returns True when the play took the mover out: ``out`` is then that seat and
        nothing else has moved (the turn stays with it). A search stops there; the
        engine scores, and with ``play_out`` calls ``retire`` to play on."""
        seat = self.turn
        if mask:
            self.hands[seat] &= ~mask
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
            # Everyone else still in the deal has passed: the last player wins the trick.
            if not active >> last & 1:  # gone out (play_out): the next seat in the deal
                last = self.next_in(last, active)
            self.beat_mask = 0
            self.beat_key = -1
            self.passed = 0
            self.turn = last
            self.last = last
            self.leader = last
            return False
        self.turn = self.next_in(seat, waiting)
        return False

    def retire(self) -> None:
        """After ``push`` returned True: the seat that went out leaves the deal and the
        turn moves on among the others (``play_out``). Leaving is a pass that is not
        remembered: the same step decides whether the trick ends and who is next."""
        bit = 1 << self.out
        self.active &= ~bit
        self.push(0, -1)
        self.passed &= ~bit

    def __repr__(self) -> str:
        beat = mask_text(self.beat_mask) if self.beat_key >= 0 else None
        return f"<FastState turn={self.turn} counts={self.counts} to_beat={beat!r}>"
