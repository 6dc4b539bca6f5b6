"""Legal-play generation on bit masks: the hot path of self-play and the AI.

``legal_plays(tables, hand, beat_key, required)`` lists every distinct legal play of a
hand as ``(mask, key)`` pairs (see ``tables``). ``beat_key`` is -1 on lead (any shape),
else the key of the play to beat; ``required`` is the mask of a card the play must
include (the opening card on the first play), or 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from pusoy.engine.tables import (
    FULL_HOUSE,
    KIND_SHIFT,
    SHIFTS,
    SIZE_SHIFT,
    STRAIGHT_FLUSH,
    CardMask,
    FastPlay,
    PlayKey,
    RunCard,
    Tables,
    five_key,
    five_subsets,
)

Plays = list[FastPlay]

_FLUSH_MIN: Final = five_key(1, 0)  # lowest possible flush key
_FULL_HOUSE_MIN: Final = five_key(FULL_HOUSE, 0)
_STRAIGHT_FLUSH_MIN: Final = five_key(STRAIGHT_FLUSH, 0)


def legal_plays(t: Tables, hand: CardMask, beat_key: PlayKey, required: CardMask = 0) -> Plays:
    if beat_key < 0:
        plays = lead_plays(t, hand)
    elif beat_key >> SIZE_SHIFT == 5:
        plays = five_card_plays(t, hand, [(hand >> s) & 15 for s in SHIFTS], beat_key)
        plays = [p for p in plays if p[1] > beat_key]
    else:
        plays = small_plays_above(t, hand, beat_key)
    if required:
        plays = [p for p in plays if p[0] & required]
    return plays


def lead_plays(t: Tables, hand: CardMask) -> Plays:
    """Every play of the hand: singles, pairs, triples and five-card hands."""
    out: Plays = []
    nibs = [(hand >> s) & 15 for s in SHIFTS]
    for row, nib in zip(t.rows, nibs, strict=True):
        if nib:
            out += row[nib].lead
    if hand.bit_count() >= 5:
        out += five_card_plays(t, hand, nibs, -1)
    return out


def small_plays_above(t: Tables, hand: CardMask, beat_key: PlayKey) -> Plays:
    """Singles, pairs or triples (the size of ``beat_key``) that beat it."""
    size = beat_key >> SIZE_SHIFT
    rank = (beat_key & ((1 << SIZE_SHIFT) - 1)) >> 2
    if size == 3 and not t.rules.triples:
        return []
    out: Plays = []
    rows = t.by_size
    nib = (hand >> (4 * rank)) & 15
    if nib:
        out += [p for p in rows[rank][nib][size] if p[1] > beat_key]
    hand >>= 4 * rank + 4
    rank += 1
    while hand:
        nib = hand & 15
        if nib:
            out += rows[rank][nib][size]
        hand >>= 4
        rank += 1
    return out


def beats_with_small_play(t: Tables, hand: CardMask, beat_key: PlayKey) -> bool:
    """Whether ``hand`` holds a single, pair or triple (the size of ``beat_key``) that
    beats it: ``bool(small_plays_above(...))`` without building the plays (the bots ask
    this of every play they plan, in every rollout step)."""
    size = beat_key >> SIZE_SHIFT
    rank = (beat_key & ((1 << SIZE_SHIFT) - 1)) >> 2
    if size == 3 and not t.rules.triples:
        return False
    rows = t.by_size
    nib = (hand >> (4 * rank)) & 15
    if nib:
        for p in rows[rank][nib][size]:
            if p[1] > beat_key:
                return True
    hand >>= 4 * rank + 4
    rank += 1
    while hand:
        nib = hand & 15
        if nib and rows[rank][nib][size]:
            return True
        hand >>= 4
        rank += 1
    return False


def five_card_plays(t: Tables, hand: CardMask, nibs: list[int], beat_key: PlayKey) -> Plays:
    """Five-card hands of the hand; types that cannot beat ``beat_key`` are skipped
    (the caller still filters by key)."""
    out: Plays = []
    rows = t.rows
    # Straights and straight flushes.
    present = 0
    for r, nib in enumerate(nibs):
        if nib:
            present |= 1 << r
    if beat_key < _FLUSH_MIN:
        for rbits, o1, o2, o3, o4, deciding, by_nib in t.runs:
            if present & rbits == rbits:
                aa = rows[o1][nibs[o1]].single_masks
                bb = rows[o2][nibs[o2]].single_masks
                cc = rows[o3][nibs[o3]].single_masks
                dd = rows[o4][nibs[o4]].single_masks
                fours = [a | b | c | d for a in aa for b in bb for c in cc for d in dd]
                out += straight_plays(by_nib[nibs[deciding]], fours)
    else:  # only straight flushes can still win
        for rbits, _o1, _o2, _o3, _o4, deciding, by_nib in t.runs:
            if present & rbits == rbits:
                for card, _straight, straight_flush, same_suit in by_nib[nibs[deciding]]:
                    if hand & same_suit == same_suit:
                        out.append((card | same_suit, straight_flush))
    if beat_key < _FULL_HOUSE_MIN:
        for s, suit_mask, keys in t.suits:
            cards = hand & suit_mask
            if cards.bit_count() >= 5:
                out += flush_plays(s, keys, five_subsets(cards >> s))
    if beat_key < _STRAIGHT_FLUSH_MIN:
        pairs = []
        trips = []
        for r, nib in enumerate(nibs):
            if nib:
                row = rows[r][nib]
                if row.pair_masks:
                    pairs.append((r, row.pair_masks))
                    if row.trip_masks:
                        trips.append((r, row.trip_masks))
                        if nib == 15:
                            out += four_plays(t, r, hand ^ (15 << (4 * r)))
        if beat_key >> KIND_SHIFT <= (5 << (SIZE_SHIFT - KIND_SHIFT)) | FULL_HOUSE:
            fh_keys = t.fh_keys
            for tr, tmasks in trips:
                key = fh_keys[tr]
                for pr, pmasks in pairs:
                    if pr != tr:
                        out += full_house_plays(key, tmasks, pmasks)
    return out


# Builders of five-card plays from chosen cards: ``five_card_plays`` gives them every
# choice; a planner (``pusoy.ai.plan.five_candidates``) gives them a few representatives.


def straight_plays(run_cards: Iterable[RunCard], fours: Sequence[CardMask]) -> Plays:
    """The straights of each deciding card of a run with each of ``fours`` (one card of
    each other rank of the run): a straight flush where those are the card's suit."""
    out: Plays = []
    for card, straight, straight_flush, same_suit in run_cards:
        out += [(card | m, straight_flush if m == same_suit else straight) for m in fours]
    return out


def flush_plays(suit: int, keys: dict[CardMask, PlayKey], spaced: Iterable[CardMask]) -> Plays:
    """The flushes among ``spaced`` (5-card clubs-aligned masks, ``SuitTable.flush_keys``
    of ``suit``); straight-flush patterns have no key there and are left out."""
    return [(m << suit, keys[m]) for m in spaced if m in keys]


def four_plays(t: Tables, rank: int, kickers: CardMask) -> Plays:
    """Four of a kind of ``rank`` with each card of ``kickers`` (none of that rank)."""
    quad = 15 << (4 * rank)
    key = t.quad_keys[rank]
    out: Plays = []
    while kickers:
        low = kickers & -kickers
        out.append((quad | low, key))
        kickers ^= low
    return out


def full_house_plays(
    key: PlayKey, trip_masks: Iterable[CardMask], pair_masks: Sequence[CardMask]
) -> Plays:
    """Each three of one rank with each pair of another, all with the triple's ``key``."""
    return [(a | b, key) for a in trip_masks for b in pair_masks]
