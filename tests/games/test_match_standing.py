"""The match standing the server gives its bots and hints (``selectors.match_standing``):
the scores and deals won before the deal in play, the deals left, the target."""

from __future__ import annotations

import pytest

from games import selectors, services
from games.models import Game
from pusoy.ai.hints import Hint
from pusoy.engine import MatchStanding
from tests.factories import HUMAN, game_with_seats
from tests.games.helpers import current_deal_of, player_at, submit

pytestmark = pytest.mark.django_db


def _after_first_deal(**targets) -> Game:
    """Two humans; seat 0 goes out on its first play (its 3C), scoring 1."""
    game = game_with_seats([HUMAN, HUMAN], dealt_hands=["3C", "5S 6S"], hints=True, **targets)
    submit(game, 0, "3C")
    return Game.objects.get(pk=game.pk)


def test_the_standing_counts_the_deals_before_the_one_in_play():
    game = _after_first_deal(target_deals=3)
    deal = current_deal_of(game)
    assert deal.number == 2
    assert selectors.match_standing(game, deal) == MatchStanding(
        scores=(1, 0), deals_won=(1, 0), deals_left=2, target_score=None
    )
    first = game.deals.get(number=1)
    assert selectors.match_standing(game, first).deals_left == 3


def test_a_match_to_a_target_score_has_no_count_of_deals():
    game = _after_first_deal(target_deals=None, target_score=7)
    standing = selectors.match_standing(game, current_deal_of(game))
    assert standing is not None
    assert (standing.deals_left, standing.target_score, standing.scores) == (None, 7, (1, 0))


def test_a_game_of_one_deal_has_no_match_to_play_for():
    game = game_with_seats([HUMAN, HUMAN], dealt_hands=["3C 4C", "5S 6S"], target_deals=1)
    assert selectors.match_standing(game, current_deal_of(game)) is None


def test_an_ai_turn_and_a_hint_see_the_standing(monkeypatch):
    game = game_with_seats(
        [HUMAN, "heuristic"], dealt_hands=["3C 9D", "5S 6S"], target_deals=2, hints=True
    )
    seen: list[MatchStanding | None] = []

    def choose(level, view, rng, budget=None):
        seen.append(view.match)
        return view.legal_moves()[0]

    monkeypatch.setattr("games.services.turns.choose_move", choose)
    submit(game, 0, "3C")
    assert services.ai_turn_play(game_id=game.pk, deal_number=1, expected_seq=1)
    assert seen == [MatchStanding(scores=(0, 0), deals_won=(0, 0), deals_left=2)]

    def suggest(view, rng):
        seen.append(view.match)
        return Hint(view.legal_moves()[0], "a reason")

    monkeypatch.setattr("games.selectors.hint", suggest)
    game = Game.objects.get(pk=game.pk)
    deal = current_deal_of(game)
    assert deal.turn == 0  # (the AI played one of its two cards or passed)
    selectors.hint_for_player(game=game, player=player_at(game, 0))
    assert seen[-1] == MatchStanding(scores=(0, 0), deals_won=(0, 0), deals_left=2)
