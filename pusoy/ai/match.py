"""Playing for the match: what a deal's outcome is worth when the game is a match.

A match is won on the scores after its last deal (a number of deals, or a target score
that ends it). Far from the end, every point counts about the same and playing for the
deal's expected points is right; near it, only the final order counts: a seat ahead
protects its lead, a seat behind takes the risks that may turn the match.

``match_value`` estimates the chance that a seat wins the match from the standing after
a deal: exactly (1 or 0) when the match ends with that deal; otherwise the chance that
it finishes ahead of every opponent when each seat's points still to come are normal,
independent, with a spread that grows with the square root of the deals to come. With
many deals left it is nearly linear in the points, so the search plays for points as
before; the closer the end, the more it plays for the order.

``seat_stance`` is the heuristic's cheap version: in a deal that may end the match under the
``cards-left`` systems, a seat ahead sheds its cards from the start (``PROTECT``) and a
seat too far behind for shedding to help never sheds (``CHASE``: only going out first
can turn it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Final

from pusoy.engine.match import MatchStanding, match_order
from pusoy.engine.scoring import higher_score_wins

NORMAL: Final = 0
CHASE: Final = 1
PROTECT: Final = 2

# Per scoring and player count (3 or 4), measured over 3,000 deals of four (three)
# heuristics (``python -m benchmarks.strength.per_deal``, 2026-12-06: the heuristic of
# today, whose shedding under the tiered scoring leaves more cards than it did): (the
# standard deviation of one seat's deal points minus another's, a seat's mean points per
# deal: how fast scores approach a target).
PER_DEAL = {
    ("deuces-double", 4): (1.09, 0.33),
    ("deuces-double", 3): (1.72, 0.53),
    ("cards-left", 4): (4.43, 3.25),
    ("cards-left", 3): (5.72, 3.52),
    ("cards-left-tiered", 4): (7.31, 3.89),
    ("cards-left-tiered", 3): (10.25, 4.87),
}
# Under the cards-left systems, what a deal can cost one seat at most (13 cards; 26
# under the tiered one when 10 or more are left): a match with a score this close to
# its target may end in the deal in play.
MOST_PER_DEAL = {"cards-left": 13, "cards-left-tiered": 39}
# CHASE below this deficit: a leader pays about this many cards when another seat goes
# out, so a deficit larger than that is turned only by going out first.
CHASE_DEFICIT: Final = 6


_LUCK = [NormalDist().inv_cdf((i + 0.5) / 16) for i in range(16)]
_HALF_SQRT2 = math.sqrt(0.5)


def _key(scoring: str, players: int) -> tuple[str, int]:
    return scoring, 4 if players >= 4 else 3


def deal_spread(scoring: str, players: int) -> float:
    """The spread of one seat's deal points minus another's (``PER_DEAL``)."""
    return PER_DEAL[_key(scoring, players)][0]


def deals_to_come(standing: MatchStanding, scoring: str) -> float:
    """About how many deals the match still has after ``standing`` (at least 1)."""
    left = math.inf if standing.deals_left is None else float(standing.deals_left)
    if standing.target_score is not None:
        _spread, gain = PER_DEAL[_key(scoring, len(standing.scores))]
        left = min(left, (standing.target_score - max(standing.scores)) / gain)
    return max(1.0, left)


def match_value(
    standing: MatchStanding, scoring: str, seat: int, points: Sequence[int], winner: int
) -> float:
    """The chance, about, that ``seat`` wins the match once the deal in play ends with
    ``points`` per seat and ``winner`` out first."""
    after = standing.after(points, winner)
    if standing.ends_with(points):
        return 1.0 if match_order(after.scores, after.deals_won, scoring)[0] == seat else 0.0
    sign = 1 if higher_score_wins(scoring) else -1
    # Each seat's points still to come: independent, normal, with a seat's share of the
    # spread of a difference (/ sqrt 2) per deal. The chance to finish first is
    # averaged over this seat's own luck (``_LUCK``: quantiles of a standard normal).
    spread, _gain = PER_DEAL[_key(scoring, len(points))]
    scale = spread * math.sqrt(deals_to_come(after, scoring) / 2)
    mine = after.scores[seat]
    margins = [sign * (mine - score) / scale for s, score in enumerate(after.scores) if s != seat]
    total = 0.0
    for luck in _LUCK:
        chance = 1.0
        for margin in margins:
            chance *= 0.5 * (1.0 + math.erf((margin + luck) * _HALF_SQRT2))
        total += chance
    return total / len(_LUCK)


def _deciding(standing: MatchStanding, scoring: str) -> bool:
    """Whether the deal in play may end the match (a ``cards-left`` system)."""
    if standing.deals_left == 1:
        return True
    if standing.target_score is None:
        return False
    return max(standing.scores) + MOST_PER_DEAL[scoring] >= standing.target_score


def seat_stance(standing: MatchStanding | None, scoring: str, seat: int) -> int:
    """How the heuristic plays ``seat``'s deal for the match (module doc)."""
    if standing is None or scoring not in MOST_PER_DEAL or not _deciding(standing, scoring):
        return NORMAL
    mine = standing.scores[seat]
    best_other = min(s for i, s in enumerate(standing.scores) if i != seat)
    lead = best_other - mine  # penalties: fewer is better
    if lead > 0:
        return PROTECT
    if lead < -CHASE_DEFICIT:
        return CHASE
    return NORMAL


def stances(standing: MatchStanding | None, scoring: str, players: int) -> tuple[int, ...]:
    """Every seat's stance (the scores are public, so the expert models its opponents')."""
    return tuple(seat_stance(standing, scoring, s) for s in range(players))
