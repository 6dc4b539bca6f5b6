"""Fixtures of the games tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def enqueued(monkeypatch):
    """The tasks queued, as (task name, args), recorded instead of sent or run: those
    queued once a transaction commits (games.dispatch) and those the sweep queues."""
    queued: list[tuple[str, tuple]] = []

    def record(name, *args) -> bool:
        queued.append((name, args))
        return True

    monkeypatch.setattr("games.dispatch.enqueue", record)
    monkeypatch.setattr("games.services.turns.enqueue", record)
    return queued
