"""The rating arithmetic (no database): places from a deal, and openskill's updates."""

from __future__ import annotations

import itertools
import random

import pytest

from pusoy.ai import LEVELS
from ratings.bot_calibration import CALIBRATED
from ratings.system import Skill, deal_ranks, rate, rate_fixed


def test_without_play_out_the_others_are_placed_by_cards_left_and_ties_share_a_place():
    assert deal_ranks(winner=2, cards_left=[5, 3, 0, 5], places=[2, 1, 0, 3], play_out=False) == [
        3,
        2,
        1,
        3,
    ]


def test_with_play_out_the_real_finishing_order_counts():
    assert deal_ranks(winner=2, cards_left=[5, 3, 0, 5], places=[2, 3, 0, 1], play_out=True) == [
        3,
        4,
        1,
        2,
    ]


def test_the_winner_gains_the_last_loses_and_uncertainty_shrinks():
    before = [Skill()] * 4
    after = rate(before, [1, 2, 3, 4])
    assert after[0].mu > before[0].mu > after[3].mu
    assert [a.mu for a in after] == sorted((a.mu for a in after), reverse=True)
    assert all(a.sigma < b.sigma for a, b in zip(after, before, strict=True))


def test_beating_a_stronger_entrant_gains_more():
    strong, equal = Skill(mu=35, sigma=3), Skill()
    gain_vs_strong = rate([Skill(), strong], [1, 2])[0].mu - Skill().mu
    gain_vs_equal = rate([Skill(), equal], [1, 2])[0].mu - Skill().mu
    assert gain_vs_strong > gain_vs_equal > 0


@pytest.mark.parametrize(("mu", "sigma", "display"), [(25, 25 / 3, 0.0), (30, 2, 24.0)])
def test_display_is_the_conservative_estimate(mu, sigma, display):
    assert Skill(mu=mu, sigma=sigma).display == display


def test_the_stored_calibration_ranks_the_levels_in_their_order_of_strength():
    # A player picks an opponent by its rating: the calibration must not rate a weaker
    # level above a stronger one (docs/ai.md "Ratings of the levels").
    assert list(CALIBRATED) == list(LEVELS)
    mus = [CALIBRATED[level][0] for level in LEVELS]
    assert all(weaker < stronger for weaker, stronger in itertools.pairwise(mus))


def _deals(strengths: dict[str, float], count: int, rng: random.Random):
    """Deals of four fixed entrants, seats shuffled, finishing order drawn as a
    Plackett-Luce model draws it (each next place in proportion to strength)."""
    for _ in range(count):
        names = list(strengths)
        rng.shuffle(names)
        left, ranks = list(range(4)), [0] * 4
        for place in range(1, 5):
            seat = rng.choices(left, weights=[strengths[names[i]] for i in left])[0]
            ranks[seat] = place
            left.remove(seat)
        yield names, ranks


def test_fixed_entrants_are_rated_sharper_the_more_deals_they_play():
    # The calibration of the bots: with the drift of rated games, a long run is no
    # sharper than a short one (sigma levels off); without it, it is, and averaging
    # over orders of the deals makes the order they came in not matter.
    strengths = {"a": 1.0, "b": 1.4, "c": 2.0, "d": 2.8}
    deals = list(_deals(strengths, 1600, random.Random(7)))
    fixed_short, fixed_long = rate_fixed(deals[:400], orders=4), rate_fixed(deals, orders=4)
    drifting: dict[str, Skill] = {}
    for names, ranks in deals:
        after = rate([drifting.get(n, Skill()) for n in names], ranks)
        drifting.update(zip(names, after, strict=True))
    for name in strengths:
        assert fixed_long[name].sigma < fixed_short[name].sigma / 1.5
        assert fixed_long[name].sigma < 1.0 < 1.3 < drifting[name].sigma
    mus = [fixed_long[name].mu for name in strengths]
    assert mus == sorted(mus)
    again = rate_fixed(list(reversed(deals)), orders=4)
    assert all(abs(again[n].mu - fixed_long[n].mu) < 0.6 for n in strengths)
