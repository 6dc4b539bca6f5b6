"""`manage.py ai_arena --games N --seats expert,heuristic,heuristic,heuristic --rules PRESET`:
bots against bots with no HTTP and no database (the logic is in ``pusoy.ai.arena``)."""

from __future__ import annotations

import json
import os

from django.core.management.base import BaseCommand, CommandError

from pusoy.ai import LEVELS, Budget, expert
from pusoy.ai.arena import format_report, run_arena
from pusoy.engine.errors import RulesError
from pusoy.engine.rules import Rules


class Command(BaseCommand):
    help = (
        "Play AI levels against each other (seats rotated) and print each level's win "
        "share and mean points with 95% intervals, and the time per move."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100, help="deals to play")
        parser.add_argument(
            "--seats",
            default="expert,heuristic,heuristic,heuristic",
            help=f"2 to 4 comma-separated levels out of {', '.join(LEVELS)}",
        )
        parser.add_argument(
            "--rules",
            default="philippine",
            help="a preset name, or a JSON object such as "
            '\'{"preset": "philippine", "flush_order": "suit-first"}\'',
        )
        parser.add_argument("--seed", default="0", help="arena seed (deals are reproducible)")
        parser.add_argument(
            "--budget-ms", type=float, default=1000.0, help="expert time per move (ms)"
        )
        parser.add_argument(
            "--iterations", type=int, default=None, help="expert rollouts per move at most"
        )
        parser.add_argument(
            "--workers", type=int, default=os.cpu_count() or 1, help="worker processes"
        )

    def handle(self, *args, games, seats, rules, seed, budget_ms, iterations, workers, **options):
        expert.tune_collector()  # this process exists to search, as a worker does
        try:
            spec = json.loads(rules) if rules.lstrip().startswith("{") else rules
            resolved = Rules.from_spec(spec)
        except (RulesError, json.JSONDecodeError) as error:
            raise CommandError(f"bad --rules: {error}") from None
        levels = [s.strip() for s in seats.split(",") if s.strip()]
        budget = Budget(seconds=budget_ms / 1000, iterations=iterations)

        def progress(done: int, total: int) -> None:
            if done == total or done % max(1, total // 20) == 0:
                self.stderr.write(f"{done}/{total} deals")

        try:
            report = run_arena(
                levels,
                games,
                resolved,
                seed=seed,
                budget=budget,
                workers=max(1, workers),
                progress=progress,
            )
        except ValueError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(format_report(report))
