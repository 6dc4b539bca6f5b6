"""Without a broker, the web process does what the Celery workers and beat would.

The embedded default (no CELERY_BROKER_URL) must behave for a client as the full stack
does: a move is answered as soon as it is stored, the AI seats reply a moment later (a
client sees them through the history's long-poll, as it would with workers), and a
turn's deadline passes even when nobody calls. So each web process, when it starts,
starts a small runner: task threads that run queued tasks one by one after the request
that queued them has committed and answered, and a scheduler thread that runs the beat
schedule (CELERY_BEAT_SCHEDULE: the turn sweep, the purges) at its intervals.

Differences from the full stack, by design: a task lost with its process (a restart
mid-thought) is found again by the next sweep, not redelivered by a broker; several web
processes each run the schedule, which is harmless as every task is idempotent (a sweep
that finds nothing to do does nothing); a task that fails is logged, not retried (the
sweep covers AI turns and deadlines). Tests choose EMBEDDED_TASKS=eager: tasks then run
inside the request that queued them, after its commit, which is deterministic.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

from celery import Task, current_app
from django.conf import settings
from django.db import close_old_connections, connections

from pusoy_api import request_id
from pusoy_api.task_modules import import_task_modules

logger = logging.getLogger(__name__)

_runner: Runner | None = None
_lock = threading.Lock()


class Runner:
    """Task threads fed by a queue, and a thread that queues the beat schedule's tasks."""

    def __init__(self, *, workers: int, schedule: dict[str, dict[str, Any]]) -> None:
        # None: a task thread's signal to stop (``stop``).
        self.tasks: queue.SimpleQueue[tuple[Task, tuple[Any, ...], str | None] | None] = (
            queue.SimpleQueue()
        )
        self.schedule = schedule
        self.stopping = threading.Event()
        # Daemon threads: a process that exits does not wait for a queue to drain; what
        # it drops is found again by the sweep.
        self.threads = [
            threading.Thread(target=self._work, name=f"pusoy-task-{i}", daemon=True)
            for i in range(workers)
        ]
        self.threads.append(threading.Thread(target=self._beat, name="pusoy-beat", daemon=True))

    def start(self) -> None:
        # What a worker does when it starts: import every app's tasks module, so the
        # schedule's task names resolve (nothing else in a web process imports them).
        import_task_modules()
        for thread in self.threads:
            thread.start()

    def submit(self, task: Task, args: tuple[Any, ...]) -> None:
        # The queuing request's id goes along: the task's log lines carry it.
        self.tasks.put((task, args, request_id.current()))

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the threads, each after the task it is running (a web process's runner
        lives as long as the process; a test's must not outlive the test, or its beat
        goes on running sweeps in later tests and after their database is gone)."""
        self.stopping.set()
        for _ in range(len(self.threads) - 1):
            self.tasks.put(None)
        for thread in self.threads:
            if thread.is_alive():
                thread.join(timeout)

    def _work(self) -> None:
        while (item := self.tasks.get()) is not None:
            task, args, rid = item
            close_old_connections()
            try:
                with request_id.bound(rid):
                    task(*args)
            except Exception:
                logger.exception("embedded task %s%r failed", task.name, args)
            finally:
                # A task thread holds no connection between tasks (SQLite allows one
                # writer; the pool is for requests).
                connections.close_all()

    def _beat(self) -> None:
        next_run = {name: time.monotonic() for name in self.schedule}
        while not self.stopping.is_set():
            now = time.monotonic()
            for name, entry in self.schedule.items():
                if now >= next_run[name]:
                    next_run[name] = now + float(entry["schedule"])
                    try:
                        task = current_app.tasks[entry["task"]]
                    except KeyError:
                        logger.error("embedded schedule: no task %r (%s)", entry["task"], name)
                        continue
                    self.submit(task, tuple(entry.get("args", ())))
            self.stopping.wait(max(0.05, min(next_run.values(), default=60.0) - time.monotonic()))


def runner() -> Runner | None:
    """The runner of this process, if it runs one."""
    return _runner


def start_if_embedded() -> Runner | None:
    """Start this process's runner when tasks are embedded and run in the background
    (called by the WSGI/ASGI entry points, so management commands start none)."""
    global _runner
    if settings.CELERY_BROKER_URL or settings.EMBEDDED_TASKS != "background":
        return None
    with _lock:
        if _runner is None:
            _runner = Runner(
                workers=settings.EMBEDDED_TASK_THREADS, schedule=settings.CELERY_BEAT_SCHEDULE
            )
            _runner.start()
            logger.info(
                "no broker: tasks (AI moves, the turn sweep) run in the background of this "
                "process (%d task thread(s))",
                settings.EMBEDDED_TASK_THREADS,
            )
    return _runner
