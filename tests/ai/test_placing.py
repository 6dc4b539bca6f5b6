"""Places in arena deals (``pusoy.ai.placing``), placed as the lobby's ratings place
them, and their intervals."""

from __future__ import annotations

import math
import random

import pytest

from pusoy.ai.arena import DealOutcome
from pusoy.ai.placing import (
    head_to_head,
    mean_place,
    paired_place_difference,
    place_stats,
    share_above,
)
from pusoy.engine import scoring
from pusoy.engine.scoring import deal_ranks, places_by_cards_left
from ratings import system

SEATS = ("candidate", "member", "member", "member")


def outcome(
    index: int, winner: int, cards_left: tuple[int, ...], places: tuple[int, ...] = ()
) -> DealOutcome:
    """A deal with the candidate in seat 0; ``places`` as the engine gives them."""
    return DealOutcome(
        index=index,
        levels=SEATS,
        winner=winner,
        points=(0, 0, 0, 0),
        move_seconds={},
        cards_left=cards_left,
        places=places or tuple(places_by_cards_left(winner, cards_left)),
        payments=(0, 0, 0, 0),
    )


def test_the_ratings_place_deals_by_the_engines_function() -> None:
    # One definition: the league's places cannot drift from the rated ones.
    assert system.deal_ranks is scoring.deal_ranks


def test_losers_tie_on_equal_cards_and_the_next_count_takes_the_next_place() -> None:
    assert deal_ranks(winner=1, cards_left=[4, 0, 4, 9], places=[1, 0, 2, 3], play_out=False) == [
        2,
        1,
        2,
        3,
    ]
    assert deal_ranks(winner=3, cards_left=[6, 6, 6, 0], places=[3, 0, 1, 2], play_out=False) == [
        2,
        2,
        2,
        1,
    ]


def test_with_play_out_the_finishing_order_counts_not_the_cards() -> None:
    # Seat 0 held the most cards when seat 2 went out, yet went out second.
    assert deal_ranks(winner=2, cards_left=[9, 3, 0, 5], places=[2, 0, 3, 1], play_out=True) == [
        2,
        4,
        1,
        3,
    ]


def test_ranks_agree_with_the_engines_finishing_order_on_many_deals() -> None:
    """On random deals without play-out: the winner alone is first, places follow the
    engine's order (``places_by_cards_left``), seats tie exactly when their cards do,
    and places run without gaps from 1."""
    rng = random.Random(7)
    for _ in range(2000):
        n = rng.choice((2, 3, 4))
        winner = rng.randrange(n)
        cards_left = [0 if s == winner else rng.randint(1, 13) for s in range(n)]
        order = places_by_cards_left(winner, cards_left)
        ranks = deal_ranks(winner=winner, cards_left=cards_left, places=order, play_out=False)
        assert ranks[winner] == 1
        assert ranks.count(1) == 1
        assert [ranks[s] for s in order] == sorted(ranks)
        for a in range(n):
            for b in range(n):
                assert (ranks[a] == ranks[b]) == (cards_left[a] == cards_left[b])
        assert set(ranks) == set(range(1, max(ranks) + 1))
        # played out, the finishing order is the places one by one
        played = deal_ranks(winner=winner, cards_left=cards_left, places=order, play_out=True)
        assert [played[s] for s in order] == list(range(1, n + 1))


def test_a_deals_place_and_share_above_count_ties_half() -> None:
    deal = outcome(0, winner=1, cards_left=(4, 0, 4, 9))  # candidate ties seat 2
    assert mean_place(deal, "candidate", play_out=False) == 2
    assert share_above(deal, "candidate", play_out=False) == pytest.approx((0 + 0.5 + 1) / 3)
    won = outcome(1, winner=0, cards_left=(0, 3, 3, 3))
    assert (
        mean_place(won, "candidate", play_out=False),
        share_above(won, "candidate", play_out=False),
    ) == (1, 1)
    last = outcome(2, winner=3, cards_left=(8, 6, 6, 0))
    assert (
        mean_place(last, "candidate", play_out=False),
        share_above(last, "candidate", play_out=False),
    ) == (3, 0)
    # played out, the same cards place by the order the seats went out
    played = outcome(3, winner=3, cards_left=(8, 6, 6, 0), places=(3, 0, 1, 2))
    assert mean_place(played, "candidate", play_out=True) == 2
    assert share_above(played, "candidate", play_out=True) == pytest.approx(2 / 3)


def test_the_intervals_are_normal_intervals_over_deals_held_to_what_can_be() -> None:
    # the candidate placed 1, 2, 3 and 4 (no ties): shares above 1, 2/3, 1/3, 0
    deals = [
        outcome(0, winner=0, cards_left=(0, 2, 5, 9)),
        outcome(1, winner=1, cards_left=(2, 0, 5, 9)),
        outcome(2, winner=1, cards_left=(5, 0, 2, 9)),
        outcome(3, winner=1, cards_left=(9, 0, 2, 5)),
    ]
    stats = place_stats(deals, "candidate", play_out=False)
    half = 1.96 * math.sqrt((1.5**2 + 0.5**2 + 0.5**2 + 1.5**2) / 3 / 4)
    assert stats.deals == 4
    assert stats.place == 2.5
    assert stats.place_ci == pytest.approx((2.5 - half, 2.5 + half))
    assert stats.above == pytest.approx(0.5)
    assert stats.above_ci == pytest.approx((0.5 - half / 3, 0.5 + half / 3))
    # three wins and a last place: the normal interval would reach below place 1
    lopsided = place_stats([deals[0]] * 3 + [deals[3]], "candidate", play_out=False)
    assert lopsided.place == 1.75
    assert lopsided.place_ci[0] == 1.0
    assert lopsided.above_ci[1] == 1.0


def test_the_paired_difference_is_over_the_deals_both_runs_played() -> None:
    better = [outcome(i, winner=0, cards_left=(0, 2, 5, 9)) for i in range(3)]
    worse = [outcome(i, winner=1, cards_left=(9, 0, 2, 5)) for i in range(1, 5)]
    difference = paired_place_difference(better, worse, "candidate", play_out=False)
    assert difference.deals == 2  # deals 1 and 2
    assert difference.above == 1
    assert difference.above_ci == (1, 1)


def test_head_to_head_is_one_label_against_another_at_the_same_tables() -> None:
    def table(index: int, winner: int, cards_left: tuple[int, ...]) -> DealOutcome:
        return DealOutcome(
            index=index,
            levels=("a", "b", "c", "d"),
            winner=winner,
            points=(0, 0, 0, 0),
            move_seconds={},
            cards_left=cards_left,
            places=tuple(places_by_cards_left(winner, cards_left)),
            payments=(0, 0, 0, 0),
        )

    deals = [
        table(0, winner=0, cards_left=(0, 5, 5, 5)),  # a above b
        table(1, winner=3, cards_left=(7, 7, 1, 0)),  # a ties b
        table(2, winner=2, cards_left=(9, 3, 0, 4)),  # b above a
        table(3, winner=1, cards_left=(2, 0, 1, 6)),  # b above a, c between them
    ]
    above, (low, high) = head_to_head(deals, "a", "b", play_out=False)
    assert above == pytest.approx((1 + 0.5 + 0 + 0) / 4)
    assert 0 <= low < above < high <= 1
    assert head_to_head(deals, "b", "a", play_out=False)[0] == pytest.approx(1 - above)
    # against everyone else, as share_above counts it, the other seats count too
    assert share_above(deals[3], "a", play_out=False) == pytest.approx(1 / 3)
    assert share_above(deals[3], "a", play_out=False, other="d") == 1
    # paired against itself with b and a swapped: a above b in deal 0 only, where the
    # swapped deal has b above a, so that deal differs by a whole seat
    swapped = [
        table(0, winner=1, cards_left=(5, 0, 5, 5)),
        *deals[1:],
    ]
    difference = paired_place_difference(deals, swapped, "a", play_out=False, other="b")
    assert difference.deals == 4
    assert difference.above == pytest.approx(1 / 4)
    # against every opponent: above all three, then below b and tied with c and d
    everyone = paired_place_difference(deals, swapped, "a", play_out=False)
    assert everyone.above == pytest.approx((1 - 1 / 3) / 4)
