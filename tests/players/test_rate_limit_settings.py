"""The environment sets how long a cache call may wait."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
from django.conf import settings
print(json.dumps({
    "cache": settings.CACHES["default"],
}))
"""


def _settings_under(env: dict[str, str]) -> dict:
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    base["DJANGO_SETTINGS_MODULE"] = "pusoy_api.settings.base"
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT, env={**base, **env}, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_redis_calls_time_out():
    found = _settings_under({"REDIS_URL": "redis://redis:6379/1"})
    assert found["cache"]["OPTIONS"] == {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
