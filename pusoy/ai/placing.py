"""A bot's places in arena deals, placed as the lobby's ratings place them
(``pusoy.engine.scoring.deal_ranks``: the winner 1st, the others by cards left, equal
counts tying, or the real finishing order with ``play_out``), with 95% intervals.

Deals won see only the winner and payments mostly the stakes; the ratings see every
seat's place, so a change that loses more cards without losing more deals shows here
first. Used by the league (``pusoy.ai.league``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pusoy.ai.arena import DealOutcome, mean_ci
from pusoy.engine.scoring import deal_ranks


def outcome_ranks(outcome: DealOutcome, *, play_out: bool) -> list[int]:
    """Each seat's place in the deal (1 = best)."""
    return deal_ranks(
        winner=outcome.winner,
        cards_left=outcome.cards_left,
        places=outcome.places,
        play_out=play_out,
    )


def _ranks_split(
    outcome: DealOutcome, label: str, *, play_out: bool, other: str | None = None
) -> tuple[list[int], list[int]]:
    """The places of the seats ``label`` played, and of the others (or only ``other``'s)."""
    ranks = outcome_ranks(outcome, play_out=play_out)
    seated = list(zip(ranks, outcome.levels, strict=True))
    return [r for r, by in seated if by == label], [
        r for r, by in seated if by != label and other in (None, by)
    ]


def mean_place(outcome: DealOutcome, label: str, *, play_out: bool) -> float:
    """The mean place of the seats ``label`` played in the deal."""
    own, _ = _ranks_split(outcome, label, play_out=play_out)
    return sum(own) / len(own)


def share_above(
    outcome: DealOutcome, label: str, *, play_out: bool, other: str | None = None
) -> float:
    """Of the pairs (a seat ``label`` played, a seat someone else played: ``other`` when
    named), the share in which ``label``'s seat placed better; a tie counts half."""
    own, others = _ranks_split(outcome, label, play_out=play_out, other=other)
    score = sum(1.0 if a < b else 0.5 if a == b else 0.0 for a in own for b in others)
    return score / (len(own) * len(others))


def _bounded(ci: tuple[float, float], low: float, high: float) -> tuple[float, float]:
    # A normal interval over few deals may reach past what a place or a share can be.
    return (max(low, ci[0]), min(high, ci[1]))


@dataclass(frozen=True)
class PlaceStats:
    """One label's places over some deals; the deal is the sample (the three opponent
    seats of one deal are not independent trials, so no binomial interval)."""

    deals: int
    place: float  # mean place, 1 best
    place_ci: tuple[float, float]
    above: float  # share of opponent seats placed above, ties half; fair 0.5
    above_ci: tuple[float, float]


def place_stats(outcomes: Sequence[DealOutcome], label: str, *, play_out: bool) -> PlaceStats:
    seats = max((len(o.levels) for o in outcomes), default=4)
    place, place_ci = mean_ci([mean_place(o, label, play_out=play_out) for o in outcomes])
    above, above_ci = mean_ci([share_above(o, label, play_out=play_out) for o in outcomes])
    return PlaceStats(
        deals=len(outcomes),
        place=place,
        place_ci=_bounded(place_ci, 1.0, float(seats)),
        above=above,
        above_ci=_bounded(above_ci, 0.0, 1.0),
    )


def head_to_head(
    outcomes: Sequence[DealOutcome], label: str, other: str, *, play_out: bool
) -> tuple[float, tuple[float, float]]:
    """How often ``label`` placed above ``other`` at the same table (ties half), with a
    95% interval over deals: a rating orders two bots by this, whoever else sat there."""
    above, above_ci = mean_ci(
        [share_above(o, label, play_out=play_out, other=other) for o in outcomes]
    )
    return above, _bounded(above_ci, 0.0, 1.0)


@dataclass(frozen=True)
class PlaceDifference:
    """Run ``a`` minus run ``b`` on the deals both played, in the share of opponent
    seats ``label`` placed above (a fraction: 0.01 is a point)."""

    deals: int
    above: float
    above_ci: tuple[float, float]


def paired_place_difference(
    a: Sequence[DealOutcome],
    b: Sequence[DealOutcome],
    label: str,
    *,
    play_out: bool,
    other: str | None = None,
) -> PlaceDifference:
    """Paired deal by deal, as ``arena.pooled_differences`` pairs deals won and payment:
    the luck of the cards is the same on both sides and cancels. With ``other``, the
    share of ``other``'s seats placed above (``head_to_head``), not of every opponent's."""
    by_index = {o.index: o for o in b}
    differences = [
        share_above(x, label, play_out=play_out, other=other)
        - share_above(by_index[x.index], label, play_out=play_out, other=other)
        for x in a
        if x.index in by_index
    ]
    above, above_ci = mean_ci(differences)
    return PlaceDifference(len(differences), above, above_ci)
