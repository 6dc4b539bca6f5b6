"""From a move over HTTP to a browser, with a real Celery worker on the push queue and a
local push service that checks VAPID and decrypts every push: the next human's devices get
the turn once each, collapsed per game, with no card in it; a gone subscription is gone
from `GET devices`; a 429 is tried again after its Retry-After; a push service that hangs
holds no move."""

from __future__ import annotations

import re

import pytest

from push.models import Outbox, OutboxState
from tests.api.helpers import start_human_game, state_of

from .helpers import devices, register_webpush
from .receiver import Receiver

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def receiver(settings):
    from push.providers import registry

    made = Receiver(vapid_public_key=registry.vapid_public_key())
    yield made
    made.close()


def move(client, game_id: str) -> None:
    state = state_of(client, game_id)
    legal = state["deal"]["legal_moves"][0]
    answer = client.post(f"/api/v1/games/{game_id}/moves", legal, format="json")
    assert answer.status_code == 201, answer.json()


def to_play(clients, game_id: str) -> int:
    return state_of(clients[0], game_id)["deal"]["turn"]


def every_card(clients, game_id: str) -> set[str]:
    return {card for c in clients for card in state_of(c, game_id)["deal"]["hand"]}


def test_a_move_reaches_the_next_humans_devices_once_collapsed_and_without_cards(
    celery_worker, receiver
):
    game_id, clients = start_human_game(3, names=("ana", "ben", "cia"))
    subs = {
        i: [register_webpush(c, receiver)[0] for _ in range(2 if i else 1)]
        for i, c in enumerate(clients)
    }
    mover = to_play(clients, game_id)
    nxt = (mover + 1) % 3
    cards_before = every_card(clients, game_id)
    move(clients[mover], game_id)
    receiver.wait(lambda: len(receiver.pushes) >= len(subs[nxt]))
    # Whatever else might still come has come once every outbox row is done.
    celery_wait_all_done()
    got = {p.path for p in receiver.received()}
    assert got == {s.path for s in subs[nxt]}
    assert len(receiver.received()) == len(subs[nxt])  # once each
    assert receiver.refusals == []
    for push in receiver.received():
        assert push.payload["data"] == {
            "kind": "your_turn",
            "game": game_id,
            "event": push.payload["data"]["event"],
        }
        words = set(re.findall(r"[0-9A-Za-z]+", repr(push.payload) + repr(push.headers)))
        assert not words & cards_before, "a card in a push"
    assert len({p.headers["Topic"] for p in receiver.received()}) == 1

    # The next move: the same game, the same Topic, so a phone shows only the latest.
    move(clients[nxt], game_id)
    after = (nxt + 1) % 3
    receiver.wait(lambda: any(p.path in {s.path for s in subs[after]} for p in receiver.pushes))
    celery_wait_all_done()
    assert len({p.headers["Topic"] for p in receiver.received()}) == 1


def celery_wait_all_done(timeout: float = 30.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while Outbox.objects.filter(state=OutboxState.PENDING).exists():
        assert time.monotonic() < deadline, "pushes still pending"
        time.sleep(0.05)


def test_a_gone_subscription_is_gone_from_get_devices(celery_worker, receiver):
    game_id, clients = start_human_game(2, names=("ana", "ben"))
    nxt = 1 - to_play(clients, game_id)
    sub, device = register_webpush(clients[nxt], receiver)
    receiver.always(sub, 410)
    move(clients[1 - nxt], game_id)
    receiver.wait(lambda: len(receiver.arrivals) == 1)
    celery_wait_all_done()
    assert device["id"] not in [d["id"] for d in devices(clients[nxt])]


def test_a_429_is_tried_again_after_retry_after(celery_worker, receiver):
    game_id, clients = start_human_game(2, names=("ana", "ben"))
    nxt = 1 - to_play(clients, game_id)
    sub, _ = register_webpush(clients[nxt], receiver)
    receiver.answer(sub, (429, {"Retry-After": "2"}))
    move(clients[1 - nxt], game_id)
    receiver.wait(lambda: len(receiver.arrivals) == 2)
    celery_wait_all_done()
    (_, refused_at), (_, retried_at) = receiver.arrivals
    # Not a speed check: the retry must not come before the service said it may.
    assert retried_at - refused_at >= 2.0 - 0.05
    assert [p.status for p in receiver.received(sub)] == [429, 201]
    [row] = Outbox.objects.all()
    assert (row.state, row.attempts) == (OutboxState.SENT, 2)


def test_a_push_service_that_hangs_holds_no_move(celery_worker, receiver):
    game_id, clients = start_human_game(2, names=("ana", "ben"))
    first = to_play(clients, game_id)
    nxt = 1 - first
    sub, _ = register_webpush(clients[nxt], receiver)
    receiver.always(sub, 0)  # hangs until released
    try:
        move(clients[first], game_id)
        receiver.entered.wait(30)
        assert receiver.entered.is_set()
        # The push service holds the push's request now, and nothing has been answered:
        assert receiver.pushes == []
        # Both moves were answered while it did: the first, and the next player's reply.
        move(clients[nxt], game_id)
        assert receiver.pushes == []
        assert state_of(clients[0], game_id)["deal"]["seq"] >= 2
    finally:
        receiver.release.set()
