"""A task makes the round trip through a real worker process on the Redis broker."""

from __future__ import annotations

import pytest

from games.tasks import ping


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_task_round_trip_through_real_worker(celery_worker):
    result = ping.delay("hello from the test")
    assert result.get(timeout=20) == "hello from the test"
    # It ran in the worker process, not eagerly in this one.
    assert result.status == "SUCCESS"
    assert not result.__class__.__name__.startswith("Eager")


def test_outside_worker_tests_tasks_run_in_process():
    result = ping.delay()
    assert result.__class__.__name__ == "EagerResult"
    assert result.get() == "pong"
