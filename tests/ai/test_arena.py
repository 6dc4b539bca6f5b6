"""The arena: a few deals in two processes print the table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from games.ai import Budget
from games.ai.arena import format_report, rotation, run_arena, wilson
from games.engine import Rules

ROOT = Path(__file__).resolve().parents[2]


def test_rotation_gives_each_level_each_seat() -> None:
    seats = ("expert", "heuristic", "heuristic", "heuristic")
    firsts = [rotation(seats, i).index("expert") for i in range(8)]
    assert sorted(firsts) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41
    assert 0.59 < hi < 0.60


def test_arena_two_processes_prints_the_table() -> None:
    report = run_arena(
        ["expert", "heuristic", "greedy"],
        6,
        Rules.from_spec("hong-kong"),
        seed="smoke",
        budget=Budget(seconds=0.02),
        workers=2,
    )
    assert sum(s.wins for s in report.levels) == 6
    text = format_report(report)
    for level in ("expert", "heuristic", "greedy"):
        assert level in text
    assert "win share" in text
    assert "p95 ms" in text


def test_ai_arena_command() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "ai_arena",
            "--games",
            "4",
            "--seats",
            "random,greedy",
            "--rules",
            "philippine-online",
            "--workers",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "win share" in done.stdout
    assert "random" in done.stdout
    assert "greedy" in done.stdout
