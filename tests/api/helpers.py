"""Test clients that play through HTTP alone, using only what the API tells them."""

from __future__ import annotations

import random
from typing import Any

from rest_framework.test import APIClient

from players.services import token_issue
from tests.factories import PlayerFactory


def client_for(username: str) -> APIClient:
    player = PlayerFactory(username=username)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(player=player)}")
    client.player = player  # type: ignore[attr-defined]
    return client


def create_game(client: APIClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games", {"seats": seats, **extra}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def start_human_game(
    n: int = 4, rules: Any = None, names: tuple[str, ...] = ("ana", "ben", "cia", "dee"), **extra
) -> tuple[str, list[APIClient]]:
    """A game of n human seats; every player joined, so the first deal is dealt."""
    clients = [client_for(name) for name in names[:n]]
    body = {"rules": rules} if rules is not None else {}
    game = create_game(clients[0], [{"type": "human"}] * n, **body, **extra)
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game['id']}/join", {}, format="json").status_code == 200
    return game["id"], clients


def state_of(client: APIClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/api/v1/games/{game_id}/state")
    assert response.status_code == 200, response.json()
    return response.json()


def play_one(
    client: APIClient, game_id: str, rng: random.Random, state: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The player whose turn it is makes a random legal move, as the API lists them
    (from `state` when the caller has just read it)."""
    state = state or state_of(client, game_id)
    move = rng.choice(state["deal"]["legal_moves"])
    response = client.post(
        f"/api/v1/games/{game_id}/moves",
        {**move, "expected_seq": state["deal"]["seq"]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def whose_turn(clients: list[APIClient], game_id: str) -> APIClient | None:
    state = state_of(clients[0], game_id)
    if state["status"] != "active":
        return None
    return clients[state["deal"]["turn"]]


def play_until_finished(
    clients: list[APIClient], game_id: str, rng: random.Random, max_moves: int = 5000
) -> int:
    moves = 0
    while (client := whose_turn(clients, game_id)) is not None:
        play_one(client, game_id, rng)
        moves += 1
        assert moves < max_moves
    return moves


# One suit each, 3 to 2: seat 0 holds 3C and leads; every single is easy to reason about.
RIGGED = [
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C",
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S",
    "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
    "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D",
]


def rig_deal(game_id: str, hands: list[str]) -> None:
    """Replace the current deal's hands with known ones (tests of specific positions)."""
    from games.models import Deal, Game
    from tests.factories import deal_rigged

    game = Game.objects.get(pk=game_id)
    deal_rigged(Deal.objects.get(game=game, number=game.current_deal_number), hands)


def play_until_finished_fast(game_id: str, rng: random.Random) -> None:
    """Random legal moves straight through the service layer (no HTTP): for tests that
    need a finished game, not the act of playing it."""
    from games.models import Game
    from tests.games.helpers import play_until_finished as play_through_services

    play_through_services(Game.objects.get(pk=game_id), rng)
