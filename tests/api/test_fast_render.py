"""The answers rendered by pusoy_api.fast_render are the serializers' own, byte for byte:
the move's answer, every player's and a spectator's view, and the history, all along
played games (deal ends, a match's next deal, its end)."""

from __future__ import annotations

import json
import random

import pytest
from rest_framework.renderers import JSONRenderer

from games import selectors
from games.models import Game
from games.serializers import (
    HistorySerializer,
    MoveAcceptedSerializer,
    PlayerStateSerializer,
    SpectatorStateSerializer,
    game_state_data,
    history_data,
    move_accepted_data,
)
from games.services import move_submit
from tests.api.helpers import start_human_game
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def same(fast: dict, slow) -> None:
    render = JSONRenderer().render
    assert render(fast) == render(slow)
    assert json.dumps(fast, default=str) == json.dumps(slow, default=str)


def test_every_answer_of_played_games_renders_as_its_serializer():
    game_id, clients = start_human_game(4, target_deals=2)
    Game.objects.filter(pk=game_id).update(visibility="public")
    watcher = PlayerFactory(username="watcher")
    players = [c.player for c in clients]
    rng = random.Random(1)
    moves = 0
    while True:
        game = selectors.game_get(game_id=game_id)
        states = {}
        for viewer in [*players, watcher]:
            state = states[viewer] = selectors.game_state_for_viewer(game=game, viewer=viewer)
            serializer = (
                PlayerStateSerializer if state.view == "player" else SpectatorStateSerializer
            )
            same(game_state_data(state), serializer(state).data)
        history = selectors.deal_moves(game=game, number=None, since=0)
        same(history_data(history), HistorySerializer(history).data)
        if game.status != "active":
            break
        mover = players[states[players[0]].deal.turn]
        view = states[mover].deal
        legal = rng.choice(view.legal_moves)
        outcome = move_submit(
            game_id=game_id,
            player=mover,
            action=legal.action,
            cards=[str(c) for c in legal.cards] or None,
        )
        state = selectors.game_state_for_player(
            game=outcome.game, player=mover, deal=outcome.deal, state=outcome.state
        )
        body = {"move": outcome.move, "state": state, "ended_deal": outcome.ended_deal}
        same(move_accepted_data(body), MoveAcceptedSerializer(body).data)
        moves += 1
    assert moves > 26  # two whole deals, their ends and the match's
