"""Celery tasks of push, routed to their own queue (settings CELERY_TASK_ROUTES, PUSH_QUEUE)
so a provider that hangs never holds up a move, an AI turn or a webhook. Tasks take ids
and call a service."""

from __future__ import annotations

from celery import shared_task

from push import services
from pusoy_api.transient import TRANSIENT


@shared_task(
    name="push.send",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def send(outbox_id: int, attempt: int) -> str:
    """Make attempt `attempt` of one push (nothing if it was made already)."""
    return services.push_send(outbox_id=outbox_id, attempt=attempt)


@shared_task(
    name="push.send_many",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def send_many(pending: list[list[int]]) -> int:
    """Make each (outbox id, attempt) in turn: a batch costs the broker one message, not
    one per push (a retried batch redoes nothing already made: each attempt is claimed)."""
    for outbox_id, attempt in pending:
        services.push_send(outbox_id=outbox_id, attempt=attempt)
    return len(pending)


@shared_task(name="push.fan_out")
def fan_out(pending: list[list[int]]) -> int:
    """Split a commit's pushes into batches, one task each, so every push worker process
    takes a share: they leave the web process as this one message."""
    services.queue_batches([(outbox_id, attempt) for outbox_id, attempt in pending])
    return len(pending)


@shared_task(name="push.send_due", autoretry_for=TRANSIENT, max_retries=3)
def send_due() -> int:
    """Periodic (celery beat): queue retries that are due and sends whose task was lost."""
    return services.outbox_due_queue()


@shared_task(name="push.purge", autoretry_for=TRANSIENT, max_retries=3)
def purge() -> int:
    """Periodic (celery beat): delete finished outbox rows past PUSH_RETENTION_DAYS."""
    return services.outbox_purge()
