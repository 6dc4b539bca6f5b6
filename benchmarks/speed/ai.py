"""Speed of the AI players: ``python -m benchmarks.speed.ai``.

Prints, on positions taken from real deals (4 players unless ``--players``, every
preset):

1. time per move per level (p50, p95, max), the expert at a given budget, the
   ``instant`` bot (``pusoy.ai.instant``: the planner's move checked by a small search)
   and the ``learned`` bot (``pusoy.ai.learned``), neither of them a lobby level;
2. the expert's raw speed: heuristic rollouts per second (a rollout finishes the deal
   from a sampled world), and hand plans per second for fresh 13-card hands.

Times are wall-clock unless ``--cpu`` asks for this process's CPU time
(``time.process_time``), which a busy machine changes less. Numbers only: nothing here
asserts a time. Strength is measured by
``manage.py ai_arena`` (docs/ai.md has the tables).
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from pusoy import compiled
from pusoy.ai import LEVELS, Budget, choose_move
from pusoy.ai.expert import collect_as_before, collect_less, rollout
from pusoy.ai.heuristic import heuristic_move
from pusoy.ai.instant import instant_move
from pusoy.ai.learned import learned_move
from pusoy.ai.learned.model import shipped
from pusoy.ai.plan import clear_plan_cache, plan
from pusoy.ai.worlds import WorldSampler
from pusoy.engine import PRESETS, DealState, PlayerView
from pusoy.engine.fast import FastState
from pusoy.engine.tables import tables_for


def positions(count: int, rng: random.Random, players: int = 4) -> list[PlayerView]:
    """Views of the seat to move at every point of deals played by the planner."""
    views: list[PlayerView] = []
    presets = list(PRESETS)
    while len(views) < count:
        rules = PRESETS[presets[len(views) % len(presets)]]
        state = DealState.from_seed(rules, rng.randbytes(32), players)
        while not state.is_over and len(views) < count:
            assert state.turn is not None  # a deal not over always has a seat to move
            view = state.view(state.turn)
            views.append(view)
            state.apply(heuristic_move(view, rng))
    return views


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--expert-positions", type=int, default=40)
    parser.add_argument("--budget-ms", type=float, default=1000.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--cpu", action="store_true", help="time moves by CPU, not wall")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    views = positions(args.positions, rng, args.players)
    clock = time.process_time if args.cpu else time.perf_counter
    print(
        f"python {platform.python_version()} on {platform.machine()}, one process, "
        f"{args.players} players, {'CPU' if args.cpu else 'wall'} time"
    )
    print(f"search modules: {compiled.STATUS}")
    print(f"{'level':<10} {'moves':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    budget = Budget(seconds=args.budget_ms / 1000)
    # Loaded once per process, as in a worker: not part of a move's time.
    shipped()
    shipped(2)
    for level in (*LEVELS, "instant", "learned"):
        sample = views[: args.expert_positions] if level == "expert" else views
        times = []
        clear_plan_cache()  # the positions were played by the heuristic: start cold
        for view in sample:
            start = clock()
            if level == "learned":  # (not one of LEVELS: pusoy.ai.learned)
                learned_move(view, rng)
            elif level == "instant":
                instant_move(view, rng)
            else:
                choose_move(level, view, rng, budget=budget)
            times.append((clock() - start) * 1000)
        print(
            f"{level:<10} {len(times):>6} {percentile(times, 0.5):8.2f}"
            f" {percentile(times, 0.95):8.2f} {max(times):8.2f}"
        )
    roots = [(FastState.from_view(v), WorldSampler(v)) for v in views[:50]]
    done = 0
    raised = collect_less()  # as the expert's search does
    start = time.perf_counter()
    while time.perf_counter() - start < 3.0:
        root, sampler = roots[done % len(roots)]
        sim = root.copy()
        sim.hands = sampler.sample(rng)
        rollout(sim)
        done += 1
    rate = done / (time.perf_counter() - start)
    if raised:
        collect_as_before()
    print(f"expert rollouts: {rate:,.0f}/s ({1e6 / rate:.0f} us each)")
    t = tables_for(PRESETS["philippine"])
    deck = list(range(52))
    hands = []
    for _ in range(2000):
        rng.shuffle(deck)
        hands.append(sum(1 << i for i in deck[:13]))
    clear_plan_cache()
    start = time.perf_counter()
    for hand in hands:
        plan(t, hand)
    per = (time.perf_counter() - start) / len(hands)
    print(f"plans of fresh 13-card hands: {1 / per:,.0f}/s ({per * 1e6:.0f} us each)")


if __name__ == "__main__":
    main()
