"""The runner a web process starts when there is no broker (pusoy_api/embedded.py); what
it does for games, webhooks and pushes is tested with them."""

from __future__ import annotations

import time

from celery import current_app

from pusoy_api.embedded import Runner


def test_a_stopped_runner_leaves_no_thread_and_runs_no_more_of_its_schedule(monkeypatch):
    # A test's runner that outlived it went on running its sweeps in the tests after it,
    # and after their database was dropped.
    runs: list[float] = []

    class Sweep:
        name = "tests.sweep"

        def __call__(self) -> None:
            runs.append(time.monotonic())

    monkeypatch.setitem(current_app.tasks, "tests.sweep", Sweep())
    runner = Runner(workers=2, schedule={"sweep": {"task": "tests.sweep", "schedule": 0.05}})
    runner.start()
    deadline = time.monotonic() + 10
    while len(runs) < 3:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    runner.stop()
    assert not any(thread.is_alive() for thread in runner.threads)
    after_stop = len(runs)
    time.sleep(0.3)  # six of the schedule's intervals
    assert len(runs) == after_stop
