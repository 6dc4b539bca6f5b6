"""Concurrent and repeated requests never corrupt a game (real transactions, threads)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.models import Deal, Move
from tests.api.concurrency_helpers import fire
from tests.api.helpers import RIGGED, client_for, create_game, rig_deal, start_human_game, state_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 20


def assert_no_gaps(game_id):
    for deal in Deal.objects.filter(game_id=game_id):
        seqs = list(Move.objects.filter(deal=deal).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, deal.seq + 1))


def test_twenty_threads_send_the_same_move_exactly_one_applies():
    game_id, clients = start_human_game(4)
    rig_deal(game_id, RIGGED)
    leader = clients[0]
    url = f"/api/v1/games/{game_id}/moves"

    def send():
        return leader.post(url, {"action": "play", "cards": ["3C"]}, format="json")

    responses = fire([send] * THREADS)
    codes = Counter(r.status_code for r in responses)
    assert codes[201] == 1
    refusals = Counter(r.json()["error"]["code"] for r in responses if r.status_code != 201)
    # After the one that applied, it is no longer seat 0's turn.
    assert refusals == {"not_your_turn": THREADS - 1}
    assert Move.objects.filter(deal__game_id=game_id).count() == 1
    assert_no_gaps(game_id)


def test_twenty_threads_send_different_moves_exactly_one_applies():
    game_id, clients = start_human_game(4)
    rig_deal(game_id, RIGGED)
    url = f"/api/v1/games/{game_id}/moves"
    plays = [["3C"], ["3C", "4C", "5C", "6C", "7C"], ["3C", "4C", "5C", "6C", "7C"]]
    senders = []
    for i in range(THREADS):
        client = clients[i % 4]
        cards = plays[i % 3] if i % 4 == 0 else [f"{'3456789TJQ'[i % 10]}{'CSHD'[i % 4]}"]

        def send(client=client, cards=cards):
            body = {"action": "play", "cards": cards, "expected_seq": 0}
            return client.post(url, body, format="json")

        senders.append(send)
    responses = fire(senders)
    assert sum(r.status_code == 201 for r in responses) == 1
    for r in responses:
        if r.status_code != 201:
            assert r.json()["error"]["code"] in {"not_your_turn", "stale_seq"}
    assert Move.objects.filter(deal__game_id=game_id).count() == 1
    assert_no_gaps(game_id)


def test_concurrent_joins_fill_each_seat_once():

    ana = client_for("ana")
    game = create_game(ana, [{"type": "human"}] * 4)
    joiners = [client_for(f"p{i}") for i in range(10)]
    url = f"/api/v1/games/{game['id']}/join"
    responses = fire([lambda c=c: c.post(url, {}, format="json") for c in joiners])
    assert sum(r.status_code == 200 for r in responses) == 3
    assert {r.json()["error"]["code"] for r in responses if r.status_code != 200} == {
        "game_not_open"
    }
    state = state_of(ana, game["id"])
    assert state["status"] == "active"
    assert Deal.objects.filter(game_id=game["id"]).count() == 1
