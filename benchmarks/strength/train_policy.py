"""Train the learned policy: ``python -m benchmarks.strength.train_policy STAGE``.

- ``data``: positions of heuristic self-play (with random moves now and then) labelled by
  a teacher, ``--teacher heuristic`` or ``--teacher expert --rollouts N``; cached in
  ``.cache/learned`` (git-ignored), chunk by chunk, each from its own seed.
- ``fit``: imitation of a teacher's cached chunks, from fresh weights or ``--init``;
  the last ``--held-out`` chunks are kept for evaluation. Writes ``--out`` (default: the
  shipped ``pusoy/ai/learned/policy.npz``).
- ``eval``: accuracy of weights against a teacher's held-out chunks, beside the
  heuristic's own agreement with that teacher.
- ``reinforce``: policy-gradient improvement of ``--init`` by play against three
  heuristics, or three of each of ``--opponents`` in turn (``pusoy.ai.learned.reinforce``),
  at tables of ``--players`` (4 by default; a list such as 2,3,4 takes them in turn step by
  step): ``--updates`` steps of ``--deals`` deals, the greedy policy measured every
  ``--eval-every`` steps on ``--eval-deals`` fixed deals (each from every seat) against
  each opponent at each table size, the step with the best mean payment kept.

Fixed seeds throughout; docs/ai.md ("The learned level") has the commands, the times
and what each stage reaches.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from pusoy.ai.arena import seat_bot
from pusoy.ai.budget import Budget
from pusoy.ai.heuristic import heuristic_play
from pusoy.ai.league import rules_named, spec_of
from pusoy.ai.learned.dataset import Teacher, chunk_path, ensure_chunks, load_chunks, state_from_row
from pusoy.ai.learned.model import WEIGHTS, Policy
from pusoy.ai.learned.reinforce import evaluate_play, improve
from pusoy.ai.learned.train import evaluate, examples, fit
from pusoy.engine.shuffle import TABLE_SIZES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage", choices=("data", "fit", "eval", "reinforce"))
    parser.add_argument("--teacher", choices=("heuristic", "expert"), default="heuristic")
    parser.add_argument("--rollouts", type=int, default=600, help="expert teacher: per move")
    parser.add_argument("--chunks", type=int, default=30)
    parser.add_argument("--per-chunk", type=int, default=2000, help="data: positions")
    parser.add_argument("--held-out", type=int, default=3, help="fit/eval: last chunks")
    parser.add_argument(
        "--rules", default="philippine", help="reinforce: presets or house, may list a,b"
    )
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--init", type=Path, default=None, help="fit: start from these weights")
    parser.add_argument("--weights", type=Path, default=WEIGHTS, help="eval: these weights")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--updates", type=int, default=60, help="reinforce: steps")
    parser.add_argument("--deals", type=int, default=400, help="reinforce: deals per step")
    parser.add_argument("--temperature", type=float, default=1.0, help="reinforce: sampling")
    parser.add_argument(
        "--opponents",
        default="heuristic",
        help="reinforce: league members (or seat specs) to play against, a,b: in turn",
    )
    parser.add_argument(
        "--win-bonus",
        type=float,
        default=0.0,
        help="reinforce: stakes added to a deal's return (and to the measure) for going out",
    )
    parser.add_argument(
        "--keep",
        choices=("mean", "worst"),
        default="mean",
        help="reinforce: keep the step of the best mean payment, or of the best worst gain "
        "over the start against any opponent (and rules)",
    )
    parser.add_argument(
        "--players", default="4", help="reinforce: players at a table, may list 2,3,4"
    )
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--eval-deals", type=int, default=500)
    args = parser.parse_args()
    if args.stage == "reinforce":
        reinforce(args, time.perf_counter())
        return
    rules = rules_named(args.rules)
    teacher = Teacher(args.teacher, args.rollouts if args.teacher == "expert" else 0)
    start = time.perf_counter()
    if args.stage == "data":
        ensure_chunks(rules, teacher, args.chunks, args.per_chunk)
        print(f"data: {time.perf_counter() - start:.0f} s")
        return
    paths = [chunk_path(rules, teacher, i) for i in range(args.chunks)]
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise SystemExit(f"{len(missing)} chunks missing (first {missing[0]}): run the data stage")
    split = len(paths) - args.held_out
    held_rows, held_chosen = load_chunks(paths[split:])
    held = examples(rules, held_rows, held_chosen)
    agree = np.mean(
        [
            heuristic_play(state_from_row(rules, row))[0] == mask
            for row, mask in zip(held_rows.tolist(), held_chosen.tolist(), strict=True)
        ]
    )
    print(
        f"held out: {len(held)} positions of {teacher.label}; the heuristic agrees on {agree:.1%}"
    )
    if args.stage == "eval":
        loss, accuracy = evaluate(Policy.load(args.weights), held)
        print(f"{args.weights}: held-out loss {loss:.3f}, accuracy {accuracy:.1%}")
        return
    rows, chosen = load_chunks(paths[:split])
    train = examples(rules, rows, chosen)
    print(f"features of {len(train)} positions: {time.perf_counter() - start:.0f} s", flush=True)
    policy = (
        Policy.load(args.init) if args.init else Policy.initial(np.random.default_rng(args.seed))
    )

    def log(epoch: int, loss: float, accuracy: float, now: Policy) -> None:
        held_loss, held_accuracy = evaluate(now, held)
        print(
            f"epoch {epoch + 1}: train loss {loss:.3f}, accuracy {accuracy:.1%}; held-out "
            f"loss {held_loss:.3f}, accuracy {held_accuracy:.1%} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )

    policy = fit(
        policy,
        train,
        epochs=args.epochs,
        seed=args.seed,
        lr=args.lr,
        batch_size=args.batch,
        log=log,
    )
    loss, accuracy = evaluate(policy, held)
    print(
        f"held-out loss {loss:.3f}, accuracy {accuracy:.1%} ({time.perf_counter() - start:.0f} s)"
    )
    policy.save(args.out, teacher=teacher.label, rules=str(rules.to_spec()))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1000:.0f} kB)")


def reinforce(args: argparse.Namespace, start: float) -> None:
    """``--rules`` may list presets, comma-separated: the steps take them in turn, and a
    step is measured by its mean payment over them."""
    if args.init is None:
        raise SystemExit("reinforce improves weights: give --init")
    policy = Policy.load(args.init)
    names = args.rules.split(",")
    all_rules = [rules_named(name) for name in names]
    members = args.opponents.split(",")
    opponents = [seat_bot(spec_of(member), Budget()) for member in members]
    tables = [int(n) for n in args.players.split(",")]
    if any(n not in TABLE_SIZES for n in tables):
        raise SystemExit("--players: 2, 3 or 4")

    def measure(label: str, now: Policy) -> list[float]:
        pays = []
        for name, rules in zip(names, all_rules, strict=True):
            for n in tables:
                for member, opponent in zip(members, opponents, strict=True):
                    won, pay = evaluate_play(
                        now, rules, args.eval_deals, str(args.seed), opponent, n
                    )
                    pays.append(pay + args.win_bonus * won)
                    print(
                        f"{label}, {name}: {won:.1%} of {n * args.eval_deals} deals won vs "
                        f"{n - 1} {member}, payment {pay:+.3f} per deal "
                        f"({time.perf_counter() - start:.0f} s)",
                        flush=True,
                    )
        return pays

    first = measure("start", policy)

    def score(pays: list[float]) -> float:
        if args.keep == "mean":
            return sum(pays) / len(pays)
        return min(now - then for now, then in zip(pays, first, strict=True))

    best = (score(first), 0, policy)

    def log(update: int, advantage: float, paid: float, now: Policy) -> None:
        nonlocal best
        print(f"  step {update + 1}: advantage {advantage:+.3f}, payment {paid:+.3f}", flush=True)
        if (update + 1) % args.eval_every == 0:
            pay = score(measure(f"step {update + 1}", now))
            if pay > best[0]:
                best = (pay, update + 1, now)

    improve(
        policy,
        all_rules,
        updates=args.updates,
        deals=args.deals,
        seed=args.seed,
        lr=args.lr,
        temperature=args.temperature,
        log=log,
        opponents=opponents,
        win_bonus=args.win_bonus,
        players=tables,
    )
    pay, step, chosen = best
    what = "payment" if args.keep == "mean" else "worst gain in payment"
    print(f"kept step {step} ({what} {pay:+.3f} on the measuring deals)")
    chosen.save(args.out, teacher=f"reinforce-{step}", rules=args.rules, players=args.players)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1000:.0f} kB)")


if __name__ == "__main__":
    main()
