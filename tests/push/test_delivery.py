"""From events to pushes, in this process against a local push service: the outbox is
written with the events (for the kinds pushed, to the recipient's devices, as their
preferences say), and each send ends as the provider's answer says: sent, the device
removed at once when gone, a retry no sooner than Retry-After, or a failure."""

from __future__ import annotations

import datetime as dt
import itertools
import time
import uuid

import pytest
from django.db import transaction
from django.utils import timezone
from knox.models import AuthToken
from prometheus_client import REGISTRY

from push import services, timing
from push.models import Device, Outbox, OutboxState, Preferences
from tests.factories import PlayerFactory

from .receiver import Receiver

pytestmark = [pytest.mark.django_db]

_ids = itertools.count(int(time.time() * 1000) % 10**12)


def event(player, type: str = "your_turn", game: str | None = None, **data) -> dict:
    return {
        "id": next(_ids),
        "type": type,
        "game": game or str(uuid.uuid4()),
        "created_at": timezone.now().isoformat(),
        "data": data,
        "player": str(player.pk),
    }


def device_of(player, receiver: Receiver, locale: str = "en"):
    token, _ = AuthToken.objects.create(player)
    sub = receiver.subscribe()
    keys = sub.as_json()["keys"]
    device = services.device_register(
        player=player,
        auth_token=token,
        platform="webpush",
        endpoint=sub.endpoint,
        p256dh=keys["p256dh"],
        auth=keys["auth"],
        locale=locale,
    )
    return sub, device


def publish(*events: dict) -> list[Outbox]:
    before = set(Outbox.objects.values_list("pk", flat=True))
    with transaction.atomic():
        services.push_events_publish(events=list(events))
    return list(Outbox.objects.exclude(pk__in=before).order_by("pk"))


def counter(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_pushed_event_goes_to_every_device_of_its_recipient_only(receiver):
    ana, ben = PlayerFactory(), PlayerFactory()
    _, phone = device_of(ana, receiver)
    _, laptop = device_of(ana, receiver, locale="fil")
    device_of(ben, receiver)
    rows = publish(event(ana))
    assert sorted(row.device_id for row in rows) == sorted([phone.pk, laptop.pk])
    by_device = {row.device_id: row for row in rows}
    assert by_device[phone.pk].title == "Your turn"
    assert by_device[laptop.pk].title == "Ikaw na"
    assert all(row.state == OutboxState.PENDING for row in rows)


def test_only_the_pushed_kinds_are_pushed(receiver):
    ana = PlayerFactory()
    device_of(ana, receiver)
    pushed = ["your_turn", "deadline_soon", "invited", "game_finished"]
    not_pushed = ["move", "deal_finished", "game_started", "resigned", "abandoned"]
    rows = publish(*(event(ana, kind) for kind in pushed + not_pushed))
    assert [row.kind for row in rows] == pushed


def test_no_device_no_row_and_no_query_for_kinds_not_pushed(django_assert_num_queries):
    ana = PlayerFactory()
    with django_assert_num_queries(0):
        services.push_events_publish(events=[event(ana, "move")])
    with django_assert_num_queries(1):
        services.push_events_publish(events=[event(ana)])


def test_a_kind_turned_off_or_a_muted_game_is_not_pushed(receiver):
    ana = PlayerFactory()
    device_of(ana, receiver)
    muted = str(uuid.uuid4())
    services.preferences_update(player=ana, kinds={"game_finished": False}, mute_games=[muted])
    rows = publish(event(ana, "game_finished"), event(ana, game=muted), event(ana, "invited"))
    assert [row.kind for row in rows] == ["invited"]


def test_the_invitation_names_who_invited_and_never_a_card(receiver):
    ana = PlayerFactory()
    device_of(ana, receiver)
    [row] = publish(event(ana, "invited", invited_by="ben", seat=1))
    assert row.body.startswith("ben invited you to game ")
    [_] = publish(event(ana, "your_turn", cards=["3C", "4D"], hand=["2S"]))
    assert not Outbox.objects.filter(body__contains="3C").exists()


def send(row: Outbox, attempt: int = 1) -> str:
    return services.push_send(outbox_id=row.pk, attempt=attempt)


def test_a_sent_push_is_marked_sent_and_counted(receiver):
    ana = PlayerFactory()
    sub, device = device_of(ana, receiver)
    game = str(uuid.uuid4())
    [row] = publish(event(ana, game=game))
    sent_before = counter("pusoy_push_sent_total", platform="webpush", outcome="sent")
    assert send(row) == "sent"
    row.refresh_from_db()
    assert row.state == OutboxState.SENT
    [push] = receiver.received(sub)
    assert push.payload["data"] == {"kind": "your_turn", "game": game, "event": str(row.event_id)}
    assert counter("pusoy_push_sent_total", platform="webpush", outcome="sent") == sent_before + 1
    device.refresh_from_db()
    assert device.last_sent_at is not None
    assert send(row) == "skipped"  # a duplicated task does nothing
    assert len(receiver.received(sub)) == 1


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_deletes_the_device_at_once(receiver, status):
    ana = PlayerFactory()
    sub, device = device_of(ana, receiver)
    receiver.always(sub, status)
    [row, later] = publish(event(ana), event(ana))
    removed = counter("pusoy_push_tokens_removed_total", platform="webpush")
    assert send(row) == "gone"
    assert not Device.objects.filter(pk=device.pk).exists()
    assert not Outbox.objects.filter(pk__in=[row.pk, later.pk]).exists()  # never retried
    assert counter("pusoy_push_tokens_removed_total", platform="webpush") == removed + 1


def test_429_is_retried_no_sooner_than_retry_after(receiver):
    ana = PlayerFactory()
    sub, _ = device_of(ana, receiver)
    receiver.answer(sub, (429, {"Retry-After": "120"}))
    [row] = publish(event(ana))
    started = timezone.now()
    assert send(row) == "retrying"
    row.refresh_from_db()
    assert row.state == OutboxState.PENDING
    assert row.last_status == 429
    assert row.next_attempt_at >= started + dt.timedelta(seconds=120)
    # Longer than a countdown: the sweep queues it once due.
    assert row.queued is False
    assert services.outbox_due_queue() == 0
    assert services.outbox_due_queue(now=row.next_attempt_at) == 1


def test_retries_stop_after_the_last_attempt(receiver, settings):
    settings.PUSH_MAX_ATTEMPTS = 2
    ana = PlayerFactory()
    sub, _ = device_of(ana, receiver)
    receiver.always(sub, 503)
    [row] = publish(event(ana))
    assert send(row, 1) == "retrying"
    assert send(row, 2) == "failed"
    row.refresh_from_db()
    assert (row.state, row.last_status) == (OutboxState.FAILED, 503)


def test_a_newer_push_of_the_same_game_supersedes_an_unsent_one(receiver):
    ana = PlayerFactory()
    sub, _ = device_of(ana, receiver)
    game = str(uuid.uuid4())
    [older] = publish(event(ana, game=game))
    [newer] = publish(event(ana, "deadline_soon", game=game))
    [other_game] = publish(event(ana))
    assert send(older) == "superseded"
    assert send(newer) == "sent"
    assert send(other_game) == "sent"
    assert [p.payload["data"]["kind"] for p in receiver.received(sub)] == [
        "deadline_soon",
        "your_turn",
    ]
    topics = [p.headers["Topic"] for p in receiver.received(sub)]
    assert topics[0] != topics[1]


def test_a_platform_turned_off_fails_its_pending_pushes(receiver, settings):
    ana = PlayerFactory()
    device_of(ana, receiver)
    [row] = publish(event(ana))
    settings.PUSH_VAPID_PRIVATE_KEY = ""
    assert send(row) == "failed"


def test_the_retry_delay_honours_retry_after_within_the_cap(settings):
    settings.PUSH_RETRY_BASE_SECONDS = 1
    settings.PUSH_RETRY_MAX_SECONDS = 60
    assert timing.retry_delay(1, retry_after=30) >= 30
    assert timing.retry_delay(1, retry_after=3600) == 60
    assert 0 <= timing.retry_delay(1) <= 1


def test_finished_rows_are_purged_after_the_retention(receiver):
    ana = PlayerFactory()
    device_of(ana, receiver)
    [row, pending] = publish(event(ana), event(ana))
    send(row)
    old = timezone.now() - dt.timedelta(days=30)
    Outbox.objects.update(created_at=old)
    assert services.outbox_purge() == 1
    assert list(Outbox.objects.values_list("pk", flat=True)) == [pending.pk]


def test_preferences_go_with_the_player():
    ana = PlayerFactory()
    services.preferences_update(player=ana, kinds={"invited": False})
    ana.delete()
    assert not Preferences.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_web_process_sends_and_retries_in_the_background(
    monkeypatch, settings
):
    """The embedded default: the runner of a web process is the push worker."""
    from pusoy_api import embedded

    settings.PUSH_RETRY_BASE_SECONDS = 0.05
    sweep = settings.CELERY_BEAT_SCHEDULE["push-send-due"]
    runner = embedded.Runner(workers=1, schedule={"push-send-due": sweep})
    runner.start()
    monkeypatch.setattr(embedded, "_runner", runner)
    receiver = Receiver()
    try:
        ana = PlayerFactory()
        sub, _ = device_of(ana, receiver)
        receiver.answer(sub, (503, {}))
        with transaction.atomic():
            services.push_events_publish(events=[event(ana)])
        receiver.wait(lambda: len(receiver.pushes) == 2)
        assert [p.status for p in receiver.received(sub)] == [503, 201]
        deadline = time.monotonic() + 20
        while Outbox.objects.filter(state=OutboxState.PENDING).exists():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert Outbox.objects.get().state == OutboxState.SENT
    finally:
        runner.stop()
        receiver.close()
