"""The README's configuration tables name every variable the code reads."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Where the running service reads its environment (test settings are not configuration).
SOURCES = [
    *(ROOT / "pusoy_api").rglob("*.py"),
    *(ROOT / "games").rglob("*.py"),
    *(ROOT / "players").rglob("*.py"),
    ROOT / "scripts" / "serve.sh",
]
READS = [
    re.compile(r"""env\.\w+\(\s*["']([A-Z][A-Z0-9_]+)["']"""),
    re.compile(r"""os\.environ(?:\.get)?[(\[]\s*["']([A-Z][A-Z0-9_]+)["']"""),
    re.compile(r"\$\{([A-Z][A-Z0-9_]+):-"),
]
NOT_CONFIGURATION = {"DJANGO_SETTINGS_MODULE", "PYTHON", "VENV", "TMPDIR"}


def test_every_environment_variable_is_in_the_readme():
    read = {
        name
        for path in SOURCES
        if path.name != "test.py"
        for pattern in READS
        for name in pattern.findall(path.read_text())
    } - NOT_CONFIGURATION
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Configuration") : readme.index("## Docker")]
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", section))
    assert read - documented == set()
    assert {"HOST", "GUNICORN_TIMEOUT", "CELERY_CONCURRENCY", "DEV_MODE"} <= read
