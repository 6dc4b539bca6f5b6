"""The web server's access log (uvicorn's line per request) is off unless asked for: it
costs the event loop every request pays for, and the metrics and the `django.request`
error lines already say what it would (docs/operations.md, "Logs")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def accesslog(tmp_path: Path, **env: str) -> str:
    base = {k: v for k, v in os.environ.items() if k not in ("ACCESS_LOG", "DEV_MODE")}
    done = subprocess.run(
        [sys.executable, "-c", "import pusoy_api.gunicorn_conf as c; print(c.accesslog)"],
        cwd=ROOT,
        env={**base, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "None"),
        ({"ACCESS_LOG": "0"}, "None"),
        ({"ACCESS_LOG": "1"}, "-"),
        ({"ACCESS_LOG": "true"}, "-"),
        # A development run shows its requests in the terminal, unless told not to.
        ({"DEV_MODE": "1"}, "-"),
        ({"DEV_MODE": "1", "ACCESS_LOG": "false"}, "None"),
    ],
)
def test_the_access_log_is_off_unless_asked_for(tmp_path, env, expected):
    assert accesslog(tmp_path, **env) == expected
