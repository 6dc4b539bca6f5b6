"""Hand planning: split a hand into the fewest plays (``plan``), and the facts about plays
a bot reasons with (``beatable``: can any unseen cards answer it).

Plans are computed on bit masks and cached per rules, since bots meet the same hands
again and again in rollouts.
"""

from __future__ import annotations

from games.engine.movegen import small_plays_above
from games.engine.tables import SIZE_SHIFT, Tables

Play = tuple[int, int]
Plan = tuple[Play, ...]

DEUCE_RANK = 12
_CACHE_LIMIT = 400_000
_plans: dict[tuple[int, int], Plan] = {}


def rank_counts(hand: int) -> list[int]:
    return [((hand >> (4 * r)) & 15).bit_count() for r in range(13)]


def size_of(key: int) -> int:
    return key >> SIZE_SHIFT


def low_card_key(t: Tables, mask: int) -> int:
    """The single key of the lowest card of ``mask`` (how "low" a play is)."""
    low = mask & -mask
    nib_shift = ((low.bit_length() - 1) >> 2) * 4
    nib = (mask >> nib_shift) & 15
    keys = t.single_key
    return min(keys[nib_shift + s] for s in range(4) if nib >> s & 1)


def _ordered_suits(t: Tables, nib: int) -> list[int]:
    """The suits present in ``nib``, weakest first under the rules' suit order."""
    st = t.strength
    return sorted((s for s in range(4) if nib >> s & 1), key=lambda s: st[s])


def _small_plan(t: Tables, hand: int) -> list[Play]:
    """Singles, pairs and triples only: each rank as one play where possible."""
    out: list[Play] = []
    rows = t.rows
    triples = t.rules.triples
    for r in range(13):
        nib = (hand >> (4 * r)) & 15
        if not nib:
            continue
        count = nib.bit_count()
        row = rows[r]
        if count == 1 or count == 2 or (count == 3 and triples):
            (play,) = row[nib][count]
            out.append(play)
            continue
        suits = _ordered_suits(t, nib)
        if count == 3:  # triples off: the two strongest as a pair, the weakest alone
            low = 1 << suits[0]
            out.append(row[low][1][0])
            out.append(row[nib ^ low][2][0])
        else:  # four of a rank, not in a five-card hand: two pairs
            low = (1 << suits[0]) | (1 << suits[1])
            out.append(row[low][2][0])
            out.append(row[nib ^ low][2][0])
    return out


def _pick(t: Tables, nib: int, k: int) -> int:
    """The ``k`` weakest cards of a rank nibble."""
    suits = _ordered_suits(t, nib)[:k]
    mask = 0
    for s in suits:
        mask |= 1 << s
    return mask


def five_candidates(t: Tables, hand: int) -> list[Play]:
    """A few representative five-card hands of ``hand``: what a plan may set aside as
    one play. Representatives take the weakest cards of each rank, since how many plays
    the rest of the hand needs depends only on its rank counts."""
    if hand.bit_count() < 5:
        return []
    nibs = [(hand >> (4 * r)) & 15 for r in range(13)]
    counts = [nib.bit_count() for nib in nibs]
    present = 0
    for r in range(13):
        if nibs[r]:
            present |= 1 << r
    classify = t.classify
    seen: set[int] = set()
    out: list[Play] = []

    def add(mask: int) -> None:
        if mask not in seen:
            key = classify(mask)
            if key is not None and key >> SIZE_SHIFT == 5:
                seen.add(mask)
                out.append((mask, key))

    # Straights (and straight flushes): one per run, and one per suit that fills it.
    for run in t.runs:
        rbits = run[0]
        if present & rbits != rbits:
            continue
        ranks = [r for r in range(13) if rbits >> r & 1]
        mask = 0
        for r in ranks:
            mask |= _pick(t, nibs[r], 1) << (4 * r)
        add(mask)
        for s in range(4):
            same = 0
            for r in ranks:
                same |= 1 << (4 * r + s)
            if hand & same == same:
                add(same)
    # Flushes: per suit, the weakest five, and the weakest five preferring lone ranks.
    for s in range(4):
        cards = [r for r in range(13) if nibs[r] >> s & 1]
        if len(cards) < 5:
            continue
        add(sum(1 << (4 * r + s) for r in cards[:5]))
        lone = [r for r in cards if counts[r] == 1]
        rest = [r for r in cards if counts[r] != 1]
        chosen = (lone + rest)[:5]
        add(sum(1 << (4 * r + s) for r in chosen))
    # Full houses: each triple rank with the lowest exact pair, and the lowest pair.
    trips = [r for r in range(13) if counts[r] >= 3]
    if trips:
        for tr in trips:
            pairs = [r for r in range(13) if r != tr and counts[r] >= 2]
            exact = [r for r in pairs if counts[r] == 2]
            for pr in {*(exact[:1]), *(pairs[:1])}:
                add((_pick(t, nibs[tr], 3) << (4 * tr)) | (_pick(t, nibs[pr], 2) << (4 * pr)))
        # Four of a kind with the lowest lone card (or the lowest card) as kicker.
        for qr in (r for r in range(13) if counts[r] == 4):
            lone = [r for r in range(13) if counts[r] == 1]
            others = [r for r in range(13) if r != qr and counts[r]]
            if not others:
                continue
            kr = (lone or others)[0]
            add((15 << (4 * qr)) | (_pick(t, nibs[kr], 1) << (4 * kr)))
    return out


def _score(plan: list[Play]) -> tuple[int, int]:
    singles = sum(1 for _, key in plan if key >> SIZE_SHIFT == 1)
    return (len(plan), singles)


def _plan(t: Tables, hand: int, cache: dict[tuple[int, int], Plan], tid: int) -> Plan:
    found = cache.get((tid, hand))
    if found is not None:
        return found
    best = _small_plan(t, hand)
    best_score = _score(best)
    for five in five_candidates(t, hand):
        rest = _plan(t, hand ^ five[0], cache, tid)
        candidate = [five, *rest]
        score = _score(candidate)
        if score < best_score:
            best, best_score = candidate, score
    result = tuple(best)
    cache[(tid, hand)] = result
    return result


def plan(t: Tables, hand: int) -> Plan:
    """The fewest plays that use the whole hand (then the fewest singles), as
    ``(mask, key)`` pairs. Cached per rules and hand."""
    if len(_plans) > _CACHE_LIMIT:
        _plans.clear()
    return _plan(t, hand, _plans, id(t))


def remember_rest(t: Tables, hand: int, played: int) -> None:
    """After ``played`` (a play of ``plan(hand)``) the rest of that plan stays a plan of
    the rest of the hand: cache it, so rollouts rarely plan from scratch."""
    key = (id(t), hand ^ played)
    if key not in _plans:
        current = plan(t, hand)
        if any(p[0] == played for p in current):
            _plans[key] = tuple(p for p in current if p[0] != played)


def beatable(t: Tables, play: Play, unseen: int, max_other: int) -> bool:
    """Could some hand of unseen cards answer ``play``? ``max_other`` is the most cards
    any opponent still holds (a player with fewer cards than the play cannot answer).
    Five-card hands count as beatable unless they are four of a kind or better."""
    _mask, key = play
    size = key >> SIZE_SHIFT
    if size > max_other:
        return False
    if size == 5:
        return (key >> 22) & 7 < 3
    return bool(small_plays_above(t, unseen, key))
