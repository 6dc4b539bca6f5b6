"""Deal scoring (docs/rules.md "Scoring"): ``deuces-double``, ``cards-left``, ``cards-left-tiered``.

Points are counted at the moment the first player goes out, also with ``play_out``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pusoy.engine.rules import Rules
from pusoy.engine.tables import DEUCES_MASK


def higher_score_wins(scoring: str) -> bool:
    """Whether the match goes to the most points (``deuces-double``: points are won) or
    to the fewest (the ``cards-left`` systems: points are penalties)."""
    return scoring == "deuces-double"


def deal_points(
    rules: Rules,
    winner: int,
    final_play: int,
    cards_left: Sequence[int],
    cards_dealt: Sequence[int],
) -> list[int]:
    """Points of each seat for one deal.

    - ``deuces-double``: only the winner scores, 1 doubled for each 2 in ``final_play``
      (a card mask): 1, 2, 4, 8, 16.
    - ``cards-left``: every other seat scores its cards left; the winner 0.
    - ``cards-left-tiered``: as ``cards-left``, but 10 or more cards left score double
      and a seat that has not played a single card scores triple.
    """
    if rules.scoring == "deuces-double":
        points = [0] * len(cards_left)
        points[winner] = 1 << (final_play & DEUCES_MASK).bit_count()
        return points
    tiered = rules.scoring == "cards-left-tiered"
    points = []
    for seat, left in enumerate(cards_left):
        if seat == winner:
            points.append(0)
        elif tiered and left == cards_dealt[seat]:
            points.append(3 * left)
        elif tiered and left >= 10:
            points.append(2 * left)
        else:
            points.append(left)
    return points


def places_by_cards_left(winner: int, cards_left: Sequence[int]) -> list[int]:
    """Finishing order without ``play_out``: the winner, then fewest cards left first;
    equal counts in turn order after the winner."""
    n = len(cards_left)
    others = [s for s in range(n) if s != winner]
    others.sort(key=lambda s: (cards_left[s], (s - winner) % n))
    return [winner, *others]


def deal_ranks(
    *, winner: int, cards_left: Sequence[int], places: Sequence[int], play_out: bool
) -> list[int]:
    """Each seat's place in a deal (1 = best), as rated games place it (ratings.system
    rates by this very function, and the league reports it, so the two cannot drift).
    With ``play_out`` the deal is played to the end and ``places`` is the real order;
    otherwise only the winner went out, and the others are placed by the cards they
    were left with: equal counts tie, and the next count takes the next place (so with
    a tie the last place is below 4)."""
    if play_out:
        return [places.index(seat) + 1 for seat in range(len(cards_left))]
    others = sorted({n for seat, n in enumerate(cards_left) if seat != winner})
    return [1 if seat == winner else 2 + others.index(n) for seat, n in enumerate(cards_left)]


def deal_payments(rules: Rules, winner: int, points: Sequence[int]) -> list[int]:
    """The deal settled as zero-sum payments: each loser pays the winner what it owes.

    Under ``deuces-double`` every loser owes the winner's score; under the ``cards-left``
    systems each loser owes its own penalty. The payments sum to zero.

    >>> deal_payments(Rules.from_spec("philippine"), 2, [0, 0, 4, 0])
    [-4, -4, 12, -4]
    >>> cards_left = Rules.from_spec({"preset": "hong-kong", "scoring": "cards-left"})
    >>> deal_payments(cards_left, 0, [0, 5, 1, 13])
    [19, -5, -1, -13]
    """
    if rules.scoring == "deuces-double":
        stake = points[winner]
        return [
            stake * (len(points) - 1) if seat == winner else -stake for seat in range(len(points))
        ]
    owed = [0 if seat == winner else points[seat] for seat in range(len(points))]
    return [sum(owed) if seat == winner else -owed[seat] for seat in range(len(points))]
