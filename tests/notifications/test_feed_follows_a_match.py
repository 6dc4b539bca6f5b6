"""A client that follows a match from its feed alone: with AI seats moving in-process
after each commit, every player's feed holds every move once, in order, with no gap, and
rebuilds the history `GET moves` shows; it never names a card of a hand. And `GET
events?wait=` is held until an event, holding no database connection meanwhile."""

from __future__ import annotations

import asyncio
import random

import pytest
from django.db import connection

from tests.api.helpers import client_for, create_game, play_one, state_of
from tests.api.test_long_poll import WaitSpy, _auth, _get, move_in_thread, until
from tests.notifications.helpers import cards_named, feed

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="LISTEN/NOTIFY needs PostgreSQL"
)


def _play_match(clients, game_id, rng) -> None:
    for _ in range(2000):
        state = state_of(clients[0], game_id)
        if state["status"] != "active":
            return
        seat_of = {state_of(c, game_id)["seat"]: c for c in clients}
        play_one(seat_of[state["deal"]["turn"]], game_id, rng)
    raise AssertionError("the match did not finish")


@pytest.mark.django_db(transaction=True)
def test_each_players_feed_rebuilds_the_whole_match():
    ana, ben = client_for("ana"), client_for("ben")
    seats = [
        {"type": "human"},
        {"type": "ai", "level": "random"},
        {"type": "human"},
        {"type": "ai", "level": "greedy"},
    ]
    game = create_game(ana, seats, target_deals=2, invite=["ben"])
    invitation = feed(ben)[0]["data"]["invitation"]
    assert ben.post(f"/api/v1/invitations/{invitation}/accept").status_code == 200
    _play_match([ana, ben], game["id"], random.Random(11))

    history = {
        number: [
            {"deal": number, **{k: m[k] for k in ("seq", "seat", "action", "cards")}}
            for m in ana.get(f"/api/v1/games/{game['id']}/moves?deal={number}").json()["moves"]
        ]
        for number in (1, 2)
    }
    assert all(history.values())
    for client in (ana, ben):
        events = feed(client)
        ids = [e["id"] for e in events]
        assert ids == sorted(set(ids)), "ids increase, each event once"
        moves = [e["data"] for e in events if e["type"] == "move"]
        assert moves == history[1] + history[2], "every move once, in order"
        kinds = [e["type"] for e in events if e["game"] == game["id"]]
        assert kinds.count("game_started") == 1
        assert kinds.count("deal_finished") == 2
        assert kinds[-1] == "game_finished"
        # Hidden information: the only cards an event names are the cards of a move.
        for event in events:
            named = cards_named(event)
            if event["type"] == "move":
                assert named == set(event["data"]["cards"])
            else:
                assert not named, event
            assert not {"hand", "hands", "seed", "set_aside"} & set(event["data"])


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_waiting_feed_request_wakes_on_a_new_event(monkeypatch):
    spy = WaitSpy(monkeypatch)
    monkeypatch.setattr("pusoy_api.realtime.longpoll.RECHECK_SECONDS", 3600)  # woken by NOTIFY only
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}, {"type": "human"}])
    assert ben.post(f"/api/v1/games/{game['id']}/join", {}, format="json").status_code == 200
    turn = state_of(ana, game["id"])["deal"]["turn"]
    mover, watcher = (ana, ben) if turn == 0 else (ben, ana)
    since = feed(watcher)[-1]["id"]
    connection.close()

    async def scenario():
        waiting = asyncio.ensure_future(
            _get(_auth(watcher), f"/api/v1/events?since={since}&wait=20")
        )
        await until(lambda: spy.waiting == 1, "the request waits")
        await move_in_thread(mover, game["id"])
        return await waiting

    response = asyncio.run(scenario())
    assert response.status_code == 200
    body = response.json()
    assert [e["type"] for e in body["events"]] == ["move", "your_turn"]
    assert body["last_id"] == body["events"][-1]["id"] > since
    assert spy.ends
    assert all(spy.ends), "woken (the first time maybe by the hub connecting)"


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_wait_with_no_event_ends_empty(monkeypatch):
    spy = WaitSpy(monkeypatch)
    ana = client_for("ana")
    since = 10**12
    connection.close()
    response = asyncio.run(_get(_auth(ana), f"/api/v1/events?since={since}&wait=0.3"))
    assert response.status_code == 200
    assert response.json() == {"events": [], "last_id": since}
    assert spy.ends[-1] is False, "the time ran out"
