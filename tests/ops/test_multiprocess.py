"""With PROMETHEUS_MULTIPROC_DIR, what several processes record is summed at scrape,
and a dead process's gauges stop counting (gunicorn's child_exit, Celery's
worker_process_shutdown), while its counters stay."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]

RECORD = """
import os
from pusoy_api import metrics
metrics.move_committed("player")
metrics.move_committed("ai:greedy")
metrics.LONGPOLL_WAITERS.set(3)
print(os.getpid())
"""
SCRAPE = """
import sys
from prometheus_client import CollectorRegistry, generate_latest, multiprocess
for pid in sys.argv[1:]:
    multiprocess.mark_process_dead(int(pid))
registry = CollectorRegistry()
multiprocess.MultiProcessCollector(registry)
sys.stdout.write(generate_latest(registry).decode())
"""


def _run(code: str, directory: Path, *args: str) -> str:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout


def _value(text: str, name: str, **labels: str) -> float:
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0


def test_processes_are_summed_and_a_dead_ones_gauges_drop_out(tmp_path):
    first = _run(RECORD, tmp_path).strip()
    _run(RECORD, tmp_path)
    both = _run(SCRAPE, tmp_path)
    assert _value(both, "pusoy_moves_total", actor="human", ai_level="") == 2
    assert _value(both, "pusoy_moves_total", actor="ai", ai_level="greedy") == 2
    assert _value(both, "pusoy_longpoll_waiters") == 6
    after = _run(SCRAPE, tmp_path, first)  # the first process died
    assert _value(after, "pusoy_longpoll_waiters") == 3
    assert _value(after, "pusoy_moves_total", actor="human", ai_level="") == 2


def test_gunicorns_master_sets_the_directory_before_prometheus_client_is_imported():
    """`gunicorn --config python:pusoy_api.gunicorn_conf` imports the package, then the
    config that sets PROMETHEUS_MULTIPROC_DIR; prometheus-client picks its mode when it
    is imported, so the package must not import it (workers would inherit the wrong one)."""
    code = (
        "import os, sys, shutil; import pusoy_api.gunicorn_conf as conf; "
        "print('prometheus_client' in sys.modules, "
        "bool(os.environ.get('PROMETHEUS_MULTIPROC_DIR'))); "
        "shutil.rmtree(os.environ['PROMETHEUS_MULTIPROC_DIR'])"
    )
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout.split() == ["False", "True"], done.stderr
