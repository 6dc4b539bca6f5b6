"""Celery task wiring: transient database errors are retried, anything else surfaces."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from games import services, tasks
from pusoy_api.celery import app as celery_app


def test_ai_move_retries_transient_database_errors(monkeypatch):
    calls = []

    def flaky(**kwargs):
        calls.append(kwargs)
        if len(calls) < 3:
            raise OperationalError("server closed the connection unexpectedly")
        return True

    monkeypatch.setattr(services, "ai_turn_play", flaky)
    # Let the retry happen instead of raising at once, as a worker would. (Under the
    # name the Django settings give it: Celery 5.6 reads that one first.)
    monkeypatch.setitem(celery_app.conf, "CELERY_TASK_EAGER_PROPAGATES", False)
    # In eager mode a retry runs the task again at once (no countdown) inside the call.
    tasks.ai_move.apply(args=("g", 1, 5), throw=False)
    assert len(calls) == 3
    assert calls[-1] == {"game_id": "g", "deal_number": 1, "expected_seq": 5}


def test_ai_move_does_not_retry_bugs(monkeypatch):
    calls = []

    def broken(**kwargs):
        calls.append(kwargs)
        raise KeyError("bug")

    monkeypatch.setattr(services, "ai_turn_play", broken)
    with pytest.raises(KeyError):
        tasks.ai_move.apply(args=("g", 1, 5), throw=True)
    assert len(calls) == 1


def test_task_options_for_lost_workers():
    from pusoy_api.celery import app

    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.accept_content == ["json"]
    assert tasks.ai_move.max_retries >= 3
    assert "sweep-turns" in app.conf.beat_schedule
