"""Read the settings a given environment produces, in a fresh interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def probe(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run `script` under `pusoy_api.settings.base` with only `env` (and PATH, HOME, ...)."""
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    base["DJANGO_SETTINGS_MODULE"] = "pusoy_api.settings.base"
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
    )


def settings_under(script: str, env: dict[str, str]) -> dict:
    """The JSON the script prints last, which must succeed."""
    out = probe(script, env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])
