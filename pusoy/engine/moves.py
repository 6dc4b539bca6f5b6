"""Small immutable values at the API boundary: ``Move`` (a play or a pass) and ``Play``
(a classified combination under some rules).

Both hold their cards as a bit mask; ``.cards`` lists them in canonical order: ascending
by rank, then by suit in notation order C S H D (``str(Move.parse("9H 9S")) == "9S 9H"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NoReturn

from pusoy.engine.cards import Card, cards_of, mask_text, parse_cards
from pusoy.engine.errors import InvalidMoveError
from pusoy.engine.rules import Rules
from pusoy.engine.tables import SIZE_SHIFT, kind_of_key, tables_for


def cards_to_mask(cards: str | Iterable[str | Card]) -> int:
    """Parse cards into a mask; ``invalid_card``, then ``duplicate_cards``."""
    parsed = parse_cards(cards)
    mask = 0
    for card in parsed:
        bit = 1 << (card.rank * 4 + card.suit)
        if mask & bit:
            raise InvalidMoveError(
                "duplicate_cards", f"{card} is given twice", {"cards": [str(card)]}
            )
        mask |= bit
    return mask


class _Frozen:
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable")


class Move(_Frozen):
    """A play of some cards, or a pass. Immutable and hashable.

    >>> Move.parse("9H 9S")
    Move.parse('9S 9H')
    >>> Move.parse("pass").is_pass
    True
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, mask: int) -> None:
        _set_mask(self, mask)

    @classmethod
    def play(cls, cards: str | Iterable[str | Card]) -> Move:
        mask = cards_to_mask(cards)
        if not mask:
            raise InvalidMoveError("not_a_combination", "a play needs at least one card")
        return cls(mask)

    @classmethod
    def pass_(cls) -> Move:
        return PASS

    @classmethod
    def parse(cls, text: str) -> Move:
        """``"pass"`` or cards such as ``"9H 9S"``."""
        if text.strip().lower() == "pass":
            return PASS
        return cls.play(text)

    @property
    def is_pass(self) -> bool:
        return not self.mask

    @property
    def cards(self) -> tuple[Card, ...]:
        return cards_of(self.mask)

    @property
    def action(self) -> str:
        return "pass" if not self.mask else "play"

    def to_dict(self) -> dict[str, Any]:
        """``{"action": "pass"}`` or ``{"action": "play", "cards": [...]}``."""
        if not self.mask:
            return {"action": "pass"}
        return {"action": "play", "cards": [str(c) for c in cards_of(self.mask)]}

    def __str__(self) -> str:
        return mask_text(self.mask) if self.mask else "pass"

    def __repr__(self) -> str:
        return f"Move.parse('{self}')"

    def __eq__(self, other: object) -> bool:
        return type(other) is Move and other.mask == self.mask

    def __hash__(self) -> int:
        return hash((Move, self.mask))

    def __reduce__(self) -> tuple[type[Move], tuple[int]]:
        return (Move, (self.mask,))


# The slot's own setter: builds Moves without the immutability guard of ``__setattr__``.
_set_mask: Callable[[Move, int], None] = Move.__dict__["mask"].__set__
_new_object = object.__new__
PASS = Move(0)


def moves_from_plays(plays: Iterable[tuple[int, int]]) -> list[Move]:
    """Moves of ``(mask, key)`` plays (see ``movegen``), built without per-move checks."""
    out = []
    for mask, _ in plays:
        move = _new_object(Move)
        _set_mask(move, mask)
        out.append(move)
    return out


class Play(_Frozen):
    """A classified combination under some rules.

    Plays compare with ``beats``: same size and a higher ``key`` (``key`` is an int that
    orders all plays of one size under these rules, so it also works as a sort key).

    >>> rules = Rules.from_spec("philippine")
    >>> Play.parse("7D", rules).beats(Play.parse("7H", rules))
    True
    >>> Play.parse("9H 9S", rules).kind
    'pair'
    """

    __slots__ = ("key", "mask", "rules")
    mask: int
    key: int
    rules: Rules

    def __init__(self, mask: int, key: int, rules: Rules) -> None:
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "rules", rules)

    @classmethod
    def from_mask(cls, mask: int, rules: Rules) -> Play:
        key = tables_for(rules).classify(mask)
        if key is None:
            raise InvalidMoveError(
                "not_a_combination",
                f"{mask_text(mask) or 'no cards'} is not a combination"
                + ("" if rules.triples else " (triples are off)"),
                {"cards": [str(c) for c in cards_of(mask)]},
            )
        return cls(mask, key, rules)

    @classmethod
    def parse(cls, cards: str | Iterable[str | Card], rules: Rules | None = None) -> Play:
        """Classify cards (``invalid_card``, ``duplicate_cards``, ``not_a_combination``)."""
        return cls.from_mask(cards_to_mask(cards), rules or Rules.from_spec(None))

    @property
    def kind(self) -> str:
        """single, pair, triple, straight, flush, full_house, four_of_a_kind, straight_flush"""
        return kind_of_key(self.key)

    @property
    def size(self) -> int:
        return self.key >> SIZE_SHIFT

    @property
    def cards(self) -> tuple[Card, ...]:
        return cards_of(self.mask)

    @property
    def move(self) -> Move:
        return Move(self.mask)

    def beats(self, other: Play) -> bool:
        """True when this play may answer ``other``: same size, stronger."""
        return self.size == other.size and self.key > other.key

    def __str__(self) -> str:
        return mask_text(self.mask)

    def __repr__(self) -> str:
        return f"Play.parse('{self}', {self.rules!r})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is Play
            and other.mask == self.mask
            and other.key == self.key
            and other.rules == self.rules
        )

    def __hash__(self) -> int:
        return hash((Play, self.mask, self.key))
