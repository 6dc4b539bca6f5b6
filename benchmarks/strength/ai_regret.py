"""The expert's choices against an oracle that sees every hand:
``python -m benchmarks.strength.ai_regret``.

Deal outcomes are noisy (a 1,000-deal arena measures a win share to about 3 points), so
this benchmark scores decisions instead. Positions come from deals of four heuristics;
at each, every legal move is played in the *true* deal and finished by the heuristic
for every seat (deterministic), which gives each move its exact value under the
expert's own reward (the payment). The expert then searches the position as it would
in play (its own worlds; a fixed number of rollouts, so the load does not matter, or
``--ms``), and its regret is the best legal move's value minus its choice's: lower is
better. The heuristic's own move is the baseline; "outside candidates" is the part of
the regret no choice among the expert's candidates could avoid.

``--set expert.MAX_CANDIDATES=8`` (repeatable) patches a module constant of
``pusoy.ai`` in the workers, to compare settings on the same positions (with the
sources: compiled modules read their constants where they were built, so it refuses
them; ``PUSOY_COMPILED=0``). Numbers only;
docs/ai.md ("Where the expert's choices go wrong") has the table.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import os
import random
import time

from benchmarks.strength.heuristic_deals import deal_positions
from pusoy import compiled
from pusoy.ai import Budget, expert
from pusoy.ai.heuristic import heuristic_play
from pusoy.ai.worlds import cards_dealt
from pusoy.engine import PlayerView, Rules
from pusoy.engine.fast import PASS_PLAY, FastState

Score = tuple[float, float, float, int, float]


def positions(
    index: int, seed: str, scoring: str, players: int
) -> list[tuple[PlayerView, list[int]]]:
    """Every position with a choice in deal ``index`` played by heuristics, with the hands."""
    rng = random.Random(f"{seed}-{index}")
    rules = Rules.from_spec({"preset": "philippine", "scoring": scoring})
    return [
        (view, hands)
        for view, hands in deal_positions(rules, rng.randbytes(32), players, rng)
        if len(view.legal_moves()) > 1
    ]


def _init(settings: list[tuple[str, str, float]]) -> None:
    for module, name, value in settings:
        mod = importlib.import_module(f"pusoy.ai.{module}")
        setattr(mod, name, type(getattr(mod, name))(value))


def _deal(task: tuple[int, str, str, int, Budget, str]) -> list[Score]:
    index, seed, scoring, players, budget, search_seed = task
    return [
        _score(view, hands, budget, f"{search_seed}-{index}-{i}")
        for i, (view, hands) in enumerate(positions(index, seed, scoring, players))
    ]


def _score(view: PlayerView, hands: list[int], budget: Budget, salt: str) -> Score:
    """(regret of the expert, of the heuristic's move, of the best candidate, whether
    the expert left the heuristic's move, seconds searched)."""
    root = FastState.from_view(view)
    root.hands = list(hands)
    me = view.seat
    dealt = cards_dealt(view)
    plays = root.legal_plays()
    every = [*plays, PASS_PLAY] if root.beat_key >= 0 else list(plays)
    default = heuristic_play(root)
    values = {p: expert.play_out(root, p, me, dealt, expert._reward) for p in every}
    cands = expert.candidates(root, plays, default)
    best = max(values.values())
    start = time.perf_counter()
    choice, _stats = expert.search(view, random.Random(salt), budget)
    seconds = time.perf_counter() - start
    return (
        best - values[choice],
        best - values[default],
        best - max(values[p] for p in cands),
        int(choice != default),
        seconds,
    )


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--scoring", default="cards-left")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=300, help="rollouts per move")
    parser.add_argument(
        "--ms", type=float, help="a time budget per move instead (depends on the load)"
    )
    parser.add_argument("--seed", default="regret")
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    parser.add_argument("--search-seed", default="search", help="the expert's own rng")
    parser.add_argument("--save", help="write each position's expert regret here (JSON)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.set and compiled.is_compiled(expert):
        parser.error("--set patches the sources: run with PUSOY_COMPILED=0")
    settings = []
    for item in args.set:
        target, value = item.split("=")
        module, name = target.split(".")
        settings.append((module, name, float(value)))
    budget = Budget(seconds=args.ms / 1000) if args.ms else Budget.of_rollouts(args.rollouts)
    tasks = [
        (i, args.seed, args.scoring, args.players, budget, args.search_seed)
        for i in range(args.deals)
    ]
    start = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.workers, initializer=_init, initargs=(settings,)) as pool:
        scored = [s for deal in pool.map(_deal, tasks) for s in deal]
    seconds = time.perf_counter() - start
    regret, baseline, missing, changed, searched = zip(*scored, strict=True)
    r, rci = _mean_ci(list(regret))
    b, bci = _mean_ci(list(baseline))
    diff, dci = _mean_ci([x - y for x, y in zip(regret, baseline, strict=True)])
    per_move = f"{args.ms:g} ms" if args.ms else f"{args.rollouts} rollouts"
    print(
        f"{len(scored)} positions from {args.deals} deals ({args.scoring}, {args.players} "
        f"players, seed {args.seed!r}), {per_move}/move, settings {args.set}, {seconds:.0f} s"
    )
    print(
        f"expert regret        {r:7.3f} +- {rci:.3f}  (left the heuristic's move "
        f"{sum(changed) / len(changed):.1%}, {sum(searched) / len(searched) * 1000:.0f} ms/move)"
    )
    print(f"heuristic regret     {b:7.3f} +- {bci:.3f}")
    print(f"expert - heuristic   {diff:+7.3f} +- {dci:.3f}")
    if args.save:
        with open(args.save, "w") as f:
            json.dump(list(regret), f)
    print(f"outside candidates   {sum(missing) / len(missing):7.3f}")


if __name__ == "__main__":
    main()
