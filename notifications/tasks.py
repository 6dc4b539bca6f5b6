"""Celery tasks of the event feed. Tasks take ids and call a service."""

from __future__ import annotations

from celery import shared_task

from notifications import retention
from pusoy_api.transient import TRANSIENT


@shared_task(name="notifications.purge_events", autoretry_for=TRANSIENT, max_retries=3)
def purge_events() -> int:
    """Periodic (celery beat): delete feed events past EVENTS_TTL_DAYS and old tickets."""
    return retention.events_purge()
