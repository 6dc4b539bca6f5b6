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


def supervise_and_stop(tmp_path: Path, program: str, *, terms: int) -> tuple[str, str]:
    """Run `program` (Python, given a record file and a ready file) under `supervise`, send
    the supervisor `terms` TERMs once it is ready, and wait for it to exit cleanly: what
    the program recorded, and the supervisor's stderr."""
    source, record, ready = tmp_path / "program.py", tmp_path / "record", tmp_path / "ready"
    source.write_text(program)
    stops = "\n        sleep 0.2\n        ".join(['kill -TERM "$supervisor"'] * terms)
    script = f"""
        source scripts/supervise.sh
        supervise "program" {sys.executable} {source} {record} {ready} &
        supervisor=$!
        until [ -e {ready} ]; do sleep 0.05; done
        {stops}
        wait "$supervisor"
    """
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return record.read_text(), done.stderr


def test_a_supervisor_signalled_twice_stops_its_process_once(tmp_path):
    """A stop that signals every process of serve.sh (`pkill -f scripts/serve.sh`) reaches
    a supervisor, and serve.sh, whose cleanup then signals the supervisor again: the
    process must be sent one TERM, not one per signal (a second TERM caught Celery beat
    in the middle of its exit, which printed a traceback)."""
    record, stderr = supervise_and_stop(tmp_path, STAND_IN, terms=2)
    assert record == "T"  # one TERM
    assert "starting it again" not in stderr  # stopped, not restarted


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
    record, _stderr = supervise_and_stop(tmp_path, MASTER, terms=1)
    assert record == "alive"
