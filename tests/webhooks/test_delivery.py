"""Deliveries through a real Celery worker (its webhooks queue) to a real HTTP receiver on
127.0.0.1. The worker's retries are shrunk (tests/celery_worker.py): waits from 0.05 s,
an event given up after 4 s, a webhook disabled after 3 given-up events."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import transaction

from notifications.types import EventPayload
from tests.factories import PlayerFactory
from webhooks import services
from webhooks.models import MessageState, Webhook, WebhookDelivery, WebhookMessage

from .helpers import Receiver, doc_verify, event_payload, wait_for

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def publish(*events: dict) -> None:
    """As the feed will: inside the transaction that created the events."""
    with transaction.atomic():
        services.webhook_events_publish(events=list(events))


def state_of(message_id: int) -> str:
    return WebhookMessage.objects.get(pk=message_id).state


def test_a_delivery_reaches_the_receiver_signed_as_the_docs_say(celery_worker, receiver):
    ana = PlayerFactory(username="ana")
    hook = services.webhook_create(owner=ana, url=receiver.url, events=["move", "your_turn"])
    move = event_payload(ana, "move", seat=1, action="play", cards=["3C", "3D"], seq=4)
    publish(move)
    wait_for(lambda: WebhookMessage.objects.filter(state=MessageState.DELIVERED).exists())

    (request,) = receiver.requests
    assert request.headers["Pusoy-Event-Id"] == str(move["id"])
    assert doc_verify()(hook.secret, request.headers["Pusoy-Signature"], request.body)
    # The event as published, nothing added: no hand, no other seat's cards.
    delivered = json.loads(request.body)
    assert delivered == move
    assert set(delivered) == set(EventPayload.__annotations__)
    assert "hand" not in request.body.decode()
    (log,) = WebhookDelivery.objects.all()
    assert (log.attempt, log.status_code, log.error) == (1, 200, "")


def test_a_receiver_failing_three_times_gets_the_event_once_successfully(
    celery_worker, receiver, api_client
):
    from tests.api.helpers import client_for

    ana = client_for("ana")
    receiver.statuses = [500, 503, 500]
    hook = ana.post(
        "/api/v1/webhooks", {"url": receiver.url, "events": ["your_turn"]}, format="json"
    ).json()
    event = event_payload(ana.player, "your_turn")
    publish(event)
    message = wait_for(lambda: WebhookMessage.objects.filter(state=MessageState.DELIVERED).first())

    assert len(receiver.requests) == 4
    assert {r.headers["Pusoy-Event-Id"] for r in receiver.requests} == {str(event["id"])}
    assert {r.body for r in receiver.requests} == {bytes(message.body)}
    verify = doc_verify()
    assert all(
        verify(hook["secret"], r.headers["Pusoy-Signature"], r.body) for r in receiver.requests
    )
    # Exactly one success: nothing is sent after it.
    assert message.attempts == 4

    log = ana.get(f"/api/v1/webhooks/{hook['id']}/deliveries").json()
    assert log["count"] == 4
    assert [(d["attempt"], d["status_code"]) for d in log["results"]] == [
        (4, 200), (3, 500), (2, 503), (1, 500),
    ]  # fmt: skip
    assert {d["event_id"] for d in log["results"]} == {event["id"]}
    assert set(log["results"][0]) == {
        "id",
        "event_id",
        "attempt",
        "status_code",
        "error",
        "created_at",
    }


def test_a_hanging_receiver_does_not_hold_up_the_commit(celery_worker):
    release = threading.Event()
    receiver = Receiver(hold=release)
    try:
        ana = PlayerFactory(username="ana")
        services.webhook_create(owner=ana, url=receiver.url, events=["your_turn"])
        publish(event_payload(ana))
        # The commit has returned. The receiver holds the request until it is released,
        # which happens only now: had the commit waited for the delivery, it could only
        # have returned after the worker's read timeout, and attempt 1 would be logged
        # as that timeout, not as the receiver's 200.
        assert receiver.entered.wait(20)
        assert receiver.requests == []  # still holding it
        release.set()
        wait_for(lambda: WebhookMessage.objects.filter(state=MessageState.DELIVERED).exists())
        (log,) = WebhookDelivery.objects.all()
        assert (log.attempt, log.status_code, log.error) == (1, 200, "")
    finally:
        receiver.close()


def test_a_receiver_that_keeps_failing_gets_the_webhook_disabled(celery_worker, receiver):
    from tests.api.helpers import client_for

    ana = client_for("ana")
    receiver.statuses = [500] * 1000
    hook = ana.post(
        "/api/v1/webhooks", {"url": receiver.url, "events": ["move"]}, format="json"
    ).json()
    events = [event_payload(ana.player, "move", seq=n) for n in range(3)]
    publish(*events)
    wait_for(lambda: not Webhook.objects.get(pk=hook["id"]).active, timeout=60)

    shown = ana.get("/api/v1/webhooks").json()["results"][0]
    assert shown["active"] is False
    assert shown["disabled_reason"] == "3 events in a row could not be delivered (last: HTTP 500)"
    messages = list(WebhookMessage.objects.all())
    assert {m.state for m in messages} == {MessageState.FAILED}
    # Every event was retried, and every attempt is one row of the log.
    assert all(m.attempts >= 2 for m in messages)
    assert (
        WebhookDelivery.objects.count()
        == sum(m.attempts for m in messages)
        == len(receiver.requests)
    )
    for m in messages:
        attempts = sorted(
            WebhookDelivery.objects.filter(message=m).values_list("attempt", flat=True)
        )
        assert attempts == list(range(1, m.attempts + 1))
    # Disabled: new events are not even put in its outbox.
    publish(event_payload(ana.player, "move"))
    assert WebhookMessage.objects.count() == 3

    # The receiver is mended and the owner turns the webhook back on: the next event is
    # delivered, signed with the secret it had.
    receiver.statuses = []
    turned_on = ana.patch(f"/api/v1/webhooks/{hook['id']}", {"active": True}, format="json")
    assert turned_on.json()["active"] is True
    publish(event_payload(ana.player, "move", seq=9))
    wait_for(lambda: WebhookMessage.objects.filter(state=MessageState.DELIVERED).exists())
    last = receiver.requests[-1]
    assert json.loads(last.body)["data"] == {"seq": 9}
    assert doc_verify()(hook["secret"], last.headers["Pusoy-Signature"], last.body)
