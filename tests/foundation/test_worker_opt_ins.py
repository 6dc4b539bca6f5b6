"""What a Celery worker process turns on at start (the web process never sends this signal;
see tests/ai/test_bots.py for a search in a process that has not opted in)."""

from __future__ import annotations

import pytest
from celery import signals

from pusoy.ai import expert


def test_a_worker_lets_the_expert_tune_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert, "_gc_tuned", False)
    signals.worker_init.send(sender=None)
    assert expert._gc_tuned is True
