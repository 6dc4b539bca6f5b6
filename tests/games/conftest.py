"""Fixtures of the games tests."""

from __future__ import annotations

import pytest

from pusoy_api import task_queue


@pytest.fixture
def enqueued(monkeypatch):
    """The games app's tasks queued, as (task name, args), recorded instead of sent or
    run: those queued once a transaction commits and those the sweep queues. Other
    apps' tasks (webhooks, push) go on as usual."""
    queued: list[tuple[str, tuple]] = []
    send = task_queue.enqueue

    def record(name, *args, delay: float = 0.0) -> bool:
        if not name.startswith("games."):
            return send(name, *args, delay=delay)
        queued.append((name, args))
        return True

    # enqueue_on_commit looks `enqueue` up when the transaction commits.
    monkeypatch.setattr(task_queue, "enqueue", record)
    return queued
