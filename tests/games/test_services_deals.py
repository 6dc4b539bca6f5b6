"""games.services.deals: a deal scored when its first player goes out, and the match
going on with the next deal or ending, with its winner and the players' stats."""

from __future__ import annotations

import pytest

from games.models import Deal, Game
from games.services.deals import game_finish
from tests.factories import HUMAN, DealFactory, deal_rigged, game_with_seats
from tests.games.helpers import (
    OUT_ON_TWO_DEUCES,
    SEAT_0_GOES_OUT,
    current_deal_of,
    player_at,
    submit_all,
)

pytestmark = pytest.mark.django_db

# A later deal led by seat 0: it leads 3S, seat 1 passes, seat 2 goes out with 8D.
SEAT_2_GOES_OUT_HANDS = ["3S 4S", "5H 6H 7H", "8D", "9C TC"]
SEAT_2_GOES_OUT = [(0, "3S"), (1, "pass"), (2, "8D")]


def seat_scores(game: Game) -> list[int]:
    return list(game.seats.order_by("position").values_list("score", flat=True))


def player_stats(game: Game) -> list[tuple[int, ...]]:
    """(games played, games won, deals played, deals won, points) of each seat's player."""
    stats = []
    for seat in range(game.num_seats):
        p = player_at(game, seat)
        stats.append((p.games_played, p.games_won, p.deals_played, p.deals_won, p.points))
    return stats


@pytest.mark.parametrize(
    ("scoring", "points"),
    [
        # Only the winner scores: 1 doubled for each deuce in the play that went out.
        ("deuces-double", [4, 0, 0, 0]),
        # Every other seat scores the cards it holds.
        ("cards-left", [0, 2, 3, 4]),
        # As cards-left, tripled for a seat that never played a card.
        ("cards-left-tiered", [0, 6, 9, 12]),
    ],
)
def test_a_deal_is_scored_by_the_games_rules_on_its_seats_and_players(scoring, points):
    game = game_with_seats(rules={"scoring": scoring}, dealt_hands=OUT_ON_TWO_DEUCES)
    submit_all(game, SEAT_0_GOES_OUT)
    deal = Deal.objects.get(game=game)
    assert (deal.winner, deal.points) == (0, points)
    assert seat_scores(game) == points
    assert [stats[4] for stats in player_stats(game)] == points


def test_scores_and_stats_add_up_over_the_deals_of_a_match():
    game = game_with_seats(rules="philippine-online", target_deals=2, dealt_hands=OUT_ON_TWO_DEUCES)
    submit_all(game, SEAT_0_GOES_OUT)  # cards-left: [0, 2, 3, 4]
    deal_rigged(current_deal_of(game), SEAT_2_GOES_OUT_HANDS)
    submit_all(game, SEAT_2_GOES_OUT)  # [1, 3, 0, 2]
    game.refresh_from_db()
    assert game.status == "finished"
    assert seat_scores(game) == [1, 5, 3, 6]
    # cards-left: the fewest points win the match.
    assert game.winner_seat == 0
    assert player_stats(game) == [
        (1, 1, 2, 1, 1),
        (1, 0, 2, 0, 5),
        (1, 0, 2, 1, 3),
        (1, 0, 2, 0, 6),
    ]


@pytest.mark.parametrize(
    ("target_score", "ends"),
    [(4, True), (5, False)],
)
def test_a_match_to_a_target_score_ends_when_a_seat_reaches_it(target_score, ends):
    # cards-left: seat 3 is left with 4 points, the most.
    game = game_with_seats(
        rules="philippine-online",
        target_deals=None,
        target_score=target_score,
        dealt_hands=OUT_ON_TWO_DEUCES,
    )
    submit_all(game, SEAT_0_GOES_OUT)
    game.refresh_from_db()
    if ends:
        assert (game.status, game.winner_seat, game.current_deal_number) == ("finished", 0, 1)
    else:
        assert (game.status, game.winner_seat, game.current_deal_number) == ("active", None, 2)


def finished_with(rules: str, scores: list[int], deal_winners: list[int]) -> Game:
    """A match of two humans and two AIs about to end: its seats' scores and the winner
    of each of its deals as given."""
    game = game_with_seats([HUMAN, "random", HUMAN, "greedy"], rules=rules, started=False)
    for number, winner in enumerate(deal_winners, start=1):
        DealFactory(game=game, number=number, winner=winner)
    for seat in game.seats.all():
        seat.score = scores[seat.position]
        seat.save(update_fields=["score"])
    game = Game.objects.get(pk=game.pk)
    game_finish(game)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    ("rules", "scores", "deal_winners", "winner"),
    [
        # deuces-double: the most points win; cards-left: the fewest.
        ("philippine", [2, 8, 0, 4], [1, 1, 3], 1),
        ("philippine-online", [9, 8, 1, 4], [2, 1, 3], 2),
        # Equal points: more deals won wins...
        ("philippine", [0, 4, 0, 4], [1, 3, 3], 3),
        ("philippine-online", [7, 3, 3, 9], [1, 2, 2, 0], 2),
        # ...and with as many deals won, the lower seat.
        ("philippine", [0, 4, 0, 4], [1, 3], 1),
        ("philippine-online", [7, 3, 3, 9], [2, 1], 1),
    ],
)
def test_the_match_winner_and_its_tie_breaks(rules, scores, deal_winners, winner):
    game = finished_with(rules, scores, deal_winners)
    assert (game.status, game.winner_seat) == ("finished", winner)
    assert game.finished_at is not None


def test_the_end_of_a_match_counts_a_game_for_each_human_and_a_win_for_its_winner():
    game = finished_with("philippine", [0, 1, 4, 0], [2])
    humans = [player_at(game, 0), player_at(game, 2)]
    assert [(p.games_played, p.games_won) for p in humans] == [(1, 0), (1, 1)]
