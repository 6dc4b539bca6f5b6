"""`manage.py ratings_calibrate`: the levels play each other and the command prints
their ratings and the literal for ratings/bot_calibration.py."""

from __future__ import annotations

import ast
import io

from django.core.management import call_command

from pusoy.ai import LEVELS
from ratings.management.commands.ratings_calibrate import SIGMA_FLOOR


def test_the_calibration_prints_every_level_and_a_literal_to_store() -> None:
    out = io.StringIO()
    call_command("ratings_calibrate", deals=8, budget_ms=5, workers=1, seed="test", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("8 deals, philippine")
    assert [line.split()[0] for line in lines[1:5]] == list(LEVELS)
    literal = ast.literal_eval(lines[-1].removeprefix("CALIBRATED = "))
    assert list(literal) == list(LEVELS)
    # Eight deals of four levels (each level in each seat twice) settle nothing: the
    # stored sigma is the floor or wider, so every level still learns from people.
    assert all(sigma >= SIGMA_FLOOR for _mu, sigma in literal.values())
    mus = [mu for mu, _sigma in literal.values()]
    assert abs(sum(mus) / len(mus) - 25) < 1  # a closed pool keeps the mean it started at
