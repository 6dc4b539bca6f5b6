"""Per-rules lookup tables behind classification and move generation (built once per Rules).

A play is represented internally by ``(mask, key)``: ``mask`` is its set of cards, ``key``
an int with the play's size in the top bits, then (for five-card hands) the hand type,
then the strength inside that type. So "a beats b" is ``size(a) == size(b) and
key(a) > key(b)``, and the size of a key is ``key >> SIZE_SHIFT``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final, NamedTuple, TypeAlias

from pusoy.engine.cards import SUITS
from pusoy.engine.rules import Rules

CardMask: TypeAlias = int
"""A set of cards: bit ``4 * rank + suit`` (rank 0..12 for 3..2, suit in C S H D order)."""
PlayKey: TypeAlias = int
"""The strength of a play under some rules: size, then five-card type, then strength."""
FastPlay: TypeAlias = tuple[CardMask, PlayKey]
"""A classified play ``(mask, key)``; ``(0, -1)`` stands for a pass."""

SIZE_SHIFT: Final = 25
KIND_SHIFT: Final = 22

FIVE_KINDS = ("straight", "flush", "full_house", "four_of_a_kind", "straight_flush")
SMALL_KINDS = {1: "single", 2: "pair", 3: "triple"}
STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(5)


def five_key(kind: int, within: int) -> PlayKey:
    return (5 << SIZE_SHIFT) | (kind << KIND_SHIFT) | within


def play_size(key: PlayKey) -> int:
    """How many cards a play of this key holds (1, 2, 3 or 5)."""
    return key >> SIZE_SHIFT


def five_kind(key: PlayKey) -> int:
    """The type of a five-card key: ``STRAIGHT`` .. ``STRAIGHT_FLUSH`` (0..4)."""
    return (key >> KIND_SHIFT) & 7


def kind_of_key(key: PlayKey) -> str:
    size = key >> SIZE_SHIFT
    if size == 5:
        return FIVE_KINDS[(key >> KIND_SHIFT) & 7]
    return SMALL_KINDS[size]


def low_rank(mask: CardMask) -> int:
    """The rank (0..12 for 3..2) of the lowest card of a non-empty mask."""
    return ((mask & -mask).bit_length() - 1) >> 2


def rank_counts(mask: CardMask) -> list[int]:
    """How many cards of each rank (0..12 for 3..2) the mask holds."""
    return [(mask >> (4 * r) & 15).bit_count() for r in range(13)]


class NibRow(NamedTuple):
    """The plays of the cards ``nib`` (a 4-bit suit set) of one rank: ``rows[rank][nib]``.

    ``Tables.by_size[rank][nib][size]`` is the same row's plays of ``size`` cards (1 to 3;
    0 gives ``lead``), for code that picks a size at run time."""

    lead: tuple[FastPlay, ...]
    """Singles, pairs and (when ``triples``) triples: what may be led."""
    singles: tuple[FastPlay, ...]
    pairs: tuple[FastPlay, ...]
    trips: tuple[FastPlay, ...]
    pair_masks: tuple[CardMask, ...]
    trip_masks: tuple[CardMask, ...]
    single_masks: tuple[CardMask, ...]


class RunCard(NamedTuple):
    """One card of the deciding rank of a straight run, with the keys it gives."""

    card: CardMask
    straight: PlayKey
    straight_flush: PlayKey
    same_suit: CardMask
    """The run's other four cards in this card's suit (a straight flush with it)."""


class Run(NamedTuple):
    """A straight of the rules' straight system (``Tables.runs``, lowest first)."""

    rank_bits: int
    """Its five ranks as 13 bits."""
    o1: int
    o2: int
    o3: int
    o4: int
    """The four ranks other than the deciding one."""
    deciding: int
    by_nib: tuple[tuple[RunCard, ...], ...]
    """Per nib of the deciding rank, the cards of that nib that can decide the run."""


class SuitTable(NamedTuple):
    """Flush lookup of one suit: clubs-aligned 5-card masks -> flush keys."""

    suit: int
    mask: CardMask
    flush_keys: dict[CardMask, PlayKey]


RANK_MASKS = tuple(15 << (4 * r) for r in range(13))
SUIT_MASKS = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))
SHIFTS = tuple(4 * r for r in range(13))
DEUCES_MASK: Final = RANK_MASKS[12]

# Submasks of a rank nibble by size: NIB_SUBS[nib][k] lists the k-card subsets.
NIB_SUBS: tuple[dict[int, tuple[int, ...]], ...] = tuple(
    {
        k: tuple(
            sum(1 << s for s in combo)
            for combo in combinations([s for s in range(4) if nib >> s & 1], k)
        )
        for k in range(1, 5)
    }
    for nib in range(16)
)


def straight_runs(system: str) -> list[tuple[tuple[int, ...], int]]:
    """The runs of a straight system, lowest first: (ranks, deciding rank).

    Ranks are 0..12 for 3..2. The deciding card is the top of the run under ``ace-low``,
    ``deuce-high`` and ``no-deuce``, and the highest-ranking card (2 high) under
    ``hong-kong`` (docs/rules.md, "Straight systems").
    """
    ace, deuce = 11, 12
    normal = [(tuple(range(lo, lo + 5)), lo + 4) for lo in range(8)]  # 3-7 .. 10-A
    if system == "ace-low":
        return [((ace, deuce, 0, 1, 2), 2), *normal]
    if system == "hong-kong":
        return [*normal, ((deuce, 0, 1, 2, 3), deuce), ((ace, deuce, 0, 1, 2), deuce)]
    if system == "deuce-high":
        return [*normal, ((8, 9, 10, ace, deuce), deuce)]
    if system == "no-deuce":
        return normal
    raise ValueError(system)


def _rank_bits(ranks: tuple[int, ...] | list[int]) -> int:
    return sum(1 << r for r in ranks)


def _spaced(rank_bits: int) -> int:
    """13 rank bits -> the same ranks as a mask of clubs (one bit every 4)."""
    return sum(1 << (4 * r) for r in range(13) if rank_bits >> r & 1)


# Five-card subsets of a suit, as clubs-aligned masks; a lazily filled table over the
# 8192 possible suit patterns (pure function, independent of the rules).
_FIVE_SUBSETS: dict[int, tuple[int, ...]] = {}


def five_subsets(spaced: int) -> tuple[int, ...]:
    found = _FIVE_SUBSETS.get(spaced)
    if found is None:
        bits = [1 << (4 * r) for r in range(13) if spaced >> (4 * r) & 1]
        found = tuple(sum(c) for c in combinations(bits, 5))
        _FIVE_SUBSETS[spaced] = found
    return found


class Tables:
    """Everything rule-dependent, precomputed, built once per rules by ``tables_for``.

    Read-only. ``rows[rank][nib]`` is a ``NibRow``, ``runs`` the straights (``Run``),
    ``suits`` the flush tables (``SuitTable``), ``single_key[card index]`` a single's key,
    ``fh_keys`` / ``quad_keys`` full-house and four-of-a-kind keys per rank."""

    __slots__ = (
        "by_size",
        "fh_keys",
        "flush_keys",
        "quad_keys",
        "rows",
        "rules",
        "runs",
        "single_key",
        "straight_of",
        "strength",
        "suits",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        # strength[suit] = position of the suit in suit_order (0 = lowest)
        self.strength = tuple(rules.suit_order.index(SUITS[s]) for s in range(4))
        st = self.strength
        self.single_key = tuple((1 << SIZE_SHIFT) | (i >> 2) * 4 + st[i & 3] for i in range(52))

        # rows[r][nib]: the plays of the cards ``nib`` of rank r (a NibRow).
        rows: list[tuple[NibRow, ...]] = []
        for r in range(13):
            row: list[NibRow] = []
            for nib in range(16):
                groups: list[tuple[FastPlay, ...]] = []
                for k in (1, 2, 3):
                    groups.append(
                        tuple(
                            (
                                sub << (4 * r),
                                (k << SIZE_SHIFT)
                                | r * 4 + max(st[s] for s in range(4) if sub >> s & 1),
                            )
                            for sub in NIB_SUBS[nib][k]
                        )
                    )
                singles, pairs, trips = groups
                small = singles + pairs + (trips if rules.triples else ())
                row.append(
                    NibRow(
                        small,
                        singles,
                        pairs,
                        trips,
                        tuple(m for m, _ in pairs),
                        tuple(m for m, _ in trips),
                        tuple(m for m, _ in singles),
                    )
                )
            rows.append(tuple(row))
        self.rows = tuple(rows)
        self.by_size: tuple[tuple[tuple[tuple[FastPlay, ...], ...], ...], ...] = tuple(
            tuple((row.lead, row.singles, row.pairs, row.trips) for row in rank_rows)
            for rank_rows in rows
        )

        # Straights: for each run, (rank bits, the four other ranks, deciding rank,
        # per nib of the deciding rank: (card, straight key, straight-flush key,
        # the other four cards of that card's suit)).
        self.straight_of: dict[int, tuple[int, int]] = {}
        runs: list[Run] = []
        for index, (ranks, deciding) in enumerate(straight_runs(rules.straights)):
            rbits = _rank_bits(ranks)
            self.straight_of[rbits] = (index, deciding)
            others = tuple(r for r in ranks if r != deciding)
            by_nib: list[tuple[RunCard, ...]] = []
            for nib in range(16):
                entries: list[RunCard] = []
                for s in range(4):
                    if nib >> s & 1:
                        card = 1 << (4 * deciding + s)
                        within = index * 4 + st[s]
                        same_suit = sum(1 << (4 * r + s) for r in others)
                        entries.append(
                            RunCard(
                                card,
                                five_key(STRAIGHT, within),
                                five_key(STRAIGHT_FLUSH, within),
                                same_suit,
                            )
                        )
                by_nib.append(tuple(entries))
            o1, o2, o3, o4 = others
            runs.append(Run(rbits, o1, o2, o3, o4, deciding, tuple(by_nib)))
        self.runs = tuple(runs)

        # Flushes: per suit, clubs-aligned 5-card mask -> key, straight flushes excluded.
        straight_spaced = {_spaced(rbits) for rbits in self.straight_of}
        flush_keys: list[dict[CardMask, PlayKey]] = []
        for s in range(4):
            keys: dict[CardMask, PlayKey] = {}
            for combo in combinations(range(13), 5):
                spaced = sum(1 << (4 * r) for r in combo)
                if spaced in straight_spaced:
                    continue
                ranks_key = 0
                for r in sorted(combo, reverse=True):
                    ranks_key = ranks_key * 13 + r
                if rules.flush_order == "rank-first":
                    within = ranks_key * 4 + st[s]
                else:
                    within = st[s] * 13**5 + ranks_key
                keys[spaced] = five_key(FLUSH, within)
            flush_keys.append(keys)
        self.flush_keys = tuple(flush_keys)
        self.suits = tuple(SuitTable(s, SUIT_MASKS[s], self.flush_keys[s]) for s in range(4))
        self.fh_keys = tuple(five_key(FULL_HOUSE, r) for r in range(13))
        self.quad_keys = tuple(five_key(FOUR_OF_A_KIND, r) for r in range(13))

    def classify(self, mask: CardMask) -> PlayKey | None:
        """The key of a set of cards, or None when it is not a play under these rules."""
        size = mask.bit_count()
        if size == 1:
            return self.single_key[mask.bit_length() - 1]
        if size in (2, 3):
            low = (mask & -mask).bit_length() - 1
            r = low >> 2
            nib = mask >> (4 * r)
            if nib > 15 or (size == 3 and not self.rules.triples):
                return None
            for m, key in self.by_size[r][nib][size]:
                if m == mask:
                    return key
            return None  # pragma: no cover - nib holds exactly ``size`` cards
        if size != 5:
            return None
        counts: dict[int, int] = {}
        suits = 0
        rank_bits = 0
        m = mask
        while m:
            low = m & -m
            i = low.bit_length() - 1
            counts[i >> 2] = counts.get(i >> 2, 0) + 1
            suits |= 1 << (i & 3)
            rank_bits |= 1 << (i >> 2)
            m ^= low
        if len(counts) == 2:
            (r1, c1), (r2, _c2) = counts.items()
            big = r1 if c1 >= 3 else r2
            if max(counts.values()) == 4:
                return self.quad_keys[big]
            return self.fh_keys[big]
        if len(counts) != 5:
            return None
        is_flush = suits & (suits - 1) == 0
        run = self.straight_of.get(rank_bits)
        if run is not None:
            index, deciding = run
            s = (mask >> (4 * deciding) & 15).bit_length() - 1
            within = index * 4 + self.strength[s]
            return five_key(STRAIGHT_FLUSH if is_flush else STRAIGHT, within)
        if is_flush:
            s = suits.bit_length() - 1
            return self.flush_keys[s][mask >> s]
        return None


_TABLES: dict[Rules, Tables] = {}
# The last answer, held with its Rules object: hashing a Rules (11 fields) costs more than
# the whole lookup, and callers mostly ask again with the very same object.
_last: tuple[Rules, Tables] | None = None


def tables_for(rules: Rules) -> Tables:
    """The tables of ``rules``, built once per distinct Rules value."""
    global _last
    last = _last
    if last is not None and last[0] is rules:
        return last[1]
    found = _TABLES.get(rules)
    if found is None:
        found = _TABLES[rules] = Tables(rules)
    _last = (rules, found)
    return found
