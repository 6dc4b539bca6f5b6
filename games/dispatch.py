"""How the games app queues its tasks (AI turns, sweeps): through pusoy_api.task_queue,
the one way every app queues work after a commit (its docstring has the policy: a
bounded publish, a broker error logged and left to the sweep, embedded runs without a
broker). For games the sweep is `games.tasks.sweep_turns`: an AI turn waiting longer than
AI_STALL_SECONDS is queued again."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from pusoy_api.task_queue import BROKER_ERRORS, enqueue

__all__ = ["BROKER_ERRORS", "enqueue", "enqueue_on_commit"]


def enqueue_on_commit(name: str, *args: Any) -> None:
    """Queue the task `name` with `args` once the current transaction commits (at once
    outside one)."""
    # `enqueue` is looked up at commit time, so tests can record what is queued
    # (tests/games/conftest.py).
    transaction.on_commit(lambda: enqueue(name, *args))
