"""`manage.py ratings_calibrate`: the levels play each other and the command prints
their ratings and the literal for ratings/bot_calibration.py."""

from __future__ import annotations

import ast
import io
import json
import random
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from pusoy.ai import LEVELS
from pusoy.ai.greedy import greedy_move
from pusoy.engine.moves import Move
from pusoy.engine.state import PlayerView
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
    # every pair of levels, the stronger first, as one placed above the other
    pairs = [re.match(r"  (\w+) placed above (\w+) in ([\d.]+)%", line) for line in lines[5:-1]]
    assert [m.group(1, 2) for m in pairs] == [
        ("expert", "heuristic"),
        ("expert", "greedy"),
        ("expert", "random"),
        ("heuristic", "greedy"),
        ("heuristic", "random"),
        ("greedy", "random"),
    ]
    assert all(0 <= float(m.group(3)) <= 100 for m in pairs)


def test_a_seat_plays_a_candidate_under_the_levels_name() -> None:
    out = io.StringIO()
    call_command(
        "ratings_calibrate",
        "--seat",
        "expert=greedy",
        "--seat",
        "heuristic=pusoy.ai.random_bot:random_move",
        deals=4,
        workers=1,
        seed="seat",
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    assert "ms/move" not in lines[0]  # no seat plays the expert at the budget
    played = {line.split()[0]: line.split("played by ")[1] for line in lines[1:5]}
    assert played == {
        "random": "random",
        "greedy": "greedy",
        "heuristic": "pusoy.ai.random_bot:random_move",
        "expert": "greedy",
    }
    # rated under the levels' own names, as the lobby would store them
    assert list(ast.literal_eval(lines[-1].removeprefix("CALIBRATED = "))) == list(LEVELS)


@pytest.mark.parametrize(
    ("seat", "error"),
    [
        ("wizard=greedy", "unknown level 'wizard'"),
        ("expert=benchmarks.nowhere:bot", "no bot 'benchmarks.nowhere:bot'"),
        ("expert=expert/0", "bad budget"),
        ("expert=", "expected LEVEL=SPEC"),
        ("greedy", "expected LEVEL=SPEC"),
    ],
)
def test_a_bad_seat_is_refused_before_any_deal(seat: str, error: str) -> None:
    with pytest.raises(CommandError, match=re.escape(error)):
        call_command("ratings_calibrate", "--seat", seat, deals=4, workers=1, stdout=io.StringIO())


def test_the_leagues_house_rules_are_rules_too_and_unknown_ones_are_refused() -> None:
    out = io.StringIO()
    call_command("ratings_calibrate", rules="house", deals=4, budget_ms=5, workers=1, stdout=out)
    assert out.getvalue().startswith("4 deals, house")
    with pytest.raises(CommandError, match=re.escape("unknown rules 'nope'")):
        call_command("ratings_calibrate", rules="nope", deals=4, workers=1, stdout=io.StringIO())


def test_two_logged_runs_of_the_same_deals_compare_paired(tmp_path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    # B plays random in the expert's seats. The deals are the same, so per pair of levels
    # the paired difference is A's share placed above minus B's, each as its own run
    # printed it. (Not which is larger: over 8 deals random placed above the planner
    # more often than the expert did, and a time-budgeted expert's moves vary with load.)
    common = {"deals": 8, "workers": 1, "seed": "log"}
    out_a, out_b = io.StringIO(), io.StringIO()
    call_command(
        "ratings_calibrate", "--seat", "expert=expert/100", log=str(a), stdout=out_a, **common
    )
    call_command("ratings_calibrate", "--seat", "expert=random", log=str(b), stdout=out_b, **common)
    assert len(a.read_text().splitlines()) == 1 + 8
    out = io.StringIO()
    call_command("ratings_calibrate", "--compare", str(a), str(a), stdout=out)
    same = out.getvalue().splitlines()
    assert same[0].startswith("A: random=random, greedy=greedy")
    assert all("A minus B: +0.0 points [+0.0, +0.0] over 8 deals" in line for line in same[2:])
    out = io.StringIO()
    call_command("ratings_calibrate", "--compare", str(a), str(b), stdout=out)
    lines = out.getvalue().splitlines()
    assert "expert=random" in lines[1]

    def shares(text: str) -> dict[tuple[str, str], float]:
        found = re.findall(r"^  (\w+) placed above (\w+) in ([\d.]+)%", text, re.MULTILINE)
        return {(x, y): float(share) for x, y, share in found}

    run_a, run_b = shares(out_a.getvalue()), shares(out_b.getvalue())
    differences = {
        (x, y): float(d)
        for x, y, d in re.findall(
            r"^  (\w+) placed above (\w+), A minus B: ([+-][\d.]+) points .* over 8 deals$",
            out.getvalue(),
            re.MULTILINE,
        )
    }
    assert len(lines) == 2 + 6 == 2 + len(differences)  # every pair of levels
    assert differences.keys() == run_a.keys() == run_b.keys()
    # (each share and the difference rounded to a tenth on their own)
    assert all(abs(d - (run_a[k] - run_b[k])) <= 0.11 for k, d in differences.items())
    assert any(d != 0 for d in differences.values())


def test_logs_of_other_deals_or_no_log_are_refused(tmp_path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    call_command(
        "ratings_calibrate", deals=4, workers=1, seed="one", log=str(a), stdout=io.StringIO()
    )
    call_command(
        "ratings_calibrate", deals=4, workers=1, seed="two", log=str(b), stdout=io.StringIO()
    )
    with pytest.raises(CommandError, match="differ in seed"):
        call_command("ratings_calibrate", "--compare", str(a), str(b), stdout=io.StringIO())
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n")
    with pytest.raises(CommandError, match="is not a ratings_calibrate log"):
        call_command("ratings_calibrate", "--compare", str(a), str(junk), stdout=io.StringIO())
    with pytest.raises(CommandError, match="is not a ratings_calibrate log"):
        call_command(
            "ratings_calibrate", "--compare", str(a), str(tmp_path / "none"), stdout=io.StringIO()
        )


_moves_before_failing = [0]


def bot_that_stops(view: PlayerView, rng: random.Random) -> Move:
    """Greedy for ``_moves_before_failing`` moves, then a failure: a run stopped midway."""
    _moves_before_failing[0] -= 1
    if _moves_before_failing[0] < 0:
        raise RuntimeError("stopped")
    return greedy_move(view, rng)


def test_a_run_stopped_midway_keeps_the_deals_it_finished_in_its_log(tmp_path) -> None:
    """Each deal is logged as it ends (a long run at the lobby's budget may be stopped):
    the log of a stopped run holds its first deals, and they compare with a whole run."""
    whole, stopped = tmp_path / "whole.jsonl", tmp_path / "stopped.jsonl"
    common = {"deals": 8, "budget_ms": 5, "workers": 1, "seed": "stop"}
    spec = "expert=tests.ratings.test_ratings_calibrate:bot_that_stops"
    _moves_before_failing[0] = 10**6
    whole_out = io.StringIO()
    call_command("ratings_calibrate", "--seat", spec, log=str(whole), stdout=whole_out, **common)
    _moves_before_failing[0] = 40  # about three deals' worth of the seat's moves
    with pytest.raises(RuntimeError, match="stopped"):
        call_command(
            "ratings_calibrate", "--seat", spec, log=str(stopped), stdout=io.StringIO(), **common
        )
    kept = stopped.read_text().splitlines()
    assert 1 + 1 <= len(kept) < 1 + 8

    # the same first deals, played alike (but for the time each move took)
    def played(lines: list[str]) -> list[dict]:
        return [
            {k: v for k, v in json.loads(line).items() if k != "move_seconds"} for line in lines
        ]

    assert played(kept) == played(whole.read_text().splitlines()[: len(kept)])
    out = io.StringIO()
    call_command("ratings_calibrate", "--compare", str(stopped), str(whole), stdout=out)
    assert f"+0.0 points [+0.0, +0.0] over {len(kept) - 1} deals" in out.getvalue()

    # Resumed (a line cut short by the stop is cut off), it plays the deals it lacks and
    # rates them all: the whole run's table, deal for deal.
    with stopped.open("a") as log:
        log.write('{"index": 9')
    _moves_before_failing[0] = 10**6
    resumed = io.StringIO()
    call_command("ratings_calibrate", "--resume", str(stopped), workers=1, stdout=resumed)
    assert played(stopped.read_text().splitlines()) == played(whole.read_text().splitlines())
    first, *table = resumed.getvalue().splitlines()
    assert first.startswith("8 deals, philippine")
    assert first.endswith(f"(resumed after {len(kept) - 1})")
    assert table == whole_out.getvalue().splitlines()[1:]
    with pytest.raises(CommandError, match="all 8 deals are in it already"):
        call_command("ratings_calibrate", "--resume", str(stopped), stdout=io.StringIO())


def test_a_log_of_other_sources_or_without_the_settings_is_not_resumed(tmp_path) -> None:
    log = tmp_path / "log.jsonl"
    call_command(
        "ratings_calibrate", deals=4, budget_ms=5, workers=1, log=str(log), stdout=io.StringIO()
    )
    settings, *deals = log.read_text().splitlines()
    for changed, error in (
        (lambda s: s | {"code": "0123456789abcdef compiled"}, "other engine or bot sources"),
        (lambda s: {k: v for k, v in s.items() if k != "code"}, "without what a resume needs"),
    ):
        log.write_text("\n".join([json.dumps(changed(json.loads(settings))), deals[0]]) + "\n")
        with pytest.raises(CommandError, match=error):
            call_command("ratings_calibrate", "--resume", str(log), stdout=io.StringIO())
    # a file that is no log is refused and left as it was, its last line too
    other = tmp_path / "notes.txt"
    other.write_text("a first line\nand a last one without a newline")
    with pytest.raises(CommandError, match="is not a ratings_calibrate log"):
        call_command("ratings_calibrate", "--resume", str(other), stdout=io.StringIO())
    assert other.read_text() == "a first line\nand a last one without a newline"
    with pytest.raises(CommandError, match=r"--resume: .*none"):
        call_command("ratings_calibrate", "--resume", str(tmp_path / "none"), stdout=io.StringIO())
