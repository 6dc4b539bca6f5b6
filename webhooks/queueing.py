"""Queueing delivery tasks, now or after a delay, on the webhooks queue (settings routes),
through pusoy_api.task_queue (the one policy: a bounded publish, a broker error logged and
left to the sweep, `webhooks.deliver_due`; a delay is a countdown only while well below
the broker's visibility timeout; embedded runs without a broker).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from pusoy_api import task_queue
from pusoy_api.task_queue import BROKER_ERRORS, countdown_max

__all__ = ["BROKER_ERRORS", "countdown_max", "queue_deliveries", "queue_deliveries_on_commit"]


def queue_delivery(message_id: int, attempt: int, *, delay: float = 0.0) -> bool:
    """Queue attempt `attempt` of message `message_id`; False when it was not queued."""
    return task_queue.enqueue("webhooks.deliver", message_id, attempt, delay=delay)


def queue_deliveries(pending: list[tuple[int, int]]) -> None:
    """Queue a delivery task for each (message id, attempt)."""
    for message_id, attempt in pending:
        queue_delivery(message_id, attempt)


def queue_deliveries_on_commit(messages: Iterable[tuple[int, int]]) -> None:
    """Queue (message id, attempt) pairs once the current transaction commits. Several
    go as one message that a worker fans out (`webhooks.fan_out`): a publish to the
    broker costs the committing request a few milliseconds, whatever it carries."""
    pending = list(messages)
    if not pending:
        return
    if len(pending) == 1:
        transaction.on_commit(lambda: queue_delivery(*pending[0]))
        return
    transaction.on_commit(lambda: _queue_fan_out(pending))


def _queue_fan_out(pending: list[tuple[int, int]]) -> None:
    eager = task_queue.task_named("webhooks.fan_out").app.conf.task_always_eager
    if eager and task_queue.embedded.runner() is None:
        # Run here, one task after the other, as a worker's fan-out would queue them.
        queue_deliveries(pending)
        return
    task_queue.enqueue("webhooks.fan_out", pending)
