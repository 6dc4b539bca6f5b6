"""Ratings through HTTP: rated deals move ratings (players and AI levels), unrated and
hinted games never do, a resigner is rated last, the leaderboard orders by rating, and
concurrent deals of one player never lose an update."""

from __future__ import annotations

import itertools
import random

import pytest

from ratings.models import Rating, RatingChange
from tests.api.concurrency_helpers import fire
from tests.api.helpers import client_for, create_game, play_until_finished_fast, rig_deal

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

AI_SEATS = [{"type": "ai", "level": level} for level in ("random", "greedy", "heuristic")]


def profile(client, player_id):
    response = client.get(f"/api/v1/players/{player_id}")
    assert response.status_code == 200, response.json()
    return response.json()


def test_a_newcomer_shows_the_starting_rating():
    ana = client_for("ana")
    rating = profile(ana, ana.player.pk)["rating"]
    assert rating == {"mu": 25.0, "sigma": round(25 / 3, 4), "display": 0.0, "games": 0}


def test_a_rated_match_rates_every_deal_for_the_player_and_the_ai_levels():
    ana = client_for("ana")
    game = create_game(ana, [{"type": "human"}, *AI_SEATS], target_deals=3)
    assert game["rated"] is True
    play_until_finished_fast(game["id"], random.Random(3))

    rating = profile(ana, ana.player.pk)["rating"]
    assert rating["games"] == 3
    history = ana.get(f"/api/v1/players/{ana.player.pk}/ratings").json()
    assert history["count"] == 3
    assert [h["deal"] for h in history["results"]] == [3, 2, 1]  # newest first
    # Each change starts where the one before ended: the history explains the number shown.
    newest = history["results"][0]
    assert (newest["mu"], newest["display"]) == (
        pytest.approx(rating["mu"], abs=1e-4),
        rating["display"],
    )
    for level in ("random", "greedy", "heuristic"):
        assert Rating.objects.get(bot_level=level).deals == 3
    levels = {row["level"]: row["rating"] for row in ana.get("/api/v1/ai-levels").json()}
    assert levels["heuristic"]["games"] == 3
    assert levels["expert"]["games"] == 0  # never seated: its calibrated rating


def test_the_deal_winner_gains_and_the_last_place_loses():
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}, {"type": "human"}])
    assert ben.post(f"/api/v1/games/{game['id']}/join", {}, format="json").status_code == 200
    rig_deal(game["id"], ["3C", "4C 5C"])  # ana leads her only card and goes out
    move = ana.post(
        f"/api/v1/games/{game['id']}/moves", {"action": "play", "cards": ["3C"]}, format="json"
    )
    assert move.status_code == 201, move.json()
    ana_rating, ben_rating = (
        profile(ana, ana.player.pk)["rating"],
        profile(ana, ben.player.pk)["rating"],
    )
    assert ana_rating["mu"] > 25 > ben_rating["mu"]
    assert RatingChange.objects.get(rating__player=ana.player).place == 1
    assert RatingChange.objects.get(rating__player=ben.player).place == 2


@pytest.mark.parametrize("extra", [{"rated": False}, {"hints": True}])
def test_unrated_and_hinted_games_change_no_rating(extra):
    ana = client_for("ana")
    game = create_game(ana, [{"type": "human"}, *AI_SEATS], **extra)
    assert game["rated"] is False
    play_until_finished_fast(game["id"], random.Random(5))
    assert not Rating.objects.exists()
    assert profile(ana, ana.player.pk)["rating"]["games"] == 0


def test_a_resigner_is_rated_last_and_the_stand_in_rates_nobody():
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}, {"type": "human"}, *AI_SEATS[:2]], target_deals=2)
    assert ben.post(f"/api/v1/games/{game['id']}/join", {}, format="json").status_code == 200
    assert ben.post(f"/api/v1/games/{game['id']}/resign").status_code == 200
    change = RatingChange.objects.get(rating__player=ben.player)
    assert (change.place, change.deal_number) == (4, 1)
    assert change.mu < change.mu_before
    play_until_finished_fast(game["id"], random.Random(7))
    # ben's seat was the AI's from then on: his rating moved once, ana's every deal.
    assert RatingChange.objects.filter(rating__player=ben.player).count() == 1
    assert RatingChange.objects.filter(rating__player=ana.player).count() == 2


def test_the_leaderboard_orders_by_rating_on_request():
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}, {"type": "human"}])
    ben.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    rig_deal(game["id"], ["3C", "4C 5C"])
    ana.post(
        f"/api/v1/games/{game['id']}/moves", {"action": "play", "cards": ["3C"]}, format="json"
    )
    board = ana.get("/api/v1/leaderboard?order=rating").json()
    assert [p["username"] for p in board["results"]] == ["ana", "ben"]
    displays = [p["rating"]["display"] for p in board["results"]]
    assert displays == sorted(displays, reverse=True)
    bad = ana.get("/api/v1/leaderboard?order=luck")
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "invalid_input")


def test_concurrent_deals_of_one_player_lose_no_rating_update():
    ana = client_for("ana")
    opponents = [client_for(name) for name in ("ben", "cia", "dee")]
    games = []
    for opponent in opponents:
        game = create_game(
            ana, [{"type": "human"}, {"type": "human"}, {"type": "ai", "level": "random"}]
        )
        opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
        rig_deal(game["id"], ["3C", "4C 5C", "6C 7C"])
        games.append(game["id"])

    answers = fire(
        [
            (
                lambda g=g: ana.post(
                    f"/api/v1/games/{g}/moves", {"action": "play", "cards": ["3C"]}, format="json"
                )
            )
            for g in games
        ]
    )
    assert [a.status_code for a in answers] == [201] * 3
    rating = Rating.objects.get(player=ana.player)
    assert rating.deals == 3
    changes = list(RatingChange.objects.filter(rating=rating).order_by("id"))
    # Serialized by the row lock: each update starts from the one before it.
    for before, after in itertools.pairwise(changes):
        assert after.mu_before == pytest.approx(before.mu)
    assert changes[-1].mu == pytest.approx(rating.mu)
    assert Rating.objects.get(bot_level="random").deals == 3


def test_a_level_in_several_seats_is_rated_once_per_deal():
    ana = client_for("ana")
    game = create_game(ana, [{"type": "human"}, *[{"type": "ai", "level": "random"}] * 3])
    play_until_finished_fast(game["id"], random.Random(11))
    row = Rating.objects.get(bot_level="random")
    assert row.deals == 1
    change = RatingChange.objects.get(rating=row)
    ana_change = RatingChange.objects.get(rating__player=ana.player)
    # The level's best seat is its place; ana's place is hers; together they hold 1st.
    assert 1 in (change.place, ana_change.place)
