"""The league (issue 42): ``python -m benchmarks.strength.league --candidate NAME
[--baseline NAME] [--members a,b,...] [--rules house] [--deals N] [--players 4]``.

The candidate takes one seat against three copies of each league member
(``pusoy.ai.league.MEMBERS``: the heuristic, the expert at 1,000 rollouts, ISMCTS, the
hoarder, the shedder, greedy, and the learned policy once it is a level), two or one
with ``--players 3`` or ``2``, the seats rotated, every member on the same deals. Per
member it prints the candidate's share of deals won with a Wilson 95% interval (fair
share 25% at 4 players), its zero-sum payment per deal (``scoring.deal_payments``: what
it took from the table, or gave), its mean place (1 best) and the share of opponent
seats it placed above (ties half; fair share 50%), each with a 95% interval: placed as
the lobby's ratings place a deal (``pusoy.ai.placing``).

With ``--baseline``, the baseline plays the same deals, and the verdict compares the two
deal by deal: the paired difference of deals won, of payment and of the share of seats
placed above per member, and KEEP unless the candidate loses to some member beyond noise
(an interval wholly below zero): in payment per deal by default, in deals won with
``--judge deals``, in either with ``--judge both``, in seats placed above with ``--judge
places``; the other measures' losses are flagged beside it either way.
``--rules`` may be repeated (``house``: the held-out match's house rules, or a preset).
A candidate or a member is a member name or any arena seat spec (``expert/1000``,
``module:function``; the heuristic of before the points changes is
``benchmarks.strength.frozen.heuristic_2026_11:heuristic_move``, named ``frozen`` here).

``--log DIR`` keeps each run's deals as JSON lines (``DIR/<rules>-<bot>.jsonl``, the bot
name made safe for a file name); ``--compare A.jsonl B.jsonl`` gives the verdict of two
logs of the same deals without playing again. The searching members are bounded by
rollouts, so their moves do not depend on the machine's load: run it niced with one
worker beside other work. Numbers only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from dataclasses import asdict

from pusoy.ai.arena import DealOutcome, outcome_from_data, percentile
from pusoy.ai.league import (
    CANDIDATE,
    JUDGES,
    MEMBERS,
    RULE_SETS,
    Verdict,
    place_standings,
    rules_named,
    run_league,
    spec_of,
    standings,
    verdict,
)
from pusoy.engine.shuffle import TABLE_SIZES

NAMED = {"frozen": "benchmarks.strength.frozen.heuristic_2026_11:heuristic_move"}


def spec(name: str) -> str:
    return NAMED.get(name, name)


def interval(value: float, ci: tuple[float, float], form: str) -> str:
    """``value [low, high]`` in the format ``form``."""
    return f"{value:{form}} [{ci[0]:{form}}, {ci[1]:{form}}]"


def format_standings(title: str, outcomes: dict[str, list[DealOutcome]], *, play_out: bool) -> str:
    places = place_standings(outcomes, play_out=play_out)
    players = next((len(o[0].levels) for o in outcomes.values() if o), 4)
    fair = f"won [95% CI] (fair {1 / players:.0%})"
    lines = [
        title,
        f"{'member':<10} {'deals':>5} {'wins':>5}  {fair:<24}"
        f"  {'payment/deal [95% CI]':<24}  {'place [95% CI]':<18}"
        f"  {'placed above [95% CI] (fair 50%)':<32}  candidate ms/move p50 / p95",
    ]
    lines += [
        f"{member:<10} {s.deals:>5} {s.wins:>5}"
        f"  {interval(s.win_share, s.win_share_ci, '6.1%'):<24}"
        f"  {interval(s.mean_payment, s.mean_payment_ci, '+6.2f'):<24}"
        f"  {interval(places[member].place, places[member].place_ci, '4.2f'):<18}"
        f"  {interval(places[member].above, places[member].above_ci, '6.1%'):<32}"
        f"  {s.move_ms_p50:.2f} / {s.move_ms_p95:.2f}"
        for member, s in standings(outcomes).items()
    ]
    return "\n".join(lines)


def points(value: float, ci: tuple[float, float]) -> str:
    """A difference of shares in points (0.01 is one), with its interval."""
    return interval(100 * value, (100 * ci[0], 100 * ci[1]), "+5.1f")


def format_verdict(result: Verdict, judge: str) -> str:
    lines = [
        f"candidate minus baseline, paired on the same deals (judged by {judge}):",
        f"{'member':<10} {'deals':>5}  {'deals won, points [95% CI]':<28}"
        f"  {'payment/deal [95% CI]':<24}  placed above, points [95% CI]",
    ]
    for member, d in result.differences.items():
        place = result.place_differences[member]
        flags = [
            name
            for name, members in (
                ("fewer deals", result.fewer_deals),
                ("less payment", result.less_payment),
                ("placed lower", result.lower_places),
            )
            if member in members
        ]
        flag = "  LOSES" if member in result.losses else ""
        if flags and member not in result.losses:
            flag = f"  ({', '.join(flags)})"
        lines.append(
            f"{member:<10} {d.deals:>5}  {points(d.won, d.won_ci):<28}"
            f"  {interval(d.payment, d.payment_ci, '+6.2f'):<24}"
            f"  {points(place.above, place.above_ci):<30}{flag}".rstrip()
        )
    if result.keep:
        lines.append("verdict: KEEP (loses to no member beyond noise)")
    else:
        lines.append(f"verdict: REJECT (loses to {', '.join(result.losses)} beyond noise)")
    return "\n".join(lines)


def write_log(
    path: str, settings: dict[str, object], outcomes: dict[str, list[DealOutcome]]
) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as log:
        log.write(json.dumps(settings) + "\n")
        for member, deals in outcomes.items():
            for outcome in deals:
                log.write(json.dumps(asdict(outcome) | {"member": member}) + "\n")


def log_play_out(path: str) -> bool:
    """Whether the rules of a log played the deals out (which places the losers)."""
    with open(path, encoding="utf-8") as log:
        rules: dict[str, object] = json.loads(log.readline())["rules"]
    return bool(rules.get("play_out", False))


def read_log(path: str) -> dict[str, list[DealOutcome]]:
    out: dict[str, list[DealOutcome]] = {}
    with open(path, encoding="utf-8") as log:
        log.readline()
        for line in log:
            if line.strip():
                data = json.loads(line)
                out.setdefault(data["member"], []).append(outcome_from_data(data))
    return out


def move_ms(outcomes: dict[str, list[DealOutcome]]) -> str:
    times = sorted(t for o in outcomes.values() for d in o for t in d.move_seconds[CANDIDATE])
    return f"{percentile(times, 0.5) * 1000:.2f} / {percentile(times, 0.95) * 1000:.2f} ms"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--candidate", default="heuristic", help="a member name or seat spec")
    parser.add_argument("--baseline", default=None, help="compared with on the same deals")
    parser.add_argument("--members", default=",".join(MEMBERS), help="comma-separated")
    parser.add_argument(
        "--rules", action="append", choices=sorted(RULE_SETS), help="repeatable; default house"
    )
    parser.add_argument("--deals", type=int, default=200, help="per member (x4 rotations)")
    parser.add_argument("--players", type=int, choices=TABLE_SIZES, default=4)
    parser.add_argument("--seed", default="league")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log", default=None, metavar="DIR")
    parser.add_argument("--compare", nargs=2, default=None, metavar=("A", "B"))
    parser.add_argument(
        "--judge", choices=JUDGES, default="payment", help="what losing means to the verdict"
    )
    args = parser.parse_args(argv)
    if args.compare:
        a, b = (read_log(path) for path in args.compare)
        play_out = {log_play_out(path) for path in args.compare}
        if len(play_out) > 1:
            parser.error("the two logs place their deals by different rules (play_out)")
        (out,) = play_out
        print(
            format_standings(args.compare[0], a, play_out=out),
            "",
            format_standings(args.compare[1], b, play_out=out),
            "",
            format_verdict(verdict(a, b, args.judge, play_out=out), args.judge),
            sep="\n",
        )
        return
    members = [m.strip() for m in args.members.split(",") if m.strip()]
    bots = [args.candidate] + ([args.baseline] if args.baseline else [])
    for rules_name in args.rules or ["house"]:
        rules = rules_named(rules_name)
        runs: list[dict[str, list[DealOutcome]]] = [{} for _ in bots]
        seconds = [0.0 for _ in bots]
        # Member by member, each bot in turn, a line as each ends: a long run stopped
        # early still printed what it played.
        for member in members:
            for k, bot in enumerate(bots):
                start = time.perf_counter()
                runs[k] |= run_league(
                    spec(bot),
                    [member],
                    rules,
                    args.deals,
                    seed=args.seed,
                    workers=args.workers,
                    players=args.players,
                )
                seconds[k] += time.perf_counter() - start
                row = format_standings(
                    "", {member: runs[k][member]}, play_out=rules.play_out
                ).splitlines()[-1]
                print(f"  {bot}: {row}", file=sys.stderr, flush=True)
        for k, bot in enumerate(bots):
            print(
                format_standings(
                    f"{bot} against the league, rules {rules_name} {rules.to_spec()!r}, "
                    f"{args.players} players, "
                    f"{args.deals} deals per member, seed {args.seed!r}, {seconds[k]:.0f} s, "
                    f"candidate {move_ms(runs[k])} a move",
                    runs[k],
                    play_out=rules.play_out,
                ),
                "",
                sep="\n",
                flush=True,
            )
            if args.log:
                safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", bot)
                settings = {
                    "candidate": spec(bot),
                    "members": {m: spec_of(m) for m in members},
                    "rules": rules.to_dict(),
                    "deals": args.deals,
                    "seed": args.seed,
                    "players": args.players,
                }
                write_log(os.path.join(args.log, f"{rules_name}-{safe}.jsonl"), settings, runs[k])
        if len(runs) == 2:
            print(
                format_verdict(
                    verdict(runs[0], runs[1], args.judge, play_out=rules.play_out), args.judge
                ),
                "",
                sep="\n",
                flush=True,
            )


if __name__ == "__main__":
    main()
