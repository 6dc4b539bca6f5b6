"""`manage.py ratings_calibrate --deals N`: the AI levels' starting ratings, from arena
deals in which the levels play each other (seats rotated), each deal placed exactly as
rated games place it, and rated as entrants whose skill does not change
(``ratings.system.rate_fixed``). Prints the table and the `CALIBRATED` literal for
ratings/bot_calibration.py.

``--seat LEVEL=SPEC`` (repeatable) plays the arena seat spec SPEC in LEVEL's seats,
rated under LEVEL's name: the rating a candidate bot would take into the lobby as that
level, tried before the lobby changes."""

from __future__ import annotations

import os
from itertools import combinations

from django.core.management.base import BaseCommand, CommandError

from pusoy.ai import LEVELS, Budget
from pusoy.ai.arena import run_arena, seat_bot
from pusoy.ai.league import rules_named
from pusoy.ai.placing import head_to_head, outcome_ranks
from ratings.system import rate_fixed

# A level's rating must still move with its results against people, which a sigma
# shrunk by thousands of bot-only deals would stop.
SIGMA_FLOOR = 2.0


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

    def handle(self, *args, deals, rules, budget_ms, seed, workers, seat, **options):
        try:
            resolved = rules_named(rules)
        except ValueError as error:
            raise CommandError(f"--rules: {error}") from None
        budget = Budget(seconds=budget_ms / 1000)
        specs = seat_specs(seat, budget)
        report = run_arena(
            LEVELS, deals, resolved, seed=seed, budget=budget, workers=workers, specs=specs
        )
        skills = rate_fixed(
            (outcome.levels, outcome_ranks(outcome, play_out=resolved.play_out))
            for outcome in report.outcomes
        )
        timed = "expert" in specs.values()
        budget_note = f", expert {budget_ms:.0f} ms/move" if timed else ""
        self.stdout.write(f"{deals} deals, {rules}{budget_note}, {report.seconds:.0f} s")
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
                report.outcomes, stronger, weaker, play_out=resolved.play_out
            )
            self.stdout.write(
                f"  {stronger} placed above {weaker} in {above:.1%} [{low:.1%}, {high:.1%}]"
            )
        literal = ", ".join(
            f'"{level}": ({skills[level].mu:.2f}, {max(skills[level].sigma, SIGMA_FLOOR):.2f})'
            for level in LEVELS
        )
        self.stdout.write("CALIBRATED = {" + literal + "}")


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
