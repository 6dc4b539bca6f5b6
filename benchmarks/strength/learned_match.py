"""The learned policy against heuristics: ``python -m benchmarks.strength.learned_match``.

Each ``--weights`` file (default: the shipped ``pusoy/ai/learned/policy.npz``, or
``policy_2p.npz`` with ``--players 2``) plays one seat against heuristics in every other
seat (three by default, one or two with ``--players 2`` or ``3``) on the same deals
(``--games`` deals of arena seed ``--seed``, seats rotated, one process), and so does
the heuristic itself: the deals are the same for every variant, so each variant is also
compared with the heuristic in its seat deal by deal (paired differences of deals won
and of payment, with 95% intervals).

Numbers only; docs/ai.md ("The learned level") has the table and the commands.
"""

from __future__ import annotations

import argparse
import os
import random
from dataclasses import replace
from pathlib import Path

from pusoy.ai.arena import LevelStats, paired_differences, rotation, run_arena
from pusoy.ai.league import rules_named
from pusoy.ai.learned import learned_play
from pusoy.ai.learned.model import WEIGHTS, WEIGHTS_2P, Policy
from pusoy.engine.fast import FastState
from pusoy.engine.moves import PASS, Move
from pusoy.engine.shuffle import TABLE_SIZES
from pusoy.engine.state import PlayerView

ENV = "LEARNED_MATCH_WEIGHTS"
_loaded: dict[str, Policy] = {}


def candidate(view: PlayerView, rng: random.Random) -> Move:
    """The learned bot with the weights named by ``$LEARNED_MATCH_WEIGHTS``."""
    path = os.environ[ENV]
    if path not in _loaded:
        _loaded[path] = Policy.load(Path(path))
    mask = learned_play(FastState.from_view(view), _loaded[path])[0]
    return Move(mask) if mask else PASS


def _line(name: str, s: LevelStats) -> str:
    lo, hi = s.win_share_ci
    plo, phi = s.mean_payment_ci
    return (
        f"{name}: won {s.wins} of {s.deals}, {s.win_share:.1%} [{lo:.1%}, {hi:.1%}]; payment "
        f"{s.mean_payment:+.3f} [{plo:+.3f}, {phi:+.3f}]; move p50 {s.move_ms_p50:.2f} ms, "
        f"p95 {s.move_ms_p95:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", type=Path, nargs="*", default=None)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rules", default="philippine", help="a preset or house")
    parser.add_argument("--seed", default="learned")
    parser.add_argument("--players", type=int, choices=TABLE_SIZES, default=4)
    args = parser.parse_args()
    weights = args.weights or [WEIGHTS_2P if args.players == 2 else WEIGHTS]
    rules = rules_named(args.rules)
    me = f"{__name__}:candidate"
    others = ("heuristic",) * (args.players - 1)
    base = run_arena(("heuristic", *others), args.games, rules, seed=args.seed, workers=1)
    print(
        f"{args.games} deals, rules {args.rules!r}, seed {args.seed!r}, "
        f"vs {len(others)} heuristic(s)"
    )
    for path in weights:
        os.environ[ENV] = str(path)
        seats = (me, *others)
        run = run_arena(seats, args.games, rules, seed=args.seed, workers=1)
        print(_line(str(path), run.levels[0]))
        # The all-heuristic deals, labelled as if the learned bot held its seats there.
        same_seats = [replace(o, levels=rotation(seats, o.index)) for o in base.outcomes]
        for diff in paired_differences(run.outcomes, same_seats, seats)[:1]:
            w_lo, w_hi = diff.won_ci
            p_lo, p_hi = diff.payment_ci
            print(
                f"  minus the heuristic in its seat, same deals: won {diff.won:+.1%} "
                f"[{w_lo:+.1%}, {w_hi:+.1%}], payment {diff.payment:+.3f} "
                f"[{p_lo:+.3f}, {p_hi:+.3f}]"
            )


if __name__ == "__main__":
    main()
