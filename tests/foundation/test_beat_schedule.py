"""Every periodic task the schedule names exists: a renamed or moved task would otherwise
be sent by beat (or the embedded scheduler) and refused by every worker, silently."""

from __future__ import annotations

from celery import current_app
from django.conf import settings

from pusoy_api.task_modules import import_task_modules


def test_every_scheduled_task_is_registered():
    import_task_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled, "the schedule is empty"
    assert scheduled <= set(current_app.tasks), scheduled - set(current_app.tasks)


def test_each_app_purges_its_own_rows():
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {
        "games.purge_idempotency_keys",
        "notifications.purge_events",
        "webhooks.purge_deliveries",
    } <= scheduled
