"""How well the expert's worlds place the hidden cards:
``python -m benchmarks.strength.ai_reading``.

Positions from deals of four heuristics (seat 0 to move, four moves or more into the
deal, ``cards-left`` scoring): for each, ``--worlds`` worlds are drawn by each reading
and the share of the opponents' cards that a world gives to the right opponent is
counted, with the time per world (drawing included: a chain's start is paid by the
worlds that follow it, as in a search of about that many worlds) and how many of the
opponents' moves a world's hands fail to explain (the true deal: none). ``--long`` adds
longer chains: the reading of a big budget (the expert at 1 s) and one far longer than
any search can afford. Numbers only; docs/ai.md ("Reading the
history", "What else was tried") has the tables.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from benchmarks.strength.heuristic_deals import deal_positions
from pusoy.ai import Budget, expert
from pusoy.ai.inference import ActionModel, chained_worlds
from pusoy.ai.worlds import WorldSampler
from pusoy.engine import PlayerView, Rules

Reading = Callable[[PlayerView, random.Random], Callable[[], list[int]]]


def positions(deals: int, seed: int) -> list[tuple[PlayerView, list[int]]]:
    rng = random.Random(seed)
    rules = Rules.from_spec({"preset": "philippine", "scoring": "cards-left"})
    return [
        (view, hands)
        for _ in range(deals)
        for view, hands in deal_positions(rules, rng.randbytes(32), 4, rng)
        if view.seat == 0 and len(view.history) >= 4
    ]


def _uniform(view: PlayerView, rng: random.Random) -> Callable[[], list[int]]:
    sampler = WorldSampler(view, use_passes=False)
    return lambda: sampler.sample(rng)


def _hints(view: PlayerView, rng: random.Random) -> Callable[[], list[int]]:
    sampler = WorldSampler(view)
    return lambda: sampler.sample(rng)


def _chains(count: int, burn_in: int | None = None, steps: int = 0) -> Reading:
    def reading(view: PlayerView, rng: random.Random) -> Callable[[], list[int]]:
        return chained_worlds(
            WorldSampler(view), ActionModel(view), rng, count, steps=steps, burn_in=burn_in
        )

    return reading


READINGS: dict[str, Reading] = {
    "uniform: any deal agreeing with the counts": _uniform,
    "the sampler's hints (passes, leads)": _hints,
    "one chain": _chains(1),
    "four chains in turn (the expert's)": _chains(4),
}


def _big_budget(view: PlayerView, rng: random.Random) -> Callable[[], list[int]]:
    return expert.world_source(view, rng, Budget(seconds=1.0))


# Longer chains: the expert's at a big budget (``expert.SHARP_READING_FROM``), and far
# longer than a search can afford: how much the opponents' moves say.
LONG_READINGS: dict[str, Reading] = {
    f"four chains, {expert.SHARP_BURN_IN} steps first, {expert.SHARP_STEPS} between"
    " (the expert at 1 s)": _big_budget,
    "four chains, 1,000 steps first, 100 between": _chains(4, 1000, 100),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=20, help="worlds per position")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--long", action="store_true", help="also chains run far longer (minutes)")
    args = parser.parse_args()
    found = positions(args.deals, args.seed)
    print(f"{len(found)} positions from {args.deals} deals, {args.worlds} worlds each")
    print("(mismatches: the opponents' moves a world's hands do not explain; the true deal's: 0)")
    readings = {**READINGS, **(LONG_READINGS if args.long else {})}
    for name, reading in readings.items():
        rng = random.Random(1)
        right = total = mismatches = 0
        seconds = 0.0
        for view, hands in found:
            start = time.perf_counter()
            next_world = reading(view, rng)
            worlds = [next_world() for _ in range(args.worlds)]
            seconds += time.perf_counter() - start
            model = ActionModel(view)
            for world in worlds:
                for seat in range(4):
                    if seat != view.seat:
                        right += (world[seat] & hands[seat]).bit_count()
                        total += hands[seat].bit_count()
                        mismatches += model.seat_mismatches(seat, world[seat])
        per_world = seconds / len(found) / args.worlds * 1000
        print(
            f"{name:<44} placed right {right / total:6.1%}   "
            f"mismatches {mismatches / len(found) / args.worlds:5.2f}   {per_world:5.2f} ms/world"
        )


if __name__ == "__main__":
    main()
