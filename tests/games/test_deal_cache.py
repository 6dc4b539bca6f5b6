"""games.deal_cache: what it keeps is what the database committed for that version, a
rolled-back write keeps nothing, and what it hands out is a copy."""

from __future__ import annotations

import json
import random

import pytest
from django.db import transaction

from games import deal_cache
from games.models import Deal, Game
from games.services import move_submit
from pusoy.engine import DealState
from tests.api.helpers import play_one, start_human_game, state_of, whose_turn
from tests.factories import game_with_seats

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: entries are kept at commit


@pytest.fixture(autouse=True)
def empty():
    deal_cache.forget()
    yield
    deal_cache.forget()


def fresh(game_id) -> tuple[Game, Deal]:
    game = Game.objects.get(pk=game_id)
    return game, Deal.objects.get(game=game, number=game.current_deal_number)


def a_move(game: Game) -> dict:
    deal = Deal.objects.get(game=game, number=game.current_deal_number)
    seat = next(s for s in game.seats.all() if s.position == deal.turn)
    _, state = deal_cache.deal_current(game) or (None, None)
    assert state is not None
    legal = state.legal_moves()[0]
    return {
        "game_id": game.pk,
        "player": seat.player,
        "action": legal.action,
        "cards": [str(c) for c in legal.cards] or None,
    }


def test_a_committed_move_keeps_the_deal_as_the_database_has_it_for_the_new_version():
    game = game_with_seats()
    outcome = move_submit(**a_move(game))
    game, deal = fresh(game.pk)
    assert game.version == outcome.game.version
    key, *kept = deal_cache._entries[game.pk]
    assert key == (game.pk, game.version, deal.number)
    for field in Deal._meta.concrete_fields:
        value = getattr(kept[0], field.attname)
        if field.name == "snapshot":  # tuples in memory are lists once stored as JSON
            value = json.loads(json.dumps(value))
        assert value == getattr(deal, field.attname), field.name
    assert json.loads(json.dumps(kept[1].to_dict())) == deal.snapshot


def test_a_rolled_back_move_keeps_nothing():
    game = game_with_seats()
    move = a_move(game)
    deal_cache.forget()

    @transaction.atomic
    def failing_request() -> None:
        move_submit(**move)
        raise RuntimeError("the request fails after the move")

    with pytest.raises(RuntimeError):
        failing_request()
    assert deal_cache._entries == {}
    game, deal = fresh(game.pk)
    assert deal.seq == 0


def test_what_it_hands_out_is_a_copy():
    game = game_with_seats()
    first = deal_cache.deal_current(game)
    assert first is not None
    deal, state = first
    legal = state.legal_moves()[0]
    state.apply(legal, state.turn)
    deal.seq = 99
    again = deal_cache.deal_current(game)
    assert again is not None
    assert again[0].seq == 0
    assert again[1].seq == 0


def test_an_older_version_never_replaces_a_newer_one():
    game = game_with_seats()
    older = Game.objects.get(pk=game.pk)
    deal_cache.deal_current(older)  # kept at version v
    move_submit(**a_move(game))  # kept at v + 1
    newer = Game.objects.get(pk=game.pk)
    assert newer.version == older.version + 1
    deal_cache._keep(deal_cache._key(older), *deal_cache._copied(*fresh_pair(older)))
    key, _, state = deal_cache._entries[game.pk]
    assert key == deal_cache._key(newer)
    assert state.seq == 1


def fresh_pair(game: Game) -> tuple[Deal, DealState]:
    deal = Deal.objects.get(game=game, number=game.current_deal_number)
    return deal, DealState.from_dict(deal.snapshot)


def test_moves_played_through_the_api_take_the_deal_from_memory():
    """Requests that really commit: a deal is read from the database once, by the first
    read after it is dealt; every later state read and every move's locked read of that
    deal hit, as each move's commit keeps the deal for the version it made. A cache that
    never hits (or never keeps) fails here."""
    game_id, clients = start_human_game(4)
    rng = random.Random(7)
    before = dict(deal_cache.counts)
    deals, moves = set(), 0
    while moves < 12 and (client := whose_turn(clients, game_id)) is not None:
        state = state_of(client, game_id)
        deals.add(state["deal"]["number"])
        play_one(client, game_id, rng, state)
        moves += 1
    hits = deal_cache.counts["hits"] - before["hits"]
    misses = deal_cache.counts["misses"] - before["misses"]
    assert moves == 12
    assert misses == len(deals)  # each deal read from the database once
    # Every other read hits: per move, whose_turn's, the mover's and the move's locked one.
    assert hits == 3 * moves - len(deals)
