"""Publishing events to the outbox, one delivery attempt at a time (called in-process),
the disabling run, the sweep and the purge. Deliveries through a real worker are in
test_delivery.py."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from notifications.types import EventType
from tests.celery_worker import EAGER
from tests.factories import PlayerFactory
from webhooks import services
from webhooks.models import MessageState, Webhook, WebhookDelivery, WebhookMessage

from .helpers import doc_verify, event_payload

pytestmark = pytest.mark.django_db


def hook_for(player, url="http://127.0.0.1:9/hook", events=("your_turn",), **extra) -> Webhook:
    return services.webhook_create(owner=player, url=url, events=list(events), **extra)


def test_an_event_goes_to_its_recipients_webhooks_for_its_type_and_to_scope_all():
    ana, ben = PlayerFactory(username="ana"), PlayerFactory(username="ben")
    ops = PlayerFactory(username="ops", is_staff=True)
    ana_turns = hook_for(ana, events=["your_turn"])
    ana_moves = hook_for(ana, events=["move"])
    ben_turns = hook_for(ben, events=["your_turn", "move"])
    everything = hook_for(ops, events=["your_turn"], scope="all")
    ops_own = hook_for(ops, events=["your_turn"])
    off = hook_for(ana, events=["your_turn"])
    Webhook.objects.filter(pk=off.pk).update(active=False)

    event = event_payload(ana, "your_turn")
    services.webhook_events_publish(events=[event])

    got = set(WebhookMessage.objects.values_list("webhook_id", flat=True))
    assert got == {ana_turns.pk, everything.pk}
    assert ben_turns.pk not in got
    assert ana_moves.pk not in got
    assert ops_own.pk not in got
    for message in WebhookMessage.objects.all():
        assert message.event_id == event["id"]
        assert message.state == MessageState.PENDING
        assert json.loads(bytes(message.body)) == event
        assert list(json.loads(bytes(message.body))) == [
            "id", "type", "game", "created_at", "data", "player",
        ]  # fmt: skip


def test_publishing_costs_two_queries_whatever_the_number_of_events():
    players = [PlayerFactory(username=f"p{i}") for i in range(5)]
    for player in players:
        hook_for(player, events=[t.value for t in EventType])
    hook_for(PlayerFactory(username="ops", is_staff=True), events=["move"], scope="all")

    def queries(n: int) -> int:
        events = [event_payload(players[i % 5], "move", cards=["3C"]) for i in range(n)]
        with CaptureQueriesContext(connection) as captured:
            services.webhook_events_publish(events=events)
        return len(captured)

    assert queries(1) == 2
    assert queries(50) == 2
    # 51 events, each to its recipient's webhook and to the staff's.
    assert WebhookMessage.objects.count() == 2 * 51
    # Nothing matching: one read, no insert.
    with CaptureQueriesContext(connection) as captured:
        services.webhook_events_publish(events=[event_payload(players[0], "bogus")])
    assert len(captured) == 1
    with CaptureQueriesContext(connection) as captured:
        services.webhook_events_publish(events=[])
    assert len(captured) == 0


def test_the_deliveries_are_queued_only_when_the_transaction_commits(
    django_capture_on_commit_callbacks, monkeypatch
):
    from webhooks import queueing

    queued = []
    monkeypatch.setattr(queueing, "queue_delivery", lambda *args, **kw: queued.append(args))
    ana = PlayerFactory(username="ana")
    hook_for(ana)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.webhook_events_publish(events=[event_payload(ana), event_payload(ana)])
    assert queued == []
    assert len(callbacks) == 1  # one callback for the batch
    callbacks[0]()
    ids = list(WebhookMessage.objects.order_by("pk").values_list("pk", flat=True))
    assert queued == [(ids[0], 1), (ids[1], 1)]


def test_one_attempt_signs_the_stored_body_and_logs_itself(receiver):
    ana = PlayerFactory(username="ana")
    hook = hook_for(ana, url=receiver.url)
    event = event_payload(ana, "your_turn", seat=2)
    services.webhook_events_publish(events=[event])
    message = WebhookMessage.objects.get()

    assert services.message_deliver(message_id=message.pk, attempt=1) == "delivered"
    # A duplicated task for the same attempt sends nothing.
    assert services.message_deliver(message_id=message.pk, attempt=1) == "skipped"

    (request,) = receiver.requests
    assert request.body == bytes(message.body)
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["Pusoy-Event-Id"] == str(event["id"])
    assert request.headers["User-Agent"].startswith("Pusoy-Webhooks/")
    assert doc_verify()(hook.secret, request.headers["Pusoy-Signature"], request.body)
    assert not doc_verify()("0" * 64, request.headers["Pusoy-Signature"], request.body)
    assert not doc_verify()(hook.secret, request.headers["Pusoy-Signature"], request.body + b" ")
    message.refresh_from_db()
    assert message.state == MessageState.DELIVERED
    (log,) = WebhookDelivery.objects.all()
    assert (log.attempt, log.status_code, log.error, log.event_id) == (1, 200, "", event["id"])


def test_redirects_are_not_followed_and_count_as_failures(receiver):
    ana = PlayerFactory(username="ana")
    hook_for(ana, url=receiver.url)
    receiver.statuses = [302]
    services.webhook_events_publish(events=[event_payload(ana)])
    message = WebhookMessage.objects.get()
    assert services.message_deliver(message_id=message.pk, attempt=1) == "retrying"
    assert len(receiver.requests) == 1
    assert WebhookDelivery.objects.get().status_code == 302
    message.refresh_from_db()
    assert message.state == MessageState.PENDING
    assert message.next_attempt_at is not None


def test_a_connection_that_fails_is_logged_with_its_error():
    ana = PlayerFactory(username="ana")
    hook_for(ana, url="http://127.0.0.1:9/nobody-listens")
    services.webhook_events_publish(events=[event_payload(ana)])
    message = WebhookMessage.objects.get()
    assert services.message_deliver(message_id=message.pk, attempt=1) == "retrying"
    log = WebhookDelivery.objects.get()
    assert log.status_code is None
    assert "ConnectError" in log.error


@override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False)
def test_an_address_turned_private_after_subscribing_is_not_sent_to(receiver):
    ana = PlayerFactory(username="ana")
    with override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=True):
        hook_for(ana, url=receiver.url)
    services.webhook_events_publish(events=[event_payload(ana)])
    message = WebhookMessage.objects.get()
    assert services.message_deliver(message_id=message.pk, attempt=1) == "retrying"
    assert receiver.requests == []
    assert WebhookDelivery.objects.get().error == "refused: private_address"


@override_settings(WEBHOOK_RETRY_WINDOW_SECONDS=0, WEBHOOK_DISABLE_AFTER_FAILED_EVENTS=3)
def test_a_run_of_given_up_events_disables_the_webhook_and_a_success_resets_it(receiver):
    ana = PlayerFactory(username="ana")
    hook = hook_for(ana, url=receiver.url)

    def deliver_one(status: int) -> str:
        receiver.statuses = [status]
        services.webhook_events_publish(events=[event_payload(ana)])
        message = WebhookMessage.objects.order_by("-pk").first()
        return services.message_deliver(message_id=message.pk, attempt=1)

    assert [deliver_one(500), deliver_one(500)] == ["failed", "failed"]
    hook.refresh_from_db()
    assert (hook.active, hook.failed_events_in_a_row) == (True, 2)
    assert deliver_one(204) == "delivered"
    hook.refresh_from_db()
    assert hook.failed_events_in_a_row == 0

    # A pending event of the webhook when it is disabled is dropped.
    services.webhook_events_publish(events=[event_payload(ana)])
    waiting = WebhookMessage.objects.order_by("-pk").first()
    assert [deliver_one(500), deliver_one(503), deliver_one(500)] == ["failed"] * 3
    hook.refresh_from_db()
    assert hook.active is False
    assert hook.disabled_reason == "3 events in a row could not be delivered (last: HTTP 500)"
    waiting.refresh_from_db()
    assert waiting.state == MessageState.DROPPED
    assert services.message_deliver(message_id=waiting.pk, attempt=1) == "skipped"
    # A disabled webhook gets no more events.
    services.webhook_events_publish(events=[event_payload(ana)])
    assert WebhookMessage.objects.filter(state=MessageState.PENDING).count() == 0


def test_the_sweep_queues_due_retries_and_lost_tasks_once(monkeypatch):
    from webhooks import queueing

    queued = []
    monkeypatch.setattr(queueing, "queue_delivery", lambda *args, **kw: queued.append(args))
    ana = PlayerFactory(username="ana")
    hook_for(ana)
    services.webhook_events_publish(events=[event_payload(ana) for _ in range(4)])
    fresh, lost, retry_due, retry_later = WebhookMessage.objects.order_by("pk")
    now = timezone.now()
    # Queued at the commit a moment ago: its task is on its way.
    WebhookMessage.objects.filter(pk=fresh.pk).update(next_attempt_at=now)
    # Queued a minute ago and never claimed: the broker lost it.
    WebhookMessage.objects.filter(pk=lost.pk).update(next_attempt_at=now - dt.timedelta(minutes=1))
    # A long retry wait (no task carries it), due now, and one due later.
    WebhookMessage.objects.filter(pk=retry_due.pk).update(
        queued=False, attempts=3, next_attempt_at=now - dt.timedelta(seconds=1)
    )
    WebhookMessage.objects.filter(pk=retry_later.pk).update(
        queued=False, attempts=3, next_attempt_at=now + dt.timedelta(minutes=5)
    )

    def sweep() -> list:
        queued.clear()
        with django_on_commit():
            services.messages_due_queue(now=now)
        return sorted(queued)

    assert sweep() == sorted([(lost.pk, 1), (retry_due.pk, 4)])
    # Queued now: not again at the next sweep.
    assert sweep() == []


class django_on_commit:
    """Runs on_commit callbacks registered inside (the test's transaction never commits)."""

    def __enter__(self):
        from django.db import connection

        self.before = len(connection.run_on_commit)

    def __exit__(self, *exc):
        from django.db import connection

        for _, callback, _ in connection.run_on_commit[self.before :]:
            callback()
        del connection.run_on_commit[self.before :]


@override_settings(WEBHOOK_RETRY_WINDOW_SECONDS=0)
def test_the_hourly_purge_deletes_old_log_rows_and_finished_events(receiver):
    from webhooks.tasks import purge_deliveries

    ana = PlayerFactory(username="ana")
    hook_for(ana, url=receiver.url)
    services.webhook_events_publish(events=[event_payload(ana), event_payload(ana)])
    old, recent = WebhookMessage.objects.order_by("pk")
    for message in (old, recent):
        services.message_deliver(message_id=message.pk, attempt=1)
    long_ago = timezone.now() - dt.timedelta(days=15)
    WebhookMessage.objects.filter(pk=old.pk).update(created_at=long_ago)
    WebhookDelivery.objects.filter(message=old).update(created_at=long_ago)
    services.webhook_events_publish(events=[event_payload(ana)])
    WebhookMessage.objects.filter(state=MessageState.PENDING).update(created_at=long_ago)

    assert purge_deliveries() == 2
    assert set(WebhookDelivery.objects.values_list("message_id", flat=True)) == {recent.pk}
    # A pending event is kept whatever its age (it is still being retried).
    assert WebhookMessage.objects.count() == 2


def test_the_events_of_one_commit_leave_as_one_broker_message(
    django_capture_on_commit_callbacks, monkeypatch
):
    from webhooks import tasks

    published = []

    def args_of(call: tuple) -> tuple:
        # Patched on the task's class (through Celery's proxy): the task comes first.
        return next(a for a in call if isinstance(a, tuple))

    monkeypatch.setattr(
        tasks.fan_out, "apply_async", lambda *a, **kw: published.append(("fan_out", args_of(a)))
    )
    monkeypatch.setattr(
        tasks.deliver, "apply_async", lambda *a, **kw: published.append(("deliver", args_of(a)))
    )
    players = [PlayerFactory(username=f"p{i}") for i in range(3)]
    for player in players:
        hook_for(player, events=["move"])
    # As with a broker (tests/celery_worker.py switches the same way).
    tasks.fan_out.app.conf[EAGER] = False
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.webhook_events_publish(events=[event_payload(p, "move") for p in players])
    finally:
        tasks.fan_out.app.conf[EAGER] = True
    ids = list(WebhookMessage.objects.order_by("pk").values_list("pk", flat=True))
    assert published == [("fan_out", ([(i, 1) for i in ids],))]
    # The worker's side: one delivery task per message.
    published.clear()
    tasks.fan_out([[i, 1] for i in ids])
    assert published == [("deliver", (i, 1)) for i in ids]


def test_a_recipient_that_is_no_players_id_reaches_only_scope_all_and_breaks_nothing():
    ana = PlayerFactory(username="ana")
    hook_for(ana)
    everything = hook_for(PlayerFactory(username="ops", is_staff=True), scope="all")
    event = {**event_payload(ana), "player": 12345}
    services.webhook_events_publish(events=[event])
    assert list(WebhookMessage.objects.values_list("webhook_id", flat=True)) == [everything.pk]


def test_each_attempt_is_counted_in_the_metrics_by_outcome(receiver):
    from prometheus_client import REGISTRY

    def count(outcome: str) -> float:
        return (
            REGISTRY.get_sample_value("pusoy_webhook_deliveries_total", {"outcome": outcome}) or 0
        )

    ana = PlayerFactory(username="ana")
    hook_for(ana, url=receiver.url)
    services.webhook_events_publish(events=[event_payload(ana), event_payload(ana)])
    first, second = WebhookMessage.objects.order_by("pk")
    delivered, failed = count("delivered"), count("failed")
    assert services.message_deliver(message_id=first.pk, attempt=1) == "delivered"
    receiver.statuses = [500]
    assert services.message_deliver(message_id=second.pk, attempt=1) == "retrying"
    assert (count("delivered"), count("failed")) == (delivered + 1, failed + 1)
