"""The match reading's per-deal figures: ``python -m benchmarks.strength.per_deal``.

``pusoy.ai.match.PER_DEAL`` holds, per scoring and player count, the standard deviation of
one seat's deal points minus another's and a seat's mean points per deal, measured over
deals of heuristics (the match reading's model of how scores move). This plays those
deals (first deals, ``philippine`` with the scoring replaced, or ``--preset``) and prints
the figures beside the stored ones, so a change to the heuristic that moves them shows.
Numbers only; docs/ai.md ("Playing for the match") has the table.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import statistics

from pusoy.ai.arena import DealOutcome, run_arena
from pusoy.ai.match import PER_DEAL
from pusoy.engine.rules import PRESETS, SCORINGS


def per_deal(outcomes: list[DealOutcome]) -> tuple[float, float]:
    """(standard deviation of one seat's points minus another's, mean points per seat)."""
    differences = [
        o.points[a] - o.points[b]
        for o in outcomes
        for a, b in itertools.permutations(range(len(o.points)), 2)
    ]
    points = [p for o in outcomes for p in o.points]
    return statistics.pstdev(differences), statistics.fmean(points)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--preset", default="philippine", choices=sorted(PRESETS))
    parser.add_argument("--scoring", action="append", choices=SCORINGS, help="default: every one")
    parser.add_argument(
        "--players", action="append", type=int, choices=(3, 4), help="default: 4 and 3"
    )
    parser.add_argument("--seed", default="per-deal")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.deals} deals of heuristics each, preset {args.preset}, seed {args.seed!r}")
    print("scoring              players  spread  per deal   stored")
    for scoring in args.scoring or SCORINGS:
        rules = dataclasses.replace(PRESETS[args.preset], scoring=scoring)
        for players in args.players or (4, 3):
            report = run_arena(
                ["heuristic"] * players, args.deals, rules, seed=args.seed, workers=args.workers
            )
            spread, mean = per_deal(report.outcomes)
            stored = PER_DEAL.get((scoring, players))
            shown = f"{stored[0]:.2f} {stored[1]:.2f}" if stored else "-"
            print(f"{scoring:<20} {players:>7}  {spread:6.2f}  {mean:8.2f}   {shown}")


if __name__ == "__main__":
    main()
