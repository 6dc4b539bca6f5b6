"""A slow, plain reference of the combinations of docs/rules.md, written independently of the
engine's tables, for brute-force comparisons in tests."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from pusoy.engine import Card, Rules

RANK_CHARS = "3456789TJQKA2"
SUIT_CHARS = "CSHD"

NORMAL_RUNS = ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"]
RUNS = {
    "ace-low": ["A2345", *NORMAL_RUNS],
    "hong-kong": [*NORMAL_RUNS, "23456", "A2345"],
    "deuce-high": [*NORMAL_RUNS, "JQKA2"],
    "no-deuce": NORMAL_RUNS,
}


def _rank_char(card: Card) -> str:
    return RANK_CHARS[card.rank]


def suit_value(card: Card, rules: Rules) -> int:
    return rules.suit_order.index(SUIT_CHARS[card.suit])


def straight_run(cards: list[Card], rules: Rules) -> tuple[int, Card] | None:
    """(position of the run, deciding card) or None."""
    chars = sorted(_rank_char(c) for c in cards)
    for position, run in enumerate(RUNS[rules.straights]):
        if sorted(run) == chars:
            if rules.straights == "hong-kong":
                deciding_char = max(run, key=RANK_CHARS.index)
            else:
                deciding_char = run[-1]
            deciding = next(c for c in cards if _rank_char(c) == deciding_char)
            return position, deciding
    return None


def reference_key(cards: list[Card] | tuple[Card, ...], rules: Rules) -> tuple | None:
    """(size, comparable tuple) of a play under ``rules``; None when not a play."""
    cards = list(cards)
    size = len(cards)
    ranks = [c.rank for c in cards]
    if size == 1:
        return (1, (ranks[0], suit_value(cards[0], rules)))
    if size in (2, 3):
        if len(set(ranks)) != 1 or (size == 3 and not rules.triples):
            return None
        return (size, (ranks[0], max(suit_value(c, rules) for c in cards)))
    if size != 5:
        return None
    counts = sorted(Counter(ranks).values())
    if counts == [1, 4]:
        quad = next(r for r, n in Counter(ranks).items() if n == 4)
        return (5, (3, quad))
    if counts == [2, 3]:
        triple = next(r for r, n in Counter(ranks).items() if n == 3)
        return (5, (2, triple))
    if counts != [1, 1, 1, 1, 1]:
        return None
    is_flush = len({c.suit for c in cards}) == 1
    run = straight_run(cards, rules)
    if run is not None:
        position, deciding = run
        return (5, (4 if is_flush else 0, position, suit_value(deciding, rules)))
    if is_flush:
        desc = tuple(sorted(ranks, reverse=True))
        suit = suit_value(cards[0], rules)
        if rules.flush_order == "rank-first":
            return (5, (1, desc, suit))
        return (5, (1, suit, desc))
    return None


def reference_beats(a: tuple, b: tuple) -> bool:
    return a[0] == b[0] and a[1] > b[1]


def subsets(cards: list[Card], sizes: tuple[int, ...] = (1, 2, 3, 4, 5)):
    for k in sizes:
        yield from combinations(cards, k)
