#!/usr/bin/env python3
"""Saves the web client's main screens (lobby, table, replay, phone tables) as PNGs under
docs/screenshots/, for the README: runs the client's browser tests, which take them
when PUSOY_SCREENSHOTS names a directory. Not part of CI; run it after changing a screen.

    python scripts/screenshots.py [extra pytest arguments]
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    env = {**os.environ, "PUSOY_SCREENSHOTS": str(ROOT / "docs" / "screenshots")}
    command = [
        sys.executable, "-m", "pytest", "tests/browser/test_web_client.py",
        "tests/browser/test_screens.py",
        "-p", "no:xdist", "-q", *sys.argv[1:],
    ]  # fmt: skip
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    raise SystemExit(main())
