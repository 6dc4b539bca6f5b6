"""Hand planning: split a hand into the fewest plays (``plan``), and the facts about plays
a bot reasons with (``beatable``: can any unseen cards answer it).

Plans are computed on bit masks and cached per rules, since bots meet the same hands
again and again in rollouts.
"""

from __future__ import annotations

from typing import Final

from pusoy.engine.fast import CardMask, FastPlay, PlayKey, Tables, five_kind, low_rank, play_size
from pusoy.engine.movegen import (
    beats_with_small_play,
    flush_plays,
    four_plays,
    full_house_plays,
    straight_plays,
)
from pusoy.engine.tables import FOUR_OF_A_KIND

Plan = tuple[FastPlay, ...]
"""A split of a hand into plays, as ``(mask, key)`` pairs."""

DEUCE_RANK: Final = 12
_CACHE_LIMIT: Final = 400_000
# One cache per Tables object (one per distinct rules, never freed), keyed by the hand:
# int keys and plans of int pairs, which the cyclic collector stops tracking after one
# look. Keyed by (Tables, hand) pairs instead, every cached plan kept a tracked key, and
# the collections that walk them after a search cost up to 40 ms a move (docs/ai.md).
_plans: dict[Tables, dict[CardMask, Plan]] = {}


def _cache_for(t: Tables) -> dict[CardMask, Plan]:
    cache = _plans.get(t)
    if cache is None:
        cache = _plans[t] = {}
    return cache


def low_card_key(t: Tables, mask: CardMask) -> PlayKey:
    """The single key of the lowest card of ``mask`` (how "low" a play is)."""
    nib_shift = 4 * low_rank(mask)
    nib = (mask >> nib_shift) & 15
    keys = t.single_key
    return min(keys[nib_shift + s] for s in range(4) if nib >> s & 1)


# A plan's score is ``plays * 32 + singles`` (lower is better). For one rank holding
# c cards outside five-card hands: none, a single, a pair, a triple (or, with triples
# off, a pair and a single), two pairs.
_RANK_SCORE = {True: (0, 33, 32, 32, 64), False: (0, 33, 32, 65, 64)}


class _Helper:
    """Per-rules tables for planning: suits weakest first per rank nibble, and the
    small-play score of 16 bits (four ranks) of a hand at once."""

    __slots__ = ("chunk_score", "weak_bits")

    def __init__(self, t: Tables) -> None:
        st = t.strength
        self.weak_bits = tuple(
            tuple(1 << s for s in sorted((s for s in range(4) if nib >> s & 1), key=st.__getitem__))
            for nib in range(16)
        )
        per_rank = _RANK_SCORE[t.rules.triples]
        nib_score = [per_rank[nib.bit_count()] for nib in range(16)]
        self.chunk_score = [
            nib_score[c & 15] + nib_score[c >> 4 & 15] + nib_score[c >> 8 & 15] + nib_score[c >> 12]
            for c in range(1 << 16)
        ]


_helpers: dict[Tables, _Helper] = {}


def _helper(t: Tables) -> _Helper:
    found = _helpers.get(t)
    if found is None:
        found = _helpers[t] = _Helper(t)
    return found


def small_score(h: _Helper, hand: CardMask) -> int:
    cs = h.chunk_score
    return cs[hand & 0xFFFF] + cs[hand >> 16 & 0xFFFF] + cs[hand >> 32 & 0xFFFF] + cs[hand >> 48]


def _small_plan(t: Tables, h: _Helper, hand: CardMask) -> list[FastPlay]:
    """Singles, pairs and triples only: each rank as one play where possible."""
    out: list[FastPlay] = []
    rows = t.by_size
    triples = t.rules.triples
    for r in range(13):
        nib = (hand >> (4 * r)) & 15
        if not nib:
            continue
        count = nib.bit_count()
        row = rows[r]
        if count == 1 or count == 2 or (count == 3 and triples):
            out.append(row[nib][count][0])
            continue
        weak = h.weak_bits[nib]
        if count == 3:  # triples off: the two strongest as a pair, the weakest alone
            out.append(row[weak[0]][1][0])
            out.append(row[nib ^ weak[0]][2][0])
        else:  # four of a rank, not in a five-card hand: two pairs
            low = weak[0] | weak[1]
            out.append(row[low][2][0])
            out.append(row[nib ^ low][2][0])
    return out


def five_candidates(t: Tables, hand: CardMask) -> list[FastPlay]:
    """A few representative five-card hands of ``hand``: what a plan may set aside as
    one play. Representatives take the weakest cards of each rank, since how many plays
    the rest of the hand needs depends only on its rank counts; the engine's builders
    (``movegen.straight_plays`` and friends) make the plays of the cards chosen."""
    if hand.bit_count() < 5:
        return []
    weak = _helper(t).weak_bits
    nibs = [(hand >> (4 * r)) & 15 for r in range(13)]
    present = 0
    for r in range(13):
        if nibs[r]:
            present |= 1 << r
    out: list[FastPlay] = []
    # Straights (and straight flushes): one per run, and one per suit that fills it.
    for rbits, o1, o2, o3, o4, deciding, by_nib in t.runs:
        if present & rbits != rbits:
            continue
        others = (
            weak[nibs[o1]][0] << (4 * o1)
            | weak[nibs[o2]][0] << (4 * o2)
            | weak[nibs[o3]][0] << (4 * o3)
            | weak[nibs[o4]][0] << (4 * o4)
        )
        low = weak[nibs[deciding]][0] << (4 * deciding)
        for run_card in by_nib[nibs[deciding]]:
            # The weakest card with the weakest others; each card with its own suit.
            card, _straight, _straight_flush, same_suit = run_card
            if card == low:
                has_own = hand & same_suit == same_suit and others != same_suit
                fours = [others, same_suit] if has_own else [others]
            elif hand & same_suit == same_suit:
                fours = [same_suit]
            else:
                continue
            out += straight_plays((run_card,), fours)
    # Flushes: per suit, the weakest five, and the weakest five preferring lone ranks.
    for s, suit_mask, keys in t.suits:
        cards = hand & suit_mask
        if cards.bit_count() < 5:
            continue
        ranks = [r for r in range(13) if cards >> (4 * r + s) & 1]
        lone = [r for r in ranks if nibs[r].bit_count() == 1]
        choices = {sum(1 << (4 * r) for r in ranks[:5])}
        choices.add(sum(1 << (4 * r) for r in (lone + [r for r in ranks if r not in lone])[:5]))
        out += flush_plays(s, keys, choices)  # (straight flushes: with the straights)
    # Full houses: each triple rank with the lowest exact pair, and the lowest pair.
    trips = [r for r in range(13) if nibs[r].bit_count() >= 3]
    if trips:
        pairs = [r for r in range(13) if nibs[r].bit_count() >= 2]
        exact = [r for r in pairs if nibs[r].bit_count() == 2]
        for tr in trips:
            tw = weak[nibs[tr]]
            three = (tw[0] | tw[1] | tw[2]) << (4 * tr)
            tried = set()
            for pr in (
                next((r for r in exact if r != tr), None),
                next((r for r in pairs if r != tr), None),
            ):
                if pr is None or pr in tried:
                    continue
                tried.add(pr)
                pw = weak[nibs[pr]]
                out += full_house_plays(t.fh_keys[tr], (three,), ((pw[0] | pw[1]) << (4 * pr),))
            if nibs[tr] == 15:  # four of a kind with the lowest lone card (or lowest card)
                rest = [r for r in range(13) if r != tr and nibs[r]]
                if rest:
                    lone_ranks = [r for r in rest if nibs[r].bit_count() == 1]
                    kr = (lone_ranks or rest)[0]
                    out += four_plays(t, tr, weak[nibs[kr]][0] << (4 * kr))
    return out


def _best(
    t: Tables, h: _Helper, hand: CardMask, memo: dict[CardMask, tuple[int, Plan]]
) -> tuple[int, Plan]:
    """(score, five-card plays) of the best plan of ``hand``; the rest is ``_small_plan``."""
    found = memo.get(hand)
    if found is not None:
        return found
    best: tuple[int, Plan] = (small_score(h, hand), ())
    for five in five_candidates(t, hand):
        score, fives = _best(t, h, hand ^ five[0], memo)
        if score + 32 < best[0]:
            best = (score + 32, (five, *fives))
    memo[hand] = best
    return best


def plan(t: Tables, hand: CardMask) -> Plan:
    """The fewest plays that use the whole hand (then the fewest singles), as
    ``(mask, key)`` pairs, five-card hands first. Cached per rules and hand."""
    cache = _cache_for(t)
    found = cache.get(hand)
    if found is not None:
        return found
    if len(cache) > _CACHE_LIMIT:
        cache.clear()
    h = _helper(t)
    _score, fives = _best(t, h, hand, {})
    rest = hand
    for mask, _key in fives:
        rest ^= mask
    result = (*fives, *_small_plan(t, h, rest))
    cache[hand] = result
    return result


def clear_plan_cache() -> None:
    """Forget every cached plan (benchmarks: time planning from cold)."""
    _plans.clear()


def rank_cost(t: Tables, hand: CardMask, play: FastPlay) -> int:
    """How many more plays the small part of ``hand`` needs after ``play`` (a single,
    pair or triple of one rank) than before, counting ``play`` itself: 0 when it is
    one of the plan's plays or comes out of four of a kind, 1 when it breaks a rank."""
    per_rank = _RANK_SCORE[t.rules.triples]
    mask = play[0]
    r = low_rank(mask)
    c = ((hand >> (4 * r)) & 15).bit_count()
    k = mask.bit_count()
    return (per_rank[c - k] >> 5) + 1 - (per_rank[c] >> 5)


def remember_rest(t: Tables, hand: CardMask, played: CardMask) -> None:
    """After ``played`` (a play of ``plan(hand)``) the rest of that plan stays a plan of
    the rest of the hand: cache it, so rollouts rarely plan from scratch."""
    rest = hand ^ played
    cache = _cache_for(t)
    if rest not in cache:
        current = plan(t, hand)
        if any(p[0] == played for p in current):
            cache[rest] = tuple(p for p in current if p[0] != played)


def beatable(t: Tables, play: FastPlay, unseen: CardMask, max_other: int) -> bool:
    """Could some hand of unseen cards answer ``play``? ``max_other`` is the most cards
    any opponent still holds (a player with fewer cards than the play cannot answer).
    Five-card hands count as beatable unless they are four of a kind or better."""
    _mask, key = play
    size = play_size(key)
    if size > max_other:
        return False
    if size == 5:
        return five_kind(key) < FOUR_OF_A_KIND
    return beats_with_small_play(t, unseen, key)
