"""Strength on points (issue 12):
``python -m benchmarks.strength.ai_points [--deals N] [--only NAME]``.

Each matchup is an arena run (``pusoy.ai.arena``: seats rotated, every deal played once
per rotation) and prints win shares and, per level, the game's points and the zero-sum
payments per seat per deal with 95% intervals. A level "plays better for points" when
its payment per deal is above zero with the interval clear of it: it took more from the
table than it gave.

Matchups (names for ``--only``):

- ``expert-<scoring>``: the expert at 100 ms alone against three heuristics, under each
  scoring system, 4 players; ``expert-3p``: the same in 3-player deals (the 52nd card
  dealt face up);
- ``heuristic-<scoring>``: today's heuristic alone against three copies of the heuristic
  as it was before it played for points (``benchmarks/strength/frozen``);
- ``budget``: the expert at 1 s (two seats) against the expert at 100 ms (two seats).

The expert's budget is wall-clock time: run on an otherwise idle machine with one worker
per core, or its numbers understate it. Numbers only; nothing here asserts.

A long run (``budget``: about 100 minutes per 1,000 deals on 2 cores) can keep a log:
``--log DIR`` writes ``DIR/<matchup>.jsonl``, a line of settings and then a line per
deal in deal order as the deals are played; ``--summarize DIR/budget.jsonl`` prints the
report of what a log holds, so a run stopped early still reports its first deals
(repeated with logs of other seeds of the matchup, also all their deals pooled), and
``--resume DIR/budget.jsonl`` plays the deals it lacks and appends them (the log
records a fingerprint of the engine's and the bots' sources, and a resume with other
sources is refused), so a run can be spread over several sittings.
``--compare A.jsonl B.jsonl`` compares two logs of the same deals (two builds or
settings of a bot, same seed and seats) deal by deal: the paired difference of deals
won and of payment per level, with 95% intervals, which tells apart changes of a point
or two that the runs' own intervals cannot. ``--seat-check FILE`` replays each deal of a
log with the heuristic in every seat (it is deterministic) and tells, per level, how
often it kept a deal that the heuristic in its seat would have won, and how often it
won one the heuristic would have lost: where a level gains on the heuristic and where it
throws deals away.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import Counter, defaultdict
from typing import Any

from pusoy import compiled, resumable
from pusoy.ai import Budget
from pusoy.ai.arena import (
    ArenaReport,
    DealOutcome,
    PairedDifference,
    format_report,
    outcome_from_data,
    outcome_json,
    paired_differences,
    play_deal,
    pooled_differences,
    run_arena,
    summarize,
)
from pusoy.engine.rules import Rules

FROZEN = "benchmarks.strength.frozen.heuristic_2026_11:heuristic_move"
# The heuristic level's planner alone, without its small search (``pusoy.ai.instant``).
PLANNER = "pusoy.ai.heuristic:heuristic_move"
SCORINGS = ("deuces-double", "cards-left", "cards-left-tiered")


def matchups() -> dict[str, tuple[list[str], Rules]]:
    out: dict[str, tuple[list[str], Rules]] = {}
    for scoring in SCORINGS:
        rules = Rules.from_spec({"preset": "philippine", "scoring": scoring})
        out[f"expert-{scoring}"] = (["expert@100", "heuristic", "heuristic", "heuristic"], rules)
    out["expert-3p"] = (
        ["expert@100", "heuristic", "heuristic"],
        Rules.from_spec({"preset": "philippine", "scoring": "cards-left-tiered"}),
    )
    for scoring in SCORINGS:
        rules = Rules.from_spec({"preset": "philippine", "scoring": scoring})
        out[f"heuristic-{scoring}"] = (["heuristic", FROZEN, FROZEN, FROZEN], rules)
    out["budget"] = (
        ["expert@1000", "expert@100", "expert@1000", "expert@100"],
        Rules.from_spec("philippine"),
    )
    return out


class DealLog:
    """``--log``: a line of the run's settings, then a line per deal as it is played
    (``outcome_json`` and the seconds since the start), flushed at once. Without
    ``settings``, more deals of the log at ``path``, whose deals so far took
    ``elapsed`` seconds (``--resume``)."""

    def __init__(
        self, path: str, settings: dict[str, object] | None = None, *, elapsed: float = 0.0
    ) -> None:
        if settings is None:
            self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        else:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
            self.file.write(json.dumps(settings) + "\n")
        self.start = time.perf_counter() - elapsed

    def __call__(self, outcome: DealOutcome) -> None:
        elapsed = round(time.perf_counter() - self.start, 3)
        self.file.write(outcome_json(outcome, elapsed=elapsed) + "\n")
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def read_log(path: str) -> ArenaReport:
    """The report of the deals a ``--log`` file holds (all of them, or the first ones
    of a run stopped early)."""
    with open(path, encoding="utf-8") as log:
        settings = json.loads(log.readline())
        outcomes: list[DealOutcome] = []
        seconds = 0.0
        for line in log:
            if line.strip():
                data = json.loads(line)
                outcomes.append(outcome_from_data(data))
                seconds = data.get("elapsed", seconds)
    seats = tuple(settings["seats"])
    report = ArenaReport(
        seats=seats,
        rules=Rules.from_spec(settings["rules"]),
        games=len(outcomes),
        seed=settings["seed"],
        budget=Budget(seconds=settings["budget_seconds"]),
        workers=settings["workers"],
        seconds=seconds,
    )
    report.levels = summarize(outcomes, seats)
    report.outcomes = outcomes
    return report


# What ``--resume`` reads from a log's first line.
RESUME_SETTINGS = frozenset(
    {"matchup", "seats", "rules", "seed", "deals", "budget_seconds", "code"}
)


def deal_indices(text: str) -> tuple[dict[str, Any], list[int]]:
    """A log's settings and its deals' indices; ValueError (or KeyError, TypeError) when
    the text is no log."""
    first, _newline, rest = text.partition("\n")
    settings = json.loads(first)
    if not isinstance(settings, dict):
        raise ValueError("no settings line")
    return settings, [json.loads(line)["index"] for line in rest.splitlines() if line.strip()]


def resume_point(path: str) -> tuple[dict[str, Any], int, float]:
    """A log to resume (``--resume``): its settings, how many deals it holds and their
    seconds (``pusoy.resumable``: a half-written last line is cut off; a log of other
    sources, or one already complete, is refused)."""
    try:
        settings, done = resumable.resume_point(
            path, "an ai_points log", deal_indices, RESUME_SETTINGS
        )
    except resumable.NotResumable as error:
        raise SystemExit(f"--resume: {error}; not resumed") from None
    return settings, done, read_log(path).seconds


def resume(path: str, workers: int) -> str:
    """Play the deals a log lacks, append them, and report every deal it then holds."""
    settings, done, elapsed = resume_point(path)
    log = DealLog(path, elapsed=elapsed)
    try:
        run_arena(
            settings["seats"],
            settings["deals"],
            Rules.from_spec(settings["rules"]),
            seed=settings["seed"],
            budget=Budget(seconds=settings["budget_seconds"]),
            workers=workers,
            record=log,
            first=done,
        )
    finally:
        log.close()
    report = read_log(path)
    head = f"## {settings['matchup']}: {path}, resumed after {done} deals ({report.games} now)"
    return f"{head}\n\n{format_report(report)}"


def format_summaries(paths: list[str]) -> str:
    """``--summarize``: the report of each log; of several, also all their deals pooled."""
    reports = [read_log(path) for path in paths]
    parts = [
        f"## {path} ({report.games} deals logged)\n\n{format_report(report)}"
        for path, report in zip(paths, reports, strict=True)
    ]
    if len(reports) > 1:
        pooled = pooled_report(reports)
        parts.append(f"## pooled over the {len(reports)} logs\n\n{format_report(pooled)}")
    return "\n\n".join(parts)


def pooled_report(reports: list[ArenaReport]) -> ArenaReport:
    """Runs of other deals (seeds) of the same seats, rules and budget as one run: each
    deal one sample, so the intervals are those of all the deals together."""
    _refuse_unless_other_deals([(f"seed {r.seed!r}", r) for r in reports])
    first = reports[0]
    outcomes = [o for r in reports for o in r.outcomes]
    pooled = ArenaReport(
        seats=first.seats,
        rules=first.rules,
        games=len(outcomes),
        seed="+".join(r.seed for r in reports),
        budget=first.budget,
        workers=first.workers,
        seconds=sum(r.seconds for r in reports),
    )
    pooled.levels = summarize(outcomes, first.seats)
    pooled.outcomes = outcomes
    return pooled


def format_comparison(pairs: list[list[str]]) -> str:
    """``--compare``: per level, run A minus run B on the deals both logged; with
    several pairs (other seeds), each pair and then all of them pooled."""
    runs = []
    for path_a, path_b in pairs:
        a, b = read_log(path_a), read_log(path_b)
        if (_setup(a), a.seed) != (_setup(b), b.seed):
            raise SystemExit(
                f"{path_a} and {path_b} are not runs of the same deals, seats and budget"
            )
        runs.append((a, b))
    _refuse_unless_other_deals([(pair[0], a) for pair, (a, _b) in zip(pairs, runs, strict=True)])
    lines = []
    for (path_a, path_b), (a, b) in zip(pairs, runs, strict=True):
        lines.append(f"{path_a} - {path_b}, paired deal by deal")
        lines += _differences(paired_differences(a.outcomes, b.outcomes, a.seats))
    if len(runs) > 1:
        seeds = ", ".join(a.seed for a, _b in runs)
        lines.append(f"pooled over the {len(runs)} pairs (seeds {seeds})")
        pooled = pooled_differences([(a.outcomes, b.outcomes) for a, b in runs], runs[0][0].seats)
        lines += _differences(pooled)
    return "\n".join(lines)


def _refuse_unless_other_deals(named: list[tuple[str, ArenaReport]]) -> None:
    """Runs pooled as one must be other deals (seeds) of the same seats, rules and budget."""
    first = named[0][1]
    seen: set[str] = set()
    for name, report in named:
        if _setup(report) != _setup(first):
            raise SystemExit(
                f"{name}: not the seats, rules and budget of the first; "
                "pooled runs must have the same seats, rules and budget"
            )
        if report.seed in seen:
            raise SystemExit(f"{name}: seed {report.seed!r} twice; pooled runs must be other deals")
        seen.add(report.seed)


def _setup(report: ArenaReport) -> tuple[object, ...]:
    """What two runs must share to be compared: seats, rules and budget."""
    return (report.seats, report.rules, report.budget)


def _differences(differences: list[PairedDifference]) -> list[str]:
    return [
        f"{d.level}: {d.deals} deals, deals won {d.won * 100:+.1f} points "
        f"[{d.won_ci[0] * 100:+.1f}, {d.won_ci[1] * 100:+.1f}], payment/seat "
        f"{d.payment:+.3f} [{d.payment_ci[0]:+.3f}, {d.payment_ci[1]:+.3f}]"
        for d in differences
    ]


def seat_check(report: ArenaReport) -> dict[str, Counter[tuple[bool, bool]]]:
    """Per level (seats of it in each deal of ``report``): counts of (the heuristic in
    that seat would have won the deal, the level won it). The heuristic's planner in every
    seat (``PLANNER``: deterministic, where the level's search draws worlds from the random
    source) plays each deal one way, so one replay per deal serves."""
    n = len(report.seats)
    table = (PLANNER,) * n
    winners: dict[int, int] = {}
    counts: defaultdict[str, Counter[tuple[bool, bool]]] = defaultdict(Counter)
    for outcome in report.outcomes:
        deal = outcome.index // n
        if deal not in winners:
            task = (deal * n, table, report.rules, report.seed, report.budget)
            winners[deal] = play_deal(task).winner
        for seat, level in enumerate(outcome.levels):
            counts[level][winners[deal] == seat, outcome.winner == seat] += 1
    return counts


def format_seat_check(path: str) -> str:
    """``--seat-check``: what ``seat_check`` counts, as sentences per level."""
    report = read_log(path)
    lines = [f"{path}: {report.games} deals, each level against the heuristic in its seat"]
    for level, c in seat_check(report).items():
        kept, turned = c[True, True], c[False, True]
        would_win, would_lose = kept + c[True, False], turned + c[False, False]
        lines.append(
            f"{level}: kept {kept} of the {would_win} seats the heuristic would have won "
            f"({kept / max(1, would_win):.1%}, threw away {would_win - kept}); won {turned} "
            f"of the {would_lose} it would have lost ({turned / max(1, would_lose):.1%})"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per expert matchup")
    parser.add_argument(
        "--heuristic-deals",
        type=int,
        default=40_000,
        help="deals per heuristic matchup (fast; the effect is small against the spread)",
    )
    parser.add_argument("--only", action="append", help="run only these matchups")
    parser.add_argument("--seed", default="points")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--log", metavar="DIR", help="write each deal to DIR/<matchup>.jsonl")
    parser.add_argument(
        "--summarize",
        metavar="FILE",
        action="append",
        help="report a --log file and stop; repeated with other seeds: also pooled",
    )
    parser.add_argument(
        "--compare",
        metavar="FILE",
        nargs=2,
        action="append",
        help="paired differences of two logs (A - B); repeated with other seeds: also pooled",
    )
    parser.add_argument(
        "--seat-check", metavar="FILE", help="each level against the heuristic in its seat"
    )
    parser.add_argument(
        "--resume", metavar="FILE", help="play the deals a --log file lacks and append them"
    )
    args = parser.parse_args()
    if args.resume:
        print(resume(args.resume, args.workers), flush=True)
        return
    if args.seat_check:
        print(format_seat_check(args.seat_check))
        return
    if args.compare:
        print(format_comparison(args.compare))
        return
    if args.summarize:
        print(format_summaries(args.summarize), flush=True)
        return
    chosen = matchups()
    if args.only:
        unknown = [name for name in args.only if name not in chosen]
        if unknown:
            parser.error(f"unknown matchup(s) {unknown}; known: {', '.join(chosen)}")
        chosen = {name: chosen[name] for name in args.only}
    print(
        f"python {platform.python_version()}, {args.workers} worker(s), "
        f"load average {os.getloadavg()[0]:.1f}, seed {args.seed!r}",
        flush=True,
    )
    for name, (seats, rules) in chosen.items():
        start = time.perf_counter()
        deals = args.heuristic_deals if name.startswith("heuristic") else args.deals
        budget = Budget(seconds=0.1)
        log = None
        if args.log:
            settings = {
                "matchup": name,
                "seats": seats,
                "rules": rules.to_spec(),
                "seed": args.seed,
                "deals": deals,
                "budget_seconds": budget.seconds,
                "workers": args.workers,
                "code": compiled.fingerprint(),
            }
            log = DealLog(os.path.join(args.log, f"{name}.jsonl"), settings)
        try:
            report = run_arena(
                seats,
                deals,
                rules,
                seed=args.seed,
                budget=budget,
                workers=args.workers,
                record=log,
            )
        finally:
            if log is not None:
                log.close()
        print(f"\n## {name} ({time.perf_counter() - start:.0f} s)\n", flush=True)
        print(format_report(report), flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
