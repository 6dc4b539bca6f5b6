"""GET games: filters `status`, `mine`, `my_turn`, pagination; GET games/{id}."""

from __future__ import annotations

import pytest

from tests.api.helpers import client_for, create_game, start_human_game, state_of

pytestmark = pytest.mark.django_db


def ids(response):
    assert response.status_code == 200, response.json()
    return {g["id"] for g in response.json()["results"]}


def test_filters_status_mine_and_my_turn():
    game_id, clients = start_human_game(4)
    eve = client_for("eve")
    waiting = create_game(eve, [{"type": "human"}, {"type": "human"}])["id"]
    ana = clients[0]
    assert ids(ana.get("/api/v1/games")) == {game_id, waiting}
    assert ids(ana.get("/api/v1/games?status=waiting")) == {waiting}
    assert ids(ana.get("/api/v1/games?status=active")) == {game_id}
    assert ids(ana.get("/api/v1/games?mine=true")) == {game_id}
    assert ids(eve.get("/api/v1/games?mine=true")) == {waiting}
    turn = state_of(ana, game_id)["deal"]["turn"]
    for seat, client in enumerate(clients):
        expected = {game_id} if seat == turn else set()
        assert ids(client.get("/api/v1/games?my_turn=true")) == expected
    assert ids(eve.get("/api/v1/games?my_turn=true")) == set()


def test_bad_filters_are_400():
    ana = client_for("ana")
    huge = "31011536963048355426992128"  # was a 500: bigint out of range
    for path in (
        "/api/v1/games?status=nope",
        "/api/v1/games?mine=perhaps",
        "/api/v1/games?limit=x",
        "/api/v1/games?offset=-1",
        "/api/v1/games?limit=0",
        "/api/v1/games?limit=101",
        f"/api/v1/games?limit={huge}",
        f"/api/v1/games?offset={huge}",
        f"/api/v1/leaderboard?limit={huge}",
        f"/api/v1/leaderboard?offset={huge}",
        "/api/v1/games?status=",
    ):
        response = ana.get(path)
        assert response.status_code == 400, path
        assert response.json()["error"]["code"] == "invalid_input"


def test_pagination():
    ana = client_for("ana")
    made = {create_game(ana, [{"type": "human"}] * 2)["id"] for _ in range(5)}
    page = ana.get("/api/v1/games?limit=2").json()
    assert page["count"] == 5
    assert len(page["results"]) == 2
    assert page["next"]
    seen = set()
    for offset in range(0, 5, 2):
        seen |= ids(ana.get(f"/api/v1/games?limit=2&offset={offset}"))
    assert seen == made


def test_game_detail_shows_seats_and_commitment_not_seed():
    game_id, clients = start_human_game(4)
    body = clients[1].get(f"/api/v1/games/{game_id}").json()
    assert [s["player"]["username"] for s in body["seats"]] == ["ana", "ben", "cia", "dee"]
    assert body["status"] == "active"
    assert body["rules"]["preset"] == "philippine"
    (deal,) = body["deals"]
    assert len(deal["commitment"]) == 64
    assert deal["seed"] is None
