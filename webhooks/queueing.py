"""Queueing delivery tasks, now or after a delay, on the webhooks queue (settings routes).

Like games.dispatch: a publish is bounded and a broker error is logged, not raised (the
event is stored; the sweep, `webhooks.deliver_due`, queues whatever was not). A delay is
a Celery countdown only while it is well below the broker's visibility timeout (a Redis
message held longer than that is handed out again); longer waits are the sweep's.
Without a broker the embedded runner of a web process runs the task (a delayed one from
a timer thread); where none runs (tests), an immediate one runs in the calling thread
and a delayed one is left to the sweep.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction
from kombu.exceptions import ConnectionError as BrokerConnectionError
from kombu.exceptions import OperationalError as BrokerOperationalError

from pusoy_api import embedded

logger = logging.getLogger(__name__)

BROKER_ERRORS: tuple[type[BaseException], ...] = (
    BrokerOperationalError,
    BrokerConnectionError,
    OSError,
)


def countdown_max() -> float:
    """The longest wait handed to the broker as a countdown."""
    visibility = float(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600))
    return min(60.0, visibility / 2)


def queue_delivery(message_id: int, attempt: int, *, delay: float = 0.0) -> bool:
    """Queue attempt `attempt` of message `message_id`; False when it was not queued."""
    from webhooks.tasks import deliver

    args = (message_id, attempt)
    if deliver.app.conf.task_always_eager:
        runner = embedded.runner()
        if runner is None:
            if delay > 0:
                return False
            deliver.delay(*args)
            return True
        if delay > 0:
            timer = threading.Timer(delay, runner.submit, (deliver, args))
            timer.daemon = True
            timer.start()
        else:
            runner.submit(deliver, args)
        return True
    try:
        deliver.apply_async(args, countdown=delay or None, ignore_result=True)
    except BROKER_ERRORS as exc:
        logger.warning(
            "could not queue webhook delivery %r (%s: %s); the sweep will queue it again",
            args,
            type(exc).__name__,
            exc,
        )
        return False
    return True


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
    from webhooks.tasks import fan_out

    if fan_out.app.conf.task_always_eager:
        runner = embedded.runner()
        if runner is None:
            queue_deliveries(pending)
        else:
            runner.submit(fan_out, (pending,))
        return
    try:
        fan_out.apply_async((pending,), ignore_result=True)
    except BROKER_ERRORS as exc:
        logger.warning(
            "could not queue %d webhook deliveries (%s: %s); the sweep will queue them again",
            len(pending),
            type(exc).__name__,
            exc,
        )
