"""Zero-sum payments of a deal: what the arena reports beside the game's points."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pusoy.engine.rules import Rules
from pusoy.engine.scoring import deal_payments, deal_points

SCORINGS = ("deuces-double", "cards-left", "cards-left-tiered")


@given(
    scoring=st.sampled_from(SCORINGS),
    players=st.integers(2, 4),
    data=st.data(),
)
def test_payments_sum_to_zero_and_only_the_winner_gains(scoring, players, data):
    rules = Rules.from_spec({"preset": "philippine", "scoring": scoring})
    winner = data.draw(st.integers(0, players - 1))
    dealt = [13] * players
    left = [0 if s == winner else data.draw(st.integers(1, 13)) for s in range(players)]
    final_play = data.draw(st.integers(0, (1 << 52) - 1))
    points = deal_points(rules, winner, final_play, left, dealt)
    payments = deal_payments(rules, winner, points)
    assert sum(payments) == 0
    assert payments[winner] >= 0
    assert all(p <= 0 for s, p in enumerate(payments) if s != winner)
    if scoring != "deuces-double":
        assert [-p for s, p in enumerate(payments) if s != winner] == [
            p for s, p in enumerate(points) if s != winner
        ]
