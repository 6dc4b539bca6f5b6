"""Schemathesis over every operation of the live API, with its default checks.

The fuzzer runs as the command-line tool against a real HTTP server (pytest-django's
live server on this run's test database), logged in as a player of its own
(tests/schemathesis_hooks.py), through every phase: the schema's examples, coverage of
each constraint's edges, random fuzzing, and stateful runs along the schema's links
(create a game, then join it, play in it, read it).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]
FUZZ_USER = {"username": "fuzzer", "password": "correct-horse-battery-staple"}
# Enough to reach every branch the schema describes while keeping CI short (about a
# minute on two cores); a seed makes a failure reproducible.
MAX_EXAMPLES = int(os.environ.get("PUSOY_FUZZ_EXAMPLES", "10"))
SEED = os.environ.get("PUSOY_FUZZ_SEED", "20261129")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    # The live server is WSGI, so Django collects the event stream's async iterator before
    # sending it, and says so; the service itself is ASGI (uvicorn) and streams it, which
    # tests/notifications/test_stream.py checks against the real server.
    pytest.mark.filterwarnings(
        "ignore:StreamingHttpResponse must consume asynchronous iterators:Warning"
    ),
]


# AI seats the fuzzer creates move in-process: keep the expert's thinking short.
@override_settings(AI_EXPERT_SECONDS=0.05)
@pytest.mark.django_db(transaction=True)
def test_schemathesis_finds_nothing(live_server, tmp_path, monkeypatch):
    # The fuzzer confirms password changes and its own account's deletion with passwords
    # it makes up: each is a failed log-in of its name, and the backoff would soon (and
    # rightly) refuse the hook's log-ins with 429. The backoff is tested on its own
    # (tests/players/test_login_limits.py, test_password_change.py, ...).
    from players import login_backoff

    monkeypatch.setattr(login_backoff, "FREE_FAILURES", 10**9)
    register = requests.post(f"{live_server.url}/api/v1/auth/register", json=FUZZ_USER, timeout=10)
    assert register.status_code == 201, register.text
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SCHEMATHESIS_HOOKS": "tests.schemathesis_hooks",
        "PUSOY_FUZZ_BASE_URL": live_server.url,
        "PUSOY_FUZZ_USERNAME": FUZZ_USER["username"],
        "PUSOY_FUZZ_PASSWORD": FUZZ_USER["password"],
    }
    run = subprocess.run(
        [
            sys.executable, "-m", "schemathesis.cli",
            "--config-file", str(ROOT / "tests" / "schemathesis.toml"),
            "run", f"{live_server.url}/api/schema/",
            "--max-examples", str(MAX_EXAMPLES),
            "--seed", SEED,
            "--request-timeout", "30",
            "--workers", "1",
            "--no-color",
            "--report", "junit", "--report-dir", str(tmp_path),
        ],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-20000:]
    # "Selected: 24/24" and "Tested: 24": every operation of the schema was exercised.
    selected = re.search(r"Selected: +(\d+)/(\d+)", output)
    tested = re.search(r"Tested: +(\d+)", output)
    assert selected is not None, output[-5000:]
    assert tested is not None, output[-5000:]
    assert int(selected.group(1)) == int(selected.group(2)) == int(tested.group(1)) >= 20
