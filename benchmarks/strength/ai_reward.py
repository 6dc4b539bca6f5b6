"""The expert's rollout reward, A/B at a fixed rollout budget:
``python -m benchmarks.strength.ai_reward --reward payment|win|win-doubling --scoring S``.

The expert alone against heuristics (seats rotated) at a fixed number of rollouts per
move, so the result does not depend on the machine's load (the arena's budget is
wall-clock time). Run each reward on the same
seed and compare: the deals are the same, so the rows are paired. The rewards:

- ``payment``: the expert's own reward: the seat's payment under the game's scoring
  (under ``deuces-double``, plus ``WIN_BONUS`` stakes for going out);
- ``payment-only``: the payment alone (the expert's reward before ``WIN_BONUS``);
- ``win``: 1 for going out first, else minus a share of the cards left (0.1 under
  ``deuces-double``, 0.3 otherwise): the reward before the bots played for points;
- ``win-doubling``: as ``win``, plus 0.1 per 2 in the winner's final play.

A reward other than ``payment`` patches the sources (compiled modules call their own
``_reward`` directly), so it refuses to run compiled: set ``PUSOY_COMPILED=0``.
Numbers only; docs/ai.md ("Playing for points") has the table.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
from collections.abc import Callable

import pusoy.ai.expert as expert
from pusoy import compiled
from pusoy.ai import Budget
from pusoy.ai.arena import DealOutcome, play_deal, summarize
from pusoy.ai.heuristic import DEUCES
from pusoy.engine.fast import FastState
from pusoy.engine.rules import Rules

Reward = Callable[[FastState, int, list[int]], float]


def _win(sim: FastState, me: int, dealt: list[int]) -> float:
    if sim.out == me:
        return 1.0
    weight = 0.1 if sim.rules.scoring == "deuces-double" else 0.3
    return -weight * sim.counts[me] / max(13, max(dealt))


def _win_doubling(sim: FastState, me: int, dealt: list[int]) -> float:
    if sim.out == me:
        return 1.0 + 0.1 * (sim.beat_mask & DEUCES).bit_count()
    return _win(sim, me, dealt)


def _payment_only(sim: FastState, me: int, dealt: list[int]) -> float:
    return expert.reward_with_bonus(sim, me, dealt, 0.0)


REWARDS: dict[str, Reward] = {
    "payment": expert._reward,
    "payment-only": _payment_only,
    "win": _win,
    "win-doubling": _win_doubling,
}


def _play(task: tuple[str, int, str, int, int, str]) -> DealOutcome:
    reward, index, scoring, players, rollouts, seed = task
    # Each pool worker is its own process: swapping the module's reward there is the
    # experiment, and touches no other run.
    expert._reward = REWARDS[reward]  # type: ignore[assignment]
    seats = ("expert",) + ("heuristic",) * (players - 1)
    rules = Rules.from_spec({"preset": "philippine", "scoring": scoring})
    return play_deal((index, seats, rules, seed, Budget.of_rollouts(rollouts)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reward", choices=sorted(REWARDS), default="payment")
    parser.add_argument("--scoring", default="deuces-double")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--rollouts", type=int, default=150, help="rollouts per move")
    parser.add_argument("--seed", default="ab")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.reward != "payment" and compiled.is_compiled(expert):
        parser.error("--reward patches the sources: run with PUSOY_COMPILED=0")
    tasks = [
        (args.reward, i, args.scoring, args.players, args.rollouts, args.seed)
        for i in range(args.deals)
    ]
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        outcomes = pool.map(_play, tasks)
    seats = ("expert",) + ("heuristic",) * (args.players - 1)
    s = summarize(outcomes, seats)[0]
    lo, hi = s.win_share_ci
    plo, phi = s.mean_payment_ci
    print(
        f"reward {args.reward}, {args.scoring}, {args.players} players, {args.rollouts} "
        f"rollouts/move, {args.deals} deals, seed {args.seed!r}: expert won "
        f"{s.win_share:.1%} [{lo:.1%}, {hi:.1%}], points/seat {s.mean_points:.3f}, "
        f"payment/seat {s.mean_payment:+.3f} [{plo:+.3f}, {phi:+.3f}]"
    )


if __name__ == "__main__":
    main()
