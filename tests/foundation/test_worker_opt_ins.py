"""What a Celery worker process turns on at start (the web process never sends this signal;
see tests/ai/test_bots.py for a search in a process that has not opted in)."""

from __future__ import annotations

import pytest
from celery import signals

from pusoy.ai import expert
from pusoy_api import task_signals


def test_a_worker_lets_the_expert_tune_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not ``worker_init.send``: that also runs Celery's own Django fixup, which wants the
    # worker as sender and would install its per-task database handling in this process.
    assert task_signals._on_worker_init in signals.worker_init._live_receivers(sender=None)
    monkeypatch.setattr(expert, "_gc_tuned", False)
    task_signals._on_worker_init()
    assert expert._gc_tuned is True
