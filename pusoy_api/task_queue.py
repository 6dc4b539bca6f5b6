"""Queueing Celery tasks: the one way a task leaves the process, for every app.

A request queues a task once its transaction has committed, so the task never sees (or
misses) rows that are not there yet. By then the request's work is done and stored: a
broker that is down must not turn it into an error. So a publish is bounded (the
broker's connect and socket timeouts and `task_publish_retry_policy`, in settings) and a
broker error is logged, not raised; each app's periodic sweep queues again whatever was
not queued, and every task queued here is idempotent.

A delay is a Celery countdown only while it is well below the broker's visibility
timeout (a Redis message held longer than that is handed out again); longer waits are
the sweeps'.

Without a broker the task runs in this process (pusoy_api/embedded.py): in the
background runner of a web process (a delayed one from a timer thread), or, where none
runs (tests, commands), an immediate one right away in the same thread, its errors
propagating, and a delayed one is left to the sweep.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import Task, current_app
from django.conf import settings
from django.db import transaction
from kombu.exceptions import ConnectionError as BrokerConnectionError
from kombu.exceptions import OperationalError as BrokerOperationalError

from pusoy_api import embedded
from pusoy_api.task_modules import import_task_modules

logger = logging.getLogger(__name__)

# What a publish raises when the broker is unreachable or stops answering (kombu turns
# the transport's connection errors into its OperationalError; the rest is belt and braces).
BROKER_ERRORS: tuple[type[BaseException], ...] = (
    BrokerOperationalError,
    BrokerConnectionError,
    OSError,
)


def countdown_max() -> float:
    """The longest wait handed to the broker as a countdown."""
    visibility = float(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600))
    return min(60.0, visibility / 2)


# Celery's import of the task modules returns at once to a second thread that asks while
# the first is still importing: that thread would miss the task (tests/foundation/
# test_task_queue_threads.py). A web process serves requests on several threads.
_import_lock = threading.Lock()


def task_named(name: str) -> Task:
    """The registered task of that name. Callers queue by name, so a service never
    imports a task module (tasks import services; the name breaks the circle)."""
    tasks = current_app.tasks
    if name not in tasks:
        # A web process imports the apps' task modules only when asked: the
        # autodiscovery a worker does at start (pusoy_api/celery.py), done once.
        with _import_lock:
            if name not in tasks:
                import_task_modules()
    return tasks[name]


def enqueue(name: str, *args: Any, delay: float = 0.0) -> bool:
    """Queue the task `name` with `args`, after `delay` seconds; False (logged) when it
    was not queued: the broker could not take it, or it is delayed and nothing in this
    process runs it."""
    task = task_named(name)
    if task.app.conf.task_always_eager:
        runner = embedded.runner()
        if runner is None:
            if delay > 0:
                return False
            task.delay(*args)
        elif delay > 0:
            timer = threading.Timer(delay, runner.submit, (task, args))
            timer.daemon = True
            timer.start()
        else:
            runner.submit(task, args)
        return True
    try:
        # Nobody reads these results: not subscribing to one also keeps a down result
        # backend (the same Redis, usually) from stalling the publish.
        task.apply_async(args, countdown=delay or None, ignore_result=True)
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


def enqueue_on_commit(name: str, *args: Any) -> None:
    """Queue the task `name` with `args` once the current transaction commits (at once
    outside one)."""
    transaction.on_commit(lambda: enqueue(name, *args))
