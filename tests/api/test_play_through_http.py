"""Four clients play whole deals and matches through HTTP alone, in every preset."""

from __future__ import annotations

import itertools
import random

import pytest

from games.engine import PRESETS, verify_record
from games.models import Deal, Game, Move
from tests.api.helpers import play_until_finished, start_human_game, state_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_four_clients_play_a_whole_deal(preset):
    game_id, clients = start_human_game(4, rules=preset)
    play_until_finished(clients, game_id, random.Random(preset))
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    deal = Deal.objects.get(game=game)
    assert deal.winner is not None
    assert list(Move.objects.filter(deal=deal).values_list("seq", flat=True)) == list(
        range(1, deal.seq + 1)
    )
    record = clients[1].get(f"/api/v1/games/{game_id}/deals/1/record").json()
    assert verify_record(record).valid
    assert preset in str(record["rules"])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_match_of_three_deals_where_the_winner_leads_the_next(preset):
    game_id, clients = start_human_game(4, rules=preset, target_deals=3)
    play_until_finished(clients, game_id, random.Random(1))
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert [d.number for d in deals] == [1, 2, 3]
    for previous, following in itertools.pairwise(deals):
        assert following.leader == previous.winner
    seat_scores = [s.score for s in game.seats.order_by("position")]
    assert seat_scores == [sum(d.points[i] for d in deals) for i in range(4)]
    assert game.winner_seat is not None
    players = [c.player for c in clients]
    for player in players:
        player.refresh_from_db()
        assert player.games_played == 1
        assert player.deals_played == 3
    assert sum(p.games_won for p in players) == 1
    assert sum(p.deals_won for p in players) == 3


@pytest.mark.parametrize("n", [2, 3])
def test_two_and_three_player_games(n):
    game_id, clients = start_human_game(n)
    state = state_of(clients[0], game_id)
    assert len(state["deal"]["card_counts"]) == n
    play_until_finished(clients, game_id, random.Random(n))
    assert Game.objects.get(pk=game_id).status == "finished"
