"""Celery tasks of webhooks, routed to their own queue (settings CELERY_TASK_ROUTES) so a
slow receiver never holds up an AI turn. Tasks take ids and call a service."""

from __future__ import annotations

from celery import shared_task

from pusoy_api.transient import TRANSIENT
from webhooks import queueing, services


@shared_task(
    name="webhooks.deliver",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def deliver(message_id: int, attempt: int) -> str:
    """Make attempt `attempt` of one message (nothing if it was made already)."""
    return services.message_deliver(message_id=message_id, attempt=attempt)


@shared_task(name="webhooks.fan_out")
def fan_out(pending: list[list[int]]) -> int:
    """Queue one delivery task per (message id, attempt): the events of one commit leave
    the web process as this one message."""
    queueing.queue_deliveries([(message_id, attempt) for message_id, attempt in pending])
    return len(pending)


@shared_task(name="webhooks.deliver_due", autoretry_for=TRANSIENT, max_retries=3)
def deliver_due() -> int:
    """Periodic (celery beat): queue retries that are due and deliveries whose task was lost."""
    return services.messages_due_queue()


@shared_task(name="webhooks.purge_deliveries", autoretry_for=TRANSIENT, max_retries=3)
def purge_deliveries() -> int:
    """Periodic (celery beat): delete delivery log rows and finished outbox rows past
    WEBHOOK_LOG_RETENTION_DAYS. How many went."""
    return services.deliveries_purge()
