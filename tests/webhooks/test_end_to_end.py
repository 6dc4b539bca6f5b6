"""From a move to a webhook: a move played through HTTP puts `move` and `your_turn` events
in the players' feeds, and each player's webhook receives exactly its own feed's events,
signed, as the feed shows them (a real Celery worker, a real HTTP receiver)."""

from __future__ import annotations

import json

import pytest

from tests.api.helpers import start_human_game, state_of
from webhooks.models import MessageState, WebhookMessage

from .helpers import Receiver, doc_verify, wait_for

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def receivers():
    made = [Receiver(), Receiver()]
    yield made
    for receiver in made:
        receiver.close()


def test_a_move_reaches_each_players_webhook_as_their_feed_shows_it(celery_worker, receivers):
    game_id, clients = start_human_game(2, names=("ana", "ben"))
    hooks = []
    for client, receiver in zip(clients, receivers, strict=True):
        answer = client.post(
            "/api/v1/webhooks",
            {"url": receiver.url, "events": ["move", "your_turn"]},
            format="json",
        )
        assert answer.status_code == 201, answer.json()
        hooks.append(answer.json())

    # Only what happens from now on: the game's start was before the webhooks.
    since = [c.get("/api/v1/events").json()["last_id"] for c in clients]
    state = state_of(clients[0], game_id)
    mover = clients[state["deal"]["turn"]]
    move = state_of(mover, game_id)["deal"]["legal_moves"][0]
    assert mover.post(f"/api/v1/games/{game_id}/moves", move, format="json").status_code == 201
    # `move` to both players, `your_turn` to the next one: three deliveries.
    wait_for(lambda: WebhookMessage.objects.filter(state=MessageState.DELIVERED).count() == 3)

    for client, receiver, hook, last in zip(clients, receivers, hooks, since, strict=True):
        feed = client.get(f"/api/v1/events?since={last}").json()["events"]
        delivered = [json.loads(r.body) for r in receiver.requests]
        assert sorted(delivered, key=lambda e: e["id"]) == feed
        assert {e["type"] for e in feed} <= {"move", "your_turn"}
        for request in receiver.requests:
            assert doc_verify()(hook["secret"], request.headers["Pusoy-Signature"], request.body)
            assert request.headers["Pusoy-Event-Id"] == str(json.loads(request.body)["id"])
        # Nobody's webhook names a card still in another player's hand.
        other = state_of(clients[1 - clients.index(client)], game_id)["deal"]["hand"]
        for request in receiver.requests:
            assert not set(other) & set(json.loads(request.body)["data"].get("cards", []))
