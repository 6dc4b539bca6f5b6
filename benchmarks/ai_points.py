"""Strength on points (issue 12): ``python -m benchmarks.ai_points [--deals N] [--only NAME]``.

Each matchup is an arena run (``games.ai.arena``: seats rotated, every deal played once
per rotation) and prints win shares and, per level, the game's points and the zero-sum
payments per seat per deal with 95% intervals. A level "plays better for points" when
its payment per deal is above zero with the interval clear of it: it took more from the
table than it gave.

Matchups (names for ``--only``):

- ``expert-<scoring>``: the expert at 100 ms alone against three heuristics, under each
  scoring system, 4 players; ``expert-3p``: the same in 3-player deals (the 52nd card
  dealt face up);
- ``heuristic-<scoring>``: today's heuristic alone against three copies of the heuristic
  as it was before it played for points (``benchmarks/frozen``);
- ``budget``: the expert at 1 s (two seats) against the expert at 100 ms (two seats).

The expert's budget is wall-clock time: run on an otherwise idle machine with one worker
per core, or its numbers understate it. Numbers only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from games.ai import Budget
from games.ai.arena import format_report, run_arena
from games.engine.rules import Rules

FROZEN = "benchmarks.frozen.heuristic_2026_11:heuristic_move"
SCORINGS = ("deuces-double", "cards-left", "cards-left-tiered")


def matchups() -> dict[str, tuple[list[str], Rules]]:
    out: dict[str, tuple[list[str], Rules]] = {}
    for scoring in SCORINGS:
        rules = Rules.from_spec({"preset": "philippine", "scoring": scoring})
        out[f"expert-{scoring}"] = (["expert@100", "heuristic", "heuristic", "heuristic"], rules)
    out["expert-3p"] = (
        ["expert@100", "heuristic", "heuristic"],
        Rules.from_spec({"preset": "philippine", "scoring": "cards-left-tiered"}),
    )
    for scoring in SCORINGS:
        rules = Rules.from_spec({"preset": "philippine", "scoring": scoring})
        out[f"heuristic-{scoring}"] = (["heuristic", FROZEN, FROZEN, FROZEN], rules)
    out["budget"] = (
        ["expert@1000", "expert@100", "expert@1000", "expert@100"],
        Rules.from_spec("philippine"),
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per expert matchup")
    parser.add_argument(
        "--heuristic-deals",
        type=int,
        default=40_000,
        help="deals per heuristic matchup (fast; the effect is small against the spread)",
    )
    parser.add_argument("--only", action="append", help="run only these matchups")
    parser.add_argument("--seed", default="points")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    chosen = matchups()
    if args.only:
        unknown = [name for name in args.only if name not in chosen]
        if unknown:
            parser.error(f"unknown matchup(s) {unknown}; known: {', '.join(chosen)}")
        chosen = {name: chosen[name] for name in args.only}
    print(
        f"python {platform.python_version()}, {args.workers} worker(s), "
        f"load average {os.getloadavg()[0]:.1f}, seed {args.seed!r}",
        flush=True,
    )
    for name, (seats, rules) in chosen.items():
        start = time.perf_counter()
        deals = args.heuristic_deals if name.startswith("heuristic") else args.deals
        report = run_arena(
            seats,
            deals,
            rules,
            seed=args.seed,
            budget=Budget(seconds=0.1),
            workers=args.workers,
        )
        print(f"\n## {name} ({time.perf_counter() - start:.0f} s)\n", flush=True)
        print(format_report(report), flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
