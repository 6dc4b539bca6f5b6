"""`supervise` (scripts/supervise.sh, what scripts/serve.sh runs each process under),
with a stand-in process that records every SIGTERM it is sent."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Records each TERM, and exits a second after the first, as a worker's warm shutdown does.
STAND_IN = textwrap.dedent(
    """
    import signal, sys, time
    from pathlib import Path
    record, ready = Path(sys.argv[1]), Path(sys.argv[2])
    terms = []
    signal.signal(signal.SIGTERM, lambda *_: (terms.append(1), record.write_text("T" * len(terms))))
    ready.write_text("ready")
    while not terms:
        time.sleep(0.01)
    time.sleep(1.0)
    """
)


def test_a_supervisor_signalled_twice_stops_its_process_once(tmp_path):
    """A stop that signals every process of serve.sh (`pkill -f scripts/serve.sh`) reaches
    a supervisor, and serve.sh, whose cleanup then signals the supervisor again: the
    process must be sent one TERM, not one per signal (a second TERM caught Celery beat
    in the middle of its exit, which printed a traceback)."""
    stand_in, record, ready = tmp_path / "stand_in.py", tmp_path / "terms", tmp_path / "ready"
    stand_in.write_text(STAND_IN)
    script = f"""
        source scripts/supervise.sh
        supervise "stand-in" {sys.executable} {stand_in} {record} {ready} &
        supervisor=$!
        until [ -e {ready} ]; do sleep 0.05; done
        kill -TERM "$supervisor"
        sleep 0.2
        kill -TERM "$supervisor"
        wait "$supervisor"
    """
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert record.read_text() == "T"  # one TERM
    assert "starting it again" not in done.stderr  # stopped, not restarted


# A master with a worker of its own (in its process group, as a Celery pool child is):
# on TERM it checks that its worker is still alive (it stops its workers itself), records
# that, and stops it.
MASTER = textwrap.dedent(
    """
    import signal, subprocess, sys, time
    from pathlib import Path
    record, ready = Path(sys.argv[1]), Path(sys.argv[2])
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    ready.write_text("ready")
    while not stopping:
        time.sleep(0.01)
    time.sleep(0.3)
    record.write_text("alive" if worker.poll() is None else "killed")
    worker.terminate()
    worker.wait()
    """
)


def test_a_stopping_supervisor_signals_the_master_and_lets_it_stop_its_workers(tmp_path):
    """Celery's master finishes the task in hand at a warm shutdown; a TERM sent to its
    whole process group killed its pool children mid-task (WorkerLostError)."""
    master, record, ready = tmp_path / "master.py", tmp_path / "worker", tmp_path / "ready"
    master.write_text(MASTER)
    script = f"""
        source scripts/supervise.sh
        supervise "master" {sys.executable} {master} {record} {ready} &
        supervisor=$!
        until [ -e {ready} ]; do sleep 0.05; done
        kill -TERM "$supervisor"
        wait "$supervisor"
    """
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert record.read_text() == "alive"
