"""Queueing Celery tasks: the one place that decides how a task leaves the process.

A request queues a task once its transaction has committed, so the task never sees (or
misses) rows that are not there yet. By then the request's work is done and stored: a
broker that is down must not turn it into an error. So a publish is bounded (the
broker's connect and socket timeouts and `task_publish_retry_policy`, in settings) and a
broker error is logged, not raised. Whatever was not queued is found again by the
periodic sweep (`games.tasks.sweep_turns`: an AI turn waiting longer than
AI_STALL_SECONDS is queued again), and every task here is idempotent.

Without a broker the task runs in this process (pusoy_api/embedded.py): in the
background runner of a web process, or, where none runs (tests, commands), right after
the commit in the same thread, its errors propagating.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task
from django.db import transaction
from kombu.exceptions import ConnectionError as BrokerConnectionError
from kombu.exceptions import OperationalError as BrokerOperationalError

from pusoy_api import embedded

logger = logging.getLogger(__name__)

# What a publish raises when the broker is unreachable or stops answering (kombu turns
# the transport's connection errors into its OperationalError; the rest is belt and braces).
BROKER_ERRORS: tuple[type[BaseException], ...] = (
    BrokerOperationalError,
    BrokerConnectionError,
    OSError,
)


def enqueue(task: Task, *args: Any) -> bool:
    """Queue `task(*args)` now; False (logged) when the broker could not take it."""
    if task.app.conf.task_always_eager:
        runner = embedded.runner()
        if runner is not None:
            runner.submit(task, args)
        else:
            task.delay(*args)
        return True
    try:
        # Nobody reads these results: not subscribing to one also keeps a down result
        # backend (the same Redis, usually) from stalling the publish.
        task.apply_async(args, ignore_result=True)
    except BROKER_ERRORS as exc:
        logger.warning(
            "could not queue %s%r, the broker is unreachable (%s: %s); "
            "the periodic sweep will queue it again",
            task.name,
            args,
            type(exc).__name__,
            exc,
        )
        return False
    return True


def enqueue_on_commit(task: Task, *args: Any) -> None:
    """Queue `task(*args)` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: enqueue(task, *args))
