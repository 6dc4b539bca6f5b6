"""Cards and their notation: ``Card.parse("10d")``, ``str(card) == "TD"``, card sets as bit masks.

A card's ``index`` is ``rank * 4 + suit`` (rank 0..12 for 3..2, suit 0..3 for C S H D), so
a set of cards is an int with bit ``index`` set; every rank occupies one 4-bit nibble.
The suit number is identity only: which suit is higher is a rule option (``suit_order``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pusoy.engine.errors import InvalidMoveError

RANKS = "3456789TJQKA2"
SUITS = "CSHD"

_RANK_OF = {ch: i for i, ch in enumerate(RANKS)}
_RANK_OF["10"] = RANKS.index("T")
_SUIT_OF = {ch: i for i, ch in enumerate(SUITS)}
_SUIT_OF.update({"♣": 0, "♠": 1, "♥": 2, "♦": 3, "♧": 0, "♤": 1, "♡": 2, "♢": 3})
# Every spelling of a card the engine reads, and nothing else: a rank (10 for T, any
# case), then a suit letter (any case) or symbol (an emoji variation selector allowed).
# Published as is in the API schema, so the schema and the parser cannot disagree.
CARD_INPUT_PATTERN = "^(10|[2-9TJQKAtjqka])([CSHDcshd]|[♣♠♥♦♧♤♡♢]\ufe0f?)$"
_CARD_INPUT = re.compile(CARD_INPUT_PATTERN)


@dataclass(frozen=True, slots=True, order=True, repr=False)
class Card:
    """One card. Ordered by (rank, suit in notation order): an identity order, not a rule."""

    rank: int
    suit: int

    def __post_init__(self) -> None:
        ok = type(self.rank) is int and type(self.suit) is int
        if not (ok and 0 <= self.rank < 13 and 0 <= self.suit < 4):
            raise InvalidMoveError(
                "invalid_card", f"no card with rank {self.rank!r} and suit {self.suit!r}"
            )

    @classmethod
    def parse(cls, text: object) -> Card:
        """Read ``3C``, ``TD``, ``10d``, ``2♦`` (case-insensitive); a Card is itself, and
        anything else is ``invalid_card``.

        >>> Card.parse("10d")
        Card.parse('TD')
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError("invalid_card", f"not a card: {text!r}", {"card": repr(text)})
        found = _CARD_INPUT.fullmatch(text)
        if found is None:
            raise InvalidMoveError("invalid_card", f"not a card: {text!r}", {"card": text})
        rank, suit = found.group(1).upper(), found.group(2)[0].upper()
        return CARDS[_RANK_OF[rank] * 4 + _SUIT_OF[suit]]

    @classmethod
    def from_index(cls, index: int) -> Card:
        return CARDS[index]

    @property
    def index(self) -> int:
        """0..51, rank-major: 3C=0, 3S=1, 3H=2, 3D=3, 4C=4, ..., 2D=51."""
        return self.rank * 4 + self.suit

    @property
    def mask(self) -> int:
        return 1 << (self.rank * 4 + self.suit)

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"


CARDS: tuple[Card, ...] = tuple(Card(i >> 2, i & 3) for i in range(52))
FULL_DECK_MASK = (1 << 52) - 1


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """``"9H 9S"``, ``"9H,9S"`` or ``["9H", "9S"]`` -> cards in the given order.

    >>> parse_cards("9H 10s")
    (Card.parse('9H'), Card.parse('TS'))
    """
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return tuple(Card.parse(c) for c in cards)


def format_cards(cards: Iterable[Card]) -> list[str]:
    """Cards -> canonical two-character strings, in the given order."""
    return [str(c) for c in cards]


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << (card.rank * 4 + card.suit)
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in ascending (rank, suit) order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def mask_text(mask: int) -> str:
    return " ".join(str(c) for c in cards_of(mask))
