"""Playing for the match: ``python -m benchmarks.strength.ai_match [--level heuristic|expert]``.

In matches of ``--deals`` deals (or to ``--target`` points), seats rotated, against
heuristics that play every deal for its points only (they are given no standing):

- ``heuristic``: one heuristic that sees where the match stands; playing for the match
  pays when it wins more than its fair share of the matches (25% with 4 players);
- ``expert``: one seat plays the heuristic for points until the last deal and the expert
  in it, once for the match and once for the deal's points only, on the same matches:
  the paired difference of matches won. The expert is bounded by ``--rollouts`` per move
  (not by time), so the machine's load does not change the result.

Numbers only; docs/ai.md ("Playing for the match") has the table.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random

from pusoy.ai import Budget
from pusoy.ai.arena import mean_ci
from pusoy.ai.expert import expert_move
from pusoy.ai.heuristic import heuristic_move
from pusoy.ai.match_arena import MatchTask, match_wins, run_matches
from pusoy.engine.moves import Move
from pusoy.engine.rules import Rules
from pusoy.engine.state import PlayerView

ROLLOUTS = int(os.environ.get("MATCH_BENCH_ROLLOUTS", "100"))


def heuristic_for_points(view: PlayerView, rng: random.Random) -> Move:
    return heuristic_move(dataclasses.replace(view, match=None), rng)


def _final_deal(view: PlayerView) -> bool:
    return view.match is not None and view.match.deals_left == 1


def expert_last_for_match(view: PlayerView, rng: random.Random) -> Move:
    """The expert in the last deal, seeing the standing; before it, the heuristic."""
    if not _final_deal(view):
        return heuristic_for_points(view, rng)
    return expert_move(view, rng, _budget())


def expert_last_for_points(view: PlayerView, rng: random.Random) -> Move:
    """The same, but the expert plays the last deal for its points only."""
    if not _final_deal(view):
        return heuristic_for_points(view, rng)
    return expert_move(dataclasses.replace(view, match=None), rng, _budget())


def _budget() -> Budget:
    return Budget.of_rollouts(ROLLOUTS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", choices=("heuristic", "expert"), default="heuristic")
    parser.add_argument("--scoring", default="cards-left")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=4000, help="matches (x rotations)")
    parser.add_argument("--deals", type=int, default=None, help="deals per match")
    parser.add_argument("--target", type=int, default=None, help="target score")
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS, help="expert: per move")
    parser.add_argument("--seed", default="match")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.deals is None and args.target is None:
        args.deals = 3
    os.environ["MATCH_BENCH_ROLLOUTS"] = str(args.rollouts)  # (read by spawned workers)
    rules = Rules.from_spec({"preset": "philippine", "scoring": args.scoring})
    end = f"{args.deals} deals" if args.deals else f"target {args.target}"
    others = ("benchmarks.strength.ai_match:heuristic_for_points",) * (args.players - 1)
    if args.level == "heuristic":
        variants = ["heuristic"]
    else:
        variants = [
            f"benchmarks.strength.ai_match:expert_last_for_{aim}" for aim in ("match", "points")
        ]
    won: dict[str, list[bool]] = {}
    for me in variants:
        tasks = [
            MatchTask(i, (me, *others), rules, args.seed, _budget(), args.deals, args.target)
            for i in range(args.matches)
        ]
        outcomes = run_matches(tasks, args.workers)
        won[me] = [o.levels[o.ranking[0]] == me for o in outcomes]
        wins, played, (lo, hi), fair = match_wins(outcomes, me)
        print(
            f"{me} vs {len(others)} heuristics playing for points, {args.scoring}, matches "
            f"of {end}, seed {args.seed!r}: won {wins} of {played} matches, "
            f"{wins / played:.1%} [{lo:.1%}, {hi:.1%}] (fair {fair:.1%}), "
            f"{sum(o.deals for o in outcomes)} deals"
        )
    if len(variants) == 2:
        # Paired: before the last deal every seat plays the same deterministic heuristic,
        # so both variants reach each last deal from the same standing.
        diffs = [float(a) - float(b) for a, b in zip(*won.values(), strict=True)]
        mean, (lo, hi) = mean_ci(diffs)
        print(
            f"last deal played for the match minus for points ({args.rollouts} rollouts/move): "
            f"{mean:+.1%} of matches won [{lo:+.1%}, {hi:+.1%}]"
        )


if __name__ == "__main__":
    main()
