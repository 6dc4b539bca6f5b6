"""Four clients play whole deals and matches through HTTP alone, in every preset; the
stored match must then be consistent (tests/invariants.py)."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from pusoy.engine import PRESETS, verify_record
from tests.api.helpers import play_until_finished, start_human_game, state_of
from tests.invariants import assert_match_consistent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_four_clients_play_a_whole_deal(preset):
    game_id, clients = start_human_game(4, rules=preset)
    play_until_finished(clients, game_id, random.Random(preset))
    game = Game.objects.get(pk=game_id)
    assert game.current_deal_number == 1
    assert_match_consistent(game)
    record = clients[1].get(f"/api/v1/games/{game_id}/deals/1/record").json()
    assert verify_record(record).valid
    assert preset in str(record["rules"])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_match_of_three_deals_where_the_winner_leads_the_next(preset):
    game_id, clients = start_human_game(4, rules=preset, target_deals=3)
    play_until_finished(clients, game_id, random.Random(1))
    game = Game.objects.get(pk=game_id)
    assert game.current_deal_number == 3
    assert_match_consistent(game)


@pytest.mark.parametrize("n", [2, 3])
def test_two_and_three_player_games(n):
    game_id, clients = start_human_game(n)
    state = state_of(clients[0], game_id)
    assert len(state["deal"]["card_counts"]) == n
    play_until_finished(clients, game_id, random.Random(n))
    assert_match_consistent(Game.objects.get(pk=game_id))
