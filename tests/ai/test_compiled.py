"""The compiled search (pusoy.compiled): used only while current, and it plays exactly
as the sources do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pusoy import compiled
from pusoy.ai import expert, heuristic
from pusoy.engine import fast

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_runs_the_sources():
    # The test settings set PUSOY_COMPILED=0: every other test checks the code as written.
    assert compiled.STATUS == "python (PUSOY_COMPILED=0)"
    for module in (expert, heuristic, fast):
        assert not compiled.is_compiled(module)
        assert module.__file__ is not None
        assert module.__file__.endswith(".py")


def _build() -> Path:
    directory = compiled.build_dir()
    if compiled.status(directory, True) != "compiled":
        if os.environ.get("PUSOY_REQUIRE_SERVICES") == "1":
            pytest.fail(f"no current compiled build in CI: {compiled.status(directory, True)}")
        pytest.skip("no current compiled build (python scripts/build_compiled.py)")
    return directory


def test_a_build_is_used_only_while_it_matches_the_sources(tmp_path):
    directory = _build()
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    assert compiled.status(copy, True) == "compiled"
    assert compiled.status(copy, False) == "python (PUSOY_COMPILED=0)"

    manifest = json.loads((copy / compiled.MANIFEST).read_text())
    manifest["sources"]["pusoy/ai/expert.py"] = "0" * 64
    (copy / compiled.MANIFEST).write_text(json.dumps(manifest))
    assert "the sources changed" in compiled.status(copy, True)

    manifest["sources"] = compiled.source_hashes()
    manifest["python"] = "2.7.18"
    (copy / compiled.MANIFEST).write_text(json.dumps(manifest))
    assert "another Python" in compiled.status(copy, True)

    manifest["python"] = sys.version
    (copy / compiled.MANIFEST).write_text(json.dumps(manifest))
    compiled.extension_path(copy, "pusoy.ai.expert").unlink()
    assert "lacks pusoy.ai.expert" in compiled.status(copy, True)

    (copy / compiled.MANIFEST).unlink()
    assert compiled.status(copy, True).startswith("python (no build in")

    # A fresh interpreter pointed at a stale build imports the sources.
    shutil.rmtree(copy)
    shutil.copytree(directory, copy)
    manifest = json.loads((copy / compiled.MANIFEST).read_text())
    manifest["sources"]["pusoy/engine/fast.py"] = "0" * 64
    (copy / compiled.MANIFEST).write_text(json.dumps(manifest))
    probe = (
        "from pusoy import compiled; compiled.install(); from pusoy.engine import fast; "
        "print(compiled.STATUS, compiled.is_compiled(fast))"
    )
    stale = _run(["-c", probe], "1", copy.parent)
    assert stale == "python (the sources changed since the build: rebuild) False"


def _run(args: list[str], use: str, base: Path | None = None) -> str:
    env = {**os.environ, "PUSOY_COMPILED": use, "PYTHONPATH": str(ROOT)}
    if base is not None:
        env["PUSOY_COMPILED_DIR"] = str(base)
    done = subprocess.run(
        [sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_the_compiled_search_plays_the_same_moves_as_the_sources():
    directory = _build()
    probe = ["-m", "tests.ai.compiled_probe", "40"]
    fast_run = json.loads(_run(probe, "1", directory.parent))
    slow_run = json.loads(_run(probe, "0"))
    assert fast_run["status"] == "compiled"
    assert fast_run["expert_compiled"] is True
    assert slow_run["status"] == "python (PUSOY_COMPILED=0)"
    assert slow_run["expert_compiled"] is False
    assert fast_run["arena_deals"] == slow_run["arena_deals"] == 4
    assert fast_run["moves"] == slow_run["moves"] > 1000
    assert fast_run["digest"] == slow_run["digest"]
