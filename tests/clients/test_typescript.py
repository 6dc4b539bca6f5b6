"""The TypeScript client (`clients/typescript/`): its generated types are the current
schema's, it type-checks, and its Node test plays a whole match against AI through the
real server and verifies every deal's record. Skipped without node and npm, saying so
(CI, with PUSOY_REQUIRE_SERVICES=1, fails instead)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.helpers import need

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
REGENERATE = (
    "DEV_MODE=1 python manage.py spectacular --file /tmp/openapi.yaml && "
    "(cd clients/typescript && SCHEMA=/tmp/openapi.yaml npm run generate)"
)


def run(command: list[str], *, env: dict[str, str] | None = None, timeout: float = 300):
    return subprocess.run(
        command, cwd=PACKAGE, env={**os.environ, **(env or {})}, capture_output=True,
        text=True, timeout=timeout, check=False,
    )  # fmt: skip


@contextlib.contextmanager
def locked(name: str) -> Iterator[None]:
    """One pytest-xdist worker at a time installs into the one node_modules."""
    path = Path(tempfile.gettempdir()) / f"{name}-{hashlib.sha256(bytes(PACKAGE)).hexdigest()[:12]}"
    with path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="module")
def node_modules() -> None:
    """`npm ci` when node_modules is missing or was installed from another lock file: a
    checkout (or a CI cache of node_modules) installs once."""
    need(bool(shutil.which("node") and shutil.which("npm")), "node and npm")
    lock_digest = hashlib.sha256((PACKAGE / "package-lock.json").read_bytes()).hexdigest()
    stamp = PACKAGE / "node_modules" / ".installed-from"
    with locked("pusoy-npm-ci"):
        if not stamp.exists() or stamp.read_text() != lock_digest:
            installed = run(["npm", "ci", "--no-audit", "--no-fund"], timeout=600)
            assert installed.returncode == 0, installed.stdout + installed.stderr
            stamp.write_text(lock_digest)


def test_the_generated_types_are_the_current_schema(node_modules, tmp_path):
    schema = tmp_path / "openapi.yaml"
    # As scripts/test.sh makes the schema it validates: settings read no database.
    spectacular = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--file", str(schema)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "pusoy_api.settings.test",
             "DATABASE_URL": "sqlite://:memory:"},
    )  # fmt: skip
    assert spectacular.returncode == 0, spectacular.stderr
    check = run(["npm", "run", "generate", "--", "--check"], env={"SCHEMA": str(schema)})
    assert check.returncode == 0, (
        f"clients/typescript/src/schema.ts is not the current schema's; regenerate it:\n"
        f"{REGENERATE}\n{check.stdout}{check.stderr}"
    )


def test_the_client_type_checks_and_plays_a_match_to_its_end(node_modules, server_url):
    shutil.rmtree(PACKAGE / "dist", ignore_errors=True)  # no test left from an old build
    # noEmitOnError: the build is the type check (`tsc --noEmit` checks the same).
    build = run([str(PACKAGE / "node_modules" / ".bin" / "tsc")])
    assert build.returncode == 0, build.stdout + build.stderr
    game = run(["node", "--test", "dist/test/"], env={"PUSOY_BASE_URL": server_url})
    assert game.returncode == 0, game.stdout + game.stderr
    print(game.stdout)
