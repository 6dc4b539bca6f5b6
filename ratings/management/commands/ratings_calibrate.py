"""`manage.py ratings_calibrate --deals N`: the AI levels' starting ratings, from arena
deals in which the levels play each other (seats rotated), each deal placed exactly as
rated games place it, and rated as entrants whose skill does not change
(``ratings.system.rate_fixed``). Prints the table and the `CALIBRATED` literal for
ratings/bot_calibration.py.

``--seat LEVEL=SPEC`` (repeatable) plays the arena seat spec SPEC in LEVEL's seats,
rated under LEVEL's name: the rating a candidate bot would take into the lobby as that
level, tried before the lobby changes.

``--log FILE`` keeps every deal's outcome as a line of JSON (after a first line of the
settings); ``--compare A B`` reads two logs of the same deals (the same seed and rules)
and prints, per pair of levels, how much more often the first placed above the second in
A than in B, paired deal by deal: two runs of 1,000 deals each a few points apart are
told apart this way, where their separate intervals overlap. Each deal is logged as it
ends, so a run stopped early keeps its first deals, and ``--resume FILE`` plays the deals
the log lacks (with the settings the log holds, on the same engine and bots) and rates
them all: a run of hours, such as the expert at the lobby's 1 s a move, can be played in
several sittings."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from itertools import combinations
from typing import TextIO

from django.core.management.base import BaseCommand, CommandError

from pusoy import compiled, resumable
from pusoy.ai import LEVELS, Budget
from pusoy.ai.arena import DealOutcome, outcome_from_json, outcome_json, run_arena, seat_bot
from pusoy.ai.league import rules_named
from pusoy.ai.placing import head_to_head, outcome_ranks, paired_place_difference
from ratings.system import rate_fixed

# A level's rating must still move with its results against people, which a sigma
# shrunk by thousands of bot-only deals would stop.
SIGMA_FLOOR = 2.0
# The first line of a ``--log`` file holds these.
LOG_SETTINGS = frozenset({"rules", "seed", "play_out", "specs"})
# and these too when it can be resumed (logs of before 2026-12-07 cannot).
RESUME_SETTINGS = LOG_SETTINGS | {"deals", "budget_ms", "code"}


class Command(BaseCommand):
    help = "Rate the AI levels against each other in the arena and print their ratings."

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, default=400)
        parser.add_argument(
            "--rules", default="philippine", help="a preset, or house (the league's)"
        )
        parser.add_argument("--budget-ms", type=float, default=100.0, help="expert per move")
        parser.add_argument("--seed", default="calibrate")
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
        parser.add_argument(
            "--seat",
            action="append",
            default=[],
            metavar="LEVEL=SPEC",
            help="play the arena seat spec SPEC in LEVEL's seats, rated as LEVEL (repeatable)",
        )
        parser.add_argument("--log", metavar="FILE", help="each deal's outcome, a JSON line")
        parser.add_argument(
            "--resume",
            metavar="FILE",
            help="play the deals a --log file lacks, append them, and rate them all",
        )
        parser.add_argument(
            "--compare",
            nargs=2,
            metavar=("A", "B"),
            help="two --log files of the same deals: A's head-to-head minus B's, paired",
        )

    def handle(
        self, *args, deals, rules, budget_ms, seed, workers, seat, log, resume, compare, **options
    ):
        if compare:
            self.compare(*compare)
            return
        first = 0
        if resume:
            # The run's own settings, from its log; of the arguments given now only --workers.
            settings, first = resume_point(resume)
            rules, seed, deals = settings["rules"], settings["seed"], settings["deals"]
            budget_ms, log = settings["budget_ms"], resume
        try:
            resolved = rules_named(rules)
        except ValueError as error:
            raise CommandError(f"--rules: {error}") from None
        budget = Budget(seconds=budget_ms / 1000)
        specs = settings["specs"] if resume else seat_specs(seat, budget)
        settings = {
            "rules": rules,
            "play_out": resolved.play_out,
            "seed": seed,
            "specs": specs,
            "deals": deals,
            "budget_ms": budget_ms,
            "code": compiled.fingerprint(),
        }
        with contextlib.ExitStack() as stack:
            record: Callable[[DealOutcome], None] | None = None
            if log:
                # Each deal is logged as soon as it and every deal before it are played, so a
                # run stopped early (a long one at the lobby's budget) still compares on the
                # deals it finished (``--compare`` pairs the deals both logs hold) and can be
                # resumed (``--resume``).
                out = stack.enter_context(open(log, "a" if resume else "w", encoding="utf-8"))
                if not resume:
                    out.write(json.dumps(settings) + "\n")
                    out.flush()

                def write_outcome(outcome: DealOutcome, out: TextIO = out) -> None:
                    out.write(outcome_json(outcome) + "\n")
                    out.flush()

                record = write_outcome

            report = run_arena(
                LEVELS,
                deals,
                resolved,
                seed=seed,
                budget=budget,
                workers=workers,
                specs=specs,
                record=record,
                first=first,
            )
        outcomes = read_log(resume)[1] if resume else report.outcomes
        skills = rate_fixed(
            (outcome.levels, outcome_ranks(outcome, play_out=resolved.play_out))
            for outcome in outcomes
        )
        timed = "expert" in specs.values()
        budget_note = f", expert {budget_ms:.0f} ms/move" if timed else ""
        resumed = f" (resumed after {first})" if resume else ""
        self.stdout.write(f"{deals} deals, {rules}{budget_note}, {report.seconds:.0f} s{resumed}")
        for level in LEVELS:
            s = skills[level]
            self.stdout.write(
                f"{level:10} mu {s.mu:6.2f}  sigma {s.sigma:5.2f}  display {s.display:6.2f}"
                f"  played by {specs[level]}"
            )
        # A rating orders two levels by how often one places above the other at a table,
        # so a pair whose ratings look close can be read here with its interval.
        for stronger, weaker in combinations(reversed(LEVELS), 2):
            above, (low, high) = head_to_head(
                outcomes, stronger, weaker, play_out=resolved.play_out
            )
            self.stdout.write(
                f"  {stronger} placed above {weaker} in {above:.1%} [{low:.1%}, {high:.1%}]"
            )
        literal = ", ".join(
            f'"{level}": ({skills[level].mu:.2f}, {max(skills[level].sigma, SIGMA_FLOOR):.2f})'
            for level in LEVELS
        )
        self.stdout.write("CALIBRATED = {" + literal + "}")

    def compare(self, path_a: str, path_b: str) -> None:
        """Per pair of levels, A's share placed above minus B's, over the deals both hold."""
        (settings_a, a), (settings_b, b) = read_log(path_a), read_log(path_b)
        for key in ("rules", "seed"):
            if settings_a[key] != settings_b[key]:
                raise CommandError(
                    f"--compare: the logs differ in {key} ({settings_a[key]!r}, "
                    f"{settings_b[key]!r}): their deals are not the same"
                )
        play_out = bool(settings_a["play_out"])
        for name, settings in (("A", settings_a), ("B", settings_b)):
            played = ", ".join(f"{level}={spec}" for level, spec in settings["specs"].items())
            self.stdout.write(f"{name}: {played}")
        for stronger, weaker in combinations(reversed(LEVELS), 2):
            d = paired_place_difference(a, b, stronger, play_out=play_out, other=weaker)
            low, high = d.above_ci
            self.stdout.write(
                f"  {stronger} placed above {weaker}, A minus B: {d.above * 100:+.1f} points "
                f"[{low * 100:+.1f}, {high * 100:+.1f}] over {d.deals} deals"
            )


def read_log(path: str) -> tuple[dict, list[DealOutcome]]:
    """A ``--log`` file's settings and outcomes; CommandError when it is not one."""
    try:
        with open(path, encoding="utf-8") as log:
            return parse_log(log.read())
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CommandError(f"--compare: {path} is not a ratings_calibrate log ({error})") from None


def parse_log(text: str) -> tuple[dict, list[DealOutcome]]:
    """The settings and outcomes of a log's ``text``; ValueError (or KeyError, TypeError
    from a deal's line) when it is not one."""
    first, _newline, rest = text.partition("\n")
    settings = json.loads(first)
    if not isinstance(settings, dict) or not LOG_SETTINGS.issubset(settings):
        raise ValueError("no settings line")
    return settings, [outcome_from_json(line) for line in rest.splitlines() if line.strip()]


def resume_point(path: str) -> tuple[dict, int]:
    """A log to resume: its settings and how many deals it holds (``pusoy.resumable``:
    a half-written last line is cut off; a log of other engine or bot sources, of an
    older version of this command, or already complete is refused)."""

    def deal_indices(text: str) -> tuple[dict, list[int]]:
        settings, outcomes = parse_log(text)
        return settings, [outcome.index for outcome in outcomes]

    try:
        return resumable.resume_point(
            path, "a ratings_calibrate log", deal_indices, RESUME_SETTINGS
        )
    except resumable.NotResumable as error:
        raise CommandError(f"--resume: {error}") from None


def seat_specs(seats: list[str], budget: Budget) -> dict[str, str]:
    """Each level's seat spec: its own name unless ``--seat LEVEL=SPEC`` says otherwise.
    A bad one is refused before any deal is played."""
    specs = {level: level for level in LEVELS}
    for given in seats:
        level, equals, spec = given.partition("=")
        if not equals or not spec:
            raise CommandError(f"--seat {given!r}: expected LEVEL=SPEC")
        if level not in LEVELS:
            raise CommandError(
                f"--seat {given!r}: unknown level {level!r}; known: {', '.join(LEVELS)}"
            )
        try:
            seat_bot(spec, budget)
        except ValueError as error:
            raise CommandError(f"--seat {given!r}: {error}") from None
        specs[level] = spec
    return specs
