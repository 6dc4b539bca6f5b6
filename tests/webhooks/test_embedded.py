"""Without a broker (development), a web process's embedded runner delivers webhooks in
its background threads, retries included, as a webhooks worker would."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import transaction
from django.test import override_settings

from pusoy_api import embedded
from tests.factories import PlayerFactory
from webhooks import services
from webhooks.models import MessageState, WebhookDelivery, WebhookMessage

from .helpers import Receiver, event_payload, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@override_settings(WEBHOOK_RETRY_BASE_SECONDS=0.05, WEBHOOK_RETRY_MAX_SECONDS=0.2)
def test_the_embedded_runner_delivers_and_retries_in_the_background(monkeypatch):
    # The schedule a web process runs for webhooks: the sweep of due retries.
    sweep = settings.CELERY_BEAT_SCHEDULE["webhooks-deliver-due"]
    runner = embedded.Runner(workers=1, schedule={"webhooks-deliver-due": sweep})
    runner.start()
    monkeypatch.setattr(embedded, "_runner", runner)
    release = threading.Event()
    receiver = Receiver(statuses=[500], hold=release)
    try:
        ana = PlayerFactory(username="ana")
        services.webhook_create(owner=ana, url=receiver.url, events=["your_turn"])
        with transaction.atomic():
            services.webhook_events_publish(events=[event_payload(ana)])
        # The commit returned while the runner's thread is still at the receiver.
        assert receiver.entered.wait(20)
        release.set()
        wait_for(lambda: WebhookMessage.objects.filter(state=MessageState.DELIVERED).exists())
        assert list(WebhookDelivery.objects.values_list("attempt", "status_code")) == [
            (2, 200),
            (1, 500),
        ]
    finally:
        runner.stop()
        receiver.close()
