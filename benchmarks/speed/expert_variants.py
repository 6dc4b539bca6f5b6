"""What a variant of the expert's search costs: ``python -m benchmarks.speed.expert_variants
[--rules house] [--positions 100] [--rollouts 1000] [--variants a,b,...]``.

Variants are the ``expert.Tuning``s named in
``benchmarks.strength.variants.EXPERT_TUNINGS`` (the ones it plays in a league). Each
searches the same positions (every third one with a choice, from deals of four
heuristics) at the same rollout budget, one after the other position by position, so
the machine's load falls on all alike; it prints the CPU time per move, the rollouts a
search played, rollouts per CPU second, and how often a variant chose otherwise than the
first. Each position is searched once untimed before the variants' timed searches,
so the caches are as warm for the first variant as for the others. Numbers only.
"""

from __future__ import annotations

import argparse
import random
import time

from benchmarks.strength.variants import EXPERT_TUNINGS
from pusoy.ai.arena import deal_seed
from pusoy.ai.budget import Budget
from pusoy.ai.expert import search
from pusoy.ai.heuristic import heuristic_move
from pusoy.ai.league import RULE_SETS, rules_named
from pusoy.engine.rules import Rules
from pusoy.engine.state import DealState, PlayerView

VARIANTS = EXPERT_TUNINGS


def positions(rules: Rules, count: int) -> list[PlayerView]:
    """Every third position with a choice of deals of four heuristics (seed ``cost``)."""
    views: list[PlayerView] = []
    deal = 0
    while len(views) < count:
        state = DealState.from_seed(rules, deal_seed("cost", deal), 4)
        deal += 1
        step = 0
        while state.turn is not None:
            view = state.view(state.turn)
            if len(view.legal_moves()) > 1 and step % 3 == 0:
                views.append(view)
            step += 1
            state.apply(heuristic_move(view, random.Random(0)))
    return views[:count]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated")
    parser.add_argument("--rules", default="house", choices=sorted(RULE_SETS))
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--rollouts", type=int, default=1000)
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.variants.split(",") if name.strip()]
    unknown = [name for name in names if name not in VARIANTS]
    if unknown or not names:
        parser.error(f"variants are some of {', '.join(VARIANTS)}, not {unknown}")
    views = positions(rules_named(args.rules), args.positions)
    budget = Budget.of_rollouts(args.rollouts)
    cpu = dict.fromkeys(names, 0.0)
    played = dict.fromkeys(names, 0)
    differ = dict.fromkeys(names, 0)
    for i, view in enumerate(views):
        search(view, random.Random(i), budget)  # warm-up, untimed
        chosen = {}
        for name in names:
            start = time.process_time()
            play, stats = search(view, random.Random(i), budget, VARIANTS[name])
            cpu[name] += time.process_time() - start
            played[name] += sum(worlds for worlds, _mean in stats.values())
            chosen[name] = play
        for name in names:
            differ[name] += chosen[name] != chosen[names[0]]
    n = len(views)
    print(f"{n} positions, rules {args.rules}, {args.rollouts} rollouts at most a move")
    for name in names:
        print(
            f"{name:<13} CPU {1000 * cpu[name] / n:6.1f} ms a move"
            f"  rollouts {played[name] / n:6.1f} a move"
            f"  {played[name] / cpu[name]:6.0f} a CPU second"
            f"  chose otherwise than {names[0]}: {differ[name]}/{n}"
        )


if __name__ == "__main__":
    main()
