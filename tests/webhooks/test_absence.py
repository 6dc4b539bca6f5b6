"""Players known to have no webhook or push device (pusoy_api.absence): their events skip
the read of those rows, and whatever adds one is seen by the very next event."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from push import services as push_services
from push.models import Outbox
from pusoy_api.domain_errors import DomainError
from tests.factories import PlayerFactory
from tests.players.test_cache_outage import BROKEN
from tests.push.receiver import Receiver
from tests.push.test_delivery import device_of, event, publish
from webhooks import services
from webhooks.models import Webhook, WebhookMessage

from .helpers import event_payload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("shared_cache")]


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()


def webhook_reads(*events) -> int:
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        services.webhook_events_publish(events=list(events))
    return sum('FROM "webhooks_webhook"' in q["sql"] for q in captured.captured_queries)


def hook_for(player, **extra) -> Webhook:
    return services.webhook_create(
        owner=player, url="http://127.0.0.1:9/hook", events=["your_turn"], **extra
    )


def test_the_second_event_of_players_without_webhooks_reads_none():
    ana, ben = PlayerFactory(), PlayerFactory()
    assert webhook_reads(event_payload(ana), event_payload(ben)) == 1
    assert webhook_reads(event_payload(ana), event_payload(ben)) == 0
    # Without a shared cache nothing is remembered.
    with override_settings(CACHE_SHARED=False):
        assert webhook_reads(event_payload(ana)) == 1


def test_a_webhook_created_after_an_absence_was_remembered_gets_the_next_event():
    ana = PlayerFactory()
    assert webhook_reads(event_payload(ana)) == 1
    assert webhook_reads(event_payload(ana)) == 0
    hook = hook_for(ana)
    assert webhook_reads(event_payload(ana)) == 1
    assert list(WebhookMessage.objects.values_list("webhook_id", flat=True)) == [hook.pk]


def test_a_webhook_turned_back_on_gets_the_next_event():
    ana = PlayerFactory()
    hook = hook_for(ana)
    services.webhook_update(webhook_id=hook.pk, owner=ana, active=False)
    assert webhook_reads(event_payload(ana)) == 1
    assert webhook_reads(event_payload(ana)) == 0
    services.webhook_update(webhook_id=hook.pk, owner=ana, active=True)
    webhook_reads(event_payload(ana))
    assert WebhookMessage.objects.filter(webhook=hook).count() == 1


def test_a_webhook_of_every_players_events_is_seen_by_everyone_s_next_event():
    ana, ops = PlayerFactory(), PlayerFactory(is_staff=True)
    assert webhook_reads(event_payload(ana)) == 1
    assert webhook_reads(event_payload(ana)) == 0
    everything = hook_for(ops, scope="all")
    webhook_reads(event_payload(ana))
    assert list(WebhookMessage.objects.values_list("webhook_id", flat=True)) == [everything.pk]


def test_an_absence_read_before_a_webhook_was_added_is_not_remembered():
    ana = PlayerFactory()
    owner = str(ana.pk)
    known = services.OWNERS.lookup([owner])  # a reader takes the version...
    hook_for(ana)  # ...a webhook commits meanwhile...
    services.OWNERS.recorded(known, [owner])  # ...and it records what it read before
    assert owner not in services.OWNERS.lookup([owner]).none
    webhook_reads(event_payload(ana))
    assert WebhookMessage.objects.count() == 1


def test_an_absence_read_while_a_webhook_was_being_added_is_dropped_at_its_commit(
    django_capture_on_commit_callbacks,
):
    ana = PlayerFactory()
    owner = str(ana.pk)
    with django_capture_on_commit_callbacks(execute=True):
        hook_for(ana)  # written, not yet committed: another transaction reads no row
        known = services.OWNERS.lookup([owner])
        services.OWNERS.recorded(known, [owner])
        assert owner in services.OWNERS.lookup([owner]).none  # true until the commit
    assert owner not in services.OWNERS.lookup([owner]).none


def test_while_the_cache_is_down_events_read_the_webhooks_and_adding_one_is_refused():
    ana = PlayerFactory()
    hook = hook_for(ana)
    assert webhook_reads(event_payload(ana)) == 1
    with override_settings(CACHES=BROKEN):
        assert webhook_reads(event_payload(ana)) == 1
        with pytest.raises(DomainError) as refused:
            hook_for(PlayerFactory())
    assert refused.value.code.status == 503
    assert WebhookMessage.objects.filter(webhook=hook).count() == 2
    assert Webhook.objects.count() == 1


def device_reads(*events) -> int:
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        push_services.push_events_publish(events=list(events))
    return sum('FROM "push_device"' in q["sql"] for q in captured.captured_queries)


def test_a_player_without_devices_is_read_once_and_a_new_device_gets_the_next_push(receiver):
    ana = PlayerFactory()
    assert device_reads(event(ana)) == 1
    assert device_reads(event(ana)) == 0
    _, phone = device_of(ana, receiver)
    (pushed,) = publish(event(ana))
    assert pushed.device_id == phone.pk
    assert Outbox.objects.count() == 1
