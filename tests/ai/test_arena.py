"""The arena: a few deals in two processes print the table."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.strength.ai_points import (
    PLANNER,
    DealLog,
    format_comparison,
    format_seat_check,
    format_summaries,
    pooled_report,
    read_log,
    resume_point,
    seat_check,
)
from pusoy import compiled
from pusoy.ai import Budget
from pusoy.ai.arena import (
    DealOutcome,
    format_report,
    outcome_from_json,
    outcome_json,
    paired_differences,
    pooled_differences,
    rotation,
    run_arena,
    wilson,
)
from pusoy.engine import Rules

ROOT = Path(__file__).resolve().parents[2]


def test_rotation_gives_each_level_each_seat() -> None:
    seats = ("expert", "heuristic", "heuristic", "heuristic")
    firsts = [rotation(seats, i).index("expert") for i in range(8)]
    assert sorted(firsts) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41
    assert 0.59 < hi < 0.60


def test_arena_two_processes_prints_the_table() -> None:
    report = run_arena(
        ["expert", "heuristic", "greedy"],
        6,
        Rules.from_spec("hong-kong"),
        seed="smoke",
        budget=Budget(seconds=0.02),
        workers=2,
    )
    assert sum(s.wins for s in report.levels) == 6
    text = format_report(report)
    for level in ("expert", "heuristic", "greedy"):
        assert level in text
    assert "win share" in text
    assert "p95 ms" in text


def test_record_sees_every_deal_in_deal_order() -> None:
    seen: list[DealOutcome] = []
    report = run_arena(
        ["greedy", "random", "random"],
        7,
        Rules.from_spec({"preset": "philippine", "scoring": "cards-left"}),
        seed="log",
        workers=2,
        record=seen.append,
    )
    assert [o.index for o in seen] == list(range(7))
    assert seen == report.outcomes
    for outcome in seen:
        assert outcome_from_json(outcome_json(outcome)) == outcome


def test_a_points_log_reports_what_the_run_reported(tmp_path: Path) -> None:
    rules = Rules.from_spec({"preset": "philippine", "scoring": "deuces-double"})
    seats = ["greedy", "random", "random", "random"]
    path = tmp_path / "runs" / "m.jsonl"
    settings: dict[str, object] = {
        "matchup": "m",
        "seats": seats,
        "rules": rules.to_spec(),
        "seed": "log",
        "deals": 8,
        "budget_seconds": 0.1,
        "workers": 1,
    }
    log = DealLog(str(path), settings)
    report = run_arena(seats, 8, rules, seed="log", workers=1, record=log)
    log.close()
    logged = read_log(str(path))
    assert logged.games == 8
    assert logged.rules == rules
    assert logged.levels == report.levels
    assert logged.seconds > 0
    # A run stopped early: its log holds the first deals, and reports them.
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:4]) + "\n")
    first = read_log(str(path))
    assert [o.index for o in first.outcomes] == [0, 1, 2]
    assert sum(s.wins for s in first.levels) == 3


def _logged_run(
    path: Path,
    seats: list[str],
    deals: int,
    rules: Rules,
    budget_seconds: float = 0.1,
    seed: str = "check",
) -> None:
    settings: dict[str, object] = {
        "matchup": "m", "seats": seats, "rules": rules.to_spec(), "seed": seed,
        "deals": deals, "budget_seconds": budget_seconds, "workers": 1,
    }  # fmt: skip
    log = DealLog(str(path), settings)
    run_arena(seats, deals, rules, seed=seed, workers=1, record=log)
    log.close()


def test_seat_check_replays_each_deal_with_heuristics(tmp_path: Path) -> None:
    rules = Rules.from_spec({"preset": "philippine", "scoring": "cards-left"})
    # The planner everywhere: the replay is the run itself, every won seat kept.
    _logged_run(tmp_path / "h.jsonl", [PLANNER] * 4, 12, rules)
    counts = seat_check(read_log(str(tmp_path / "h.jsonl")))
    assert counts == {PLANNER: {(True, True): 12, (False, False): 36}}
    # Greedy in one seat: every seat of every deal counted once, by what it did.
    _logged_run(tmp_path / "g.jsonl", ["greedy", "heuristic", "heuristic", "heuristic"], 12, rules)
    report = read_log(str(tmp_path / "g.jsonl"))
    counts = seat_check(report)
    assert sum(counts["greedy"].values()) == 12
    assert sum(counts["heuristic"].values()) == 36
    greedy_won = sum(v for (_, won), v in counts["greedy"].items() if won)
    assert greedy_won == next(s.wins for s in report.levels if s.level == "greedy")
    would_have = sum(v for (would, _), v in counts["greedy"].items() if would)
    assert would_have == 3  # the heuristic in seat s wins deal d in one rotation of four
    assert "greedy: kept " in format_seat_check(str(tmp_path / "g.jsonl"))


def test_compare_refuses_logs_of_other_deals_seats_or_budgets(tmp_path: Path) -> None:
    rules = Rules.from_spec({"preset": "philippine", "scoring": "cards-left"})
    seats = ["greedy", "heuristic", "heuristic", "heuristic"]
    _logged_run(tmp_path / "a.jsonl", seats, 4, rules)
    _logged_run(tmp_path / "b.jsonl", seats, 4, rules, budget_seconds=1.0)
    _logged_run(tmp_path / "c.jsonl", ["random", *seats[1:]], 4, rules)
    a, b, c = (str(tmp_path / name) for name in ("a.jsonl", "b.jsonl", "c.jsonl"))
    assert "greedy: 4 deals, deals won +0.0" in format_comparison([[a, a]])
    for other in (b, c):
        with pytest.raises(SystemExit, match="not runs of the same"):
            format_comparison([[a, other]])
    # Pooled pairs must be other deals (seeds) of the same seats, rules and budget.
    with pytest.raises(SystemExit, match="seed 'check' twice"):
        format_comparison([[a, a], [a, a]])
    for other in (b, c):
        with pytest.raises(SystemExit, match="not the seats, rules and budget of the first"):
            format_comparison([[a, a], [other, other]])


def test_compare_pools_pairs_of_runs_of_other_seeds(tmp_path: Path) -> None:
    rules = Rules.from_spec({"preset": "philippine", "scoring": "cards-left"})
    paths = {}
    for seed in ("s1", "s2"):
        for seats in (["greedy", "heuristic", "heuristic"], ["random", "heuristic", "heuristic"]):
            paths[seed, seats[0]] = path = tmp_path / f"{seed}-{seats[0]}.jsonl"
            _logged_run(path, seats, 6, rules, seed=seed)
            # (the first seat's level renamed, so the two runs compare as one level)
            text = path.read_text().replace(f'"{seats[0]}"', '"level"')
            path.write_text(text)
    runs = [
        (read_log(str(paths[s, "greedy"])), read_log(str(paths[s, "random"]))) for s in ("s1", "s2")
    ]
    pooled = pooled_differences([(a.outcomes, b.outcomes) for a, b in runs], runs[0][0].seats)
    singles = [paired_differences(a.outcomes, b.outcomes, a.seats)[0] for a, b in runs]
    # Every deal is one paired sample: the pooled mean is the mean over both seeds' deals.
    assert pooled[0].deals == 12
    assert pooled[0].won == pytest.approx((singles[0].won + singles[1].won) / 2)
    assert pooled[0].payment == pytest.approx((singles[0].payment + singles[1].payment) / 2)
    text = format_comparison(
        [[str(paths[s, "greedy"]), str(paths[s, "random"])] for s in ("s1", "s2")]
    )
    assert "pooled over the 2 pairs (seeds s1, s2)" in text
    assert text.count("level: 6 deals") == 2
    assert "level: 12 deals" in text


def test_summarize_pools_logs_of_other_seeds(tmp_path: Path) -> None:
    rules = Rules.from_spec({"preset": "philippine", "scoring": "cards-left"})
    seats = ["greedy", "heuristic", "heuristic"]
    for seed in ("s1", "s2"):
        _logged_run(tmp_path / f"{seed}.jsonl", seats, 6, rules, seed=seed)
    _logged_run(tmp_path / "other.jsonl", ["random", *seats[1:]], 6, rules, seed="s3")
    one, two, other = (str(tmp_path / f"{n}.jsonl") for n in ("s1", "s2", "other"))
    reports = [read_log(one), read_log(two)]
    pooled = pooled_report(reports)
    # Every deal one sample: the pooled run is the two runs' deals together.
    assert pooled.games == 12
    assert pooled.seed == "s1+s2"
    for level in pooled.levels:
        singles = [next(s for s in r.levels if s.level == level.level) for r in reports]
        assert level.wins == sum(s.wins for s in singles)
        assert level.mean_payment == pytest.approx(sum(s.mean_payment for s in singles) / 2)
        assert level.moves == sum(s.moves for s in singles)
    text = format_summaries([one, two])
    assert text.count("deals logged") == 2
    assert "## pooled over the 2 logs" in text
    assert "12 deals, rules" in text
    assert "pooled" not in format_summaries([one])
    with pytest.raises(SystemExit, match="other deals"):
        pooled_report([reports[0], reports[0]])
    with pytest.raises(SystemExit, match="same seats, rules and budget"):
        pooled_report([reports[0], read_log(other)])


def _stdout(*command: str) -> str:
    """What ``python *command`` prints, run from the repository; it must succeed."""
    done = subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_ai_points_logs_a_run_and_reports_the_log(tmp_path: Path) -> None:
    run = _stdout(
        "-m", "benchmarks.strength.ai_points", "--only", "heuristic-deuces-double",
        "--heuristic-deals", "8", "--workers", "1", "--log", str(tmp_path),
    )  # fmt: skip
    log = tmp_path / "heuristic-deuces-double.jsonl"
    assert len(log.read_text().splitlines()) == 1 + 8
    report = _stdout("-m", "benchmarks.strength.ai_points", "--summarize", str(log))
    assert "8 deals logged" in report

    def table(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith(("heuristic ", "benchmarks"))]

    assert table(report) == table(run)
    assert len(table(run)) == 4  # each level's results and its move times
    same = _stdout("-m", "benchmarks.strength.ai_points", "--compare", str(log), str(log))
    assert "heuristic: 8 deals, deals won +0.0 points [+0.0, +0.0], payment/seat +0.000" in same


def test_a_stopped_run_resumed_plays_the_deals_the_whole_run_would_have(tmp_path: Path) -> None:
    whole_dir, part_dir = tmp_path / "whole", tmp_path / "part"
    for directory in (whole_dir, part_dir):
        _stdout(
            "-m", "benchmarks.strength.ai_points", "--only", "heuristic-cards-left",
            "--heuristic-deals", "9", "--workers", "1", "--log", str(directory),
        )  # fmt: skip
    whole, part = whole_dir / "heuristic-cards-left.jsonl", part_dir / "heuristic-cards-left.jsonl"
    # Stopped after 4 deals, in the middle of writing the fifth.
    lines = part.read_text().splitlines()
    part.write_text("\n".join(lines[:5]) + "\n" + lines[5][:30])
    report = _stdout("-m", "benchmarks.strength.ai_points", "--resume", str(part), "--workers", "2")
    assert "resumed after 4 deals (9 now)" in report

    def deals(path: Path) -> list[dict[str, object]]:
        rows = [json.loads(line) for line in path.read_text().splitlines()[1:]]
        for row in rows:  # (the same moves, not the same seconds)
            del row["elapsed"], row["move_seconds"]
        return rows

    assert deals(part) == deals(whole)
    assert read_log(str(part)).levels[0].wins == read_log(str(whole)).levels[0].wins
    elapsed = [json.loads(line)["elapsed"] for line in part.read_text().splitlines()[1:]]
    assert elapsed == sorted(elapsed)  # the seconds go on from where the first sitting stopped


def test_resume_refuses_a_complete_log_or_one_of_other_sources(tmp_path: Path) -> None:
    rules = Rules.from_spec({"preset": "philippine", "scoring": "cards-left"})
    path = tmp_path / "a.jsonl"
    seats = ["heuristic"] * 4
    settings: dict[str, object] = {
        "matchup": "m", "seats": seats, "rules": rules.to_spec(), "seed": "r",
        "deals": 3, "budget_seconds": 0.1, "workers": 1, "code": compiled.fingerprint(),
    }  # fmt: skip
    log = DealLog(str(path), settings)
    run_arena(seats, 2, rules, seed="r", workers=1, record=log)
    log.close()
    assert resume_point(str(path))[:2] == (settings, 2)
    log = DealLog(str(path), elapsed=1.0)
    run_arena(seats, 3, rules, seed="r", workers=1, record=log, first=2)
    log.close()
    with pytest.raises(SystemExit, match="all 3 deals are in it already"):
        resume_point(str(path))
    # Other sources, and a log written before logs recorded them: each deal of the log
    # kept, only the settings line changed.
    deal_lines = path.read_text().splitlines()[1:2]
    unrecorded = {k: v for k, v in settings.items() if k != "code"}
    for other, error in (
        ({**settings, "code": "0123456789abcdef compiled"}, "other engine or bot sources"),
        (unrecorded, "without what a resume needs"),
    ):
        path.write_text("\n".join([json.dumps(other), *deal_lines]) + "\n")
        with pytest.raises(SystemExit, match=error):
            resume_point(str(path))
    # A file that is no log is refused and left as it was, its unfinished last line too.
    notes = tmp_path / "notes.txt"
    notes.write_text("a first line\nand a last one without a newline")
    with pytest.raises(SystemExit, match="is not an ai_points log"):
        resume_point(str(notes))
    assert notes.read_text() == "a first line\nand a last one without a newline"


def test_paired_differences_compare_runs_deal_by_deal() -> None:
    seats = ("expert", "heuristic", "heuristic")

    def deal(index: int, winner: int) -> DealOutcome:
        levels = rotation(seats, index)
        payments = tuple(2 if s == winner else -1 for s in range(3))
        return DealOutcome(index, levels, winner, (1, 0, 0), {}, payments=payments)

    expert_at = [rotation(seats, i).index("expert") for i in range(4)]
    # Run a: the expert wins deals 0 and 1; run b: only deal 0 (deal 3 only in a).
    a = [deal(i, expert_at[i] if i < 2 else (expert_at[i] + 1) % 3) for i in range(4)]
    b = [deal(i, expert_at[i] if i < 1 else (expert_at[i] + 1) % 3) for i in range(3)]
    expert, heuristic = paired_differences(a, b, seats)
    assert (expert.level, expert.deals) == ("expert", 3)
    assert expert.won == pytest.approx(1 / 3)
    assert expert.payment == pytest.approx((2 - -1) / 3)
    assert expert.won_ci[0] < expert.won < expert.won_ci[1]
    assert heuristic.won == pytest.approx(-1 / 3)
    # The heuristic's two seats: one paid 1 instead of collecting 2, the other paid 1 both times.
    assert heuristic.payment == pytest.approx((-1 - 2) / 2 / 3)
    assert paired_differences(a, a, seats)[0].won_ci == (0.0, 0.0)


def test_ai_arena_command() -> None:
    out = _stdout(
        "manage.py", "ai_arena", "--games", "4", "--seats", "random,greedy",
        "--rules", "philippine-online", "--workers", "2",
    )  # fmt: skip
    assert "win share" in out
    assert "random" in out
    assert "greedy" in out


def test_seats_name_budgets_and_importable_bots() -> None:
    """``expert@ms`` gives one seat its own budget; ``module:function`` seats a bot that is
    not a level (the frozen heuristic of the points benchmark). Each level is reported
    under its own name, and a copy of the heuristic plays exactly as the heuristic."""
    frozen = "benchmarks.strength.frozen.heuristic_2026_11:heuristic_move"
    report = run_arena(
        ["expert@30", "expert@10", frozen, "heuristic"],
        8,
        Rules.from_spec("philippine"),
        seed="seats",
        budget=Budget(seconds=5.0),
        workers=1,
    )
    names = [s.level for s in report.levels]
    assert names == ["expert@30", "expert@10", frozen, "heuristic"]
    assert sum(s.wins for s in report.levels) == 8
    slow = next(s for s in report.levels if s.level == "expert@30")
    assert slow.move_ms_p95 < 1000  # 30 ms, not the 5 s default, bounds its moves
    with pytest.raises(ValueError, match="unknown AI level"):
        run_arena(["wizard", "heuristic"], 2, Rules.from_spec("philippine"), workers=1)
    with pytest.raises(ValueError, match="bad budget"):
        run_arena(["expert@fast", "heuristic"], 2, Rules.from_spec("philippine"), workers=1)
    with pytest.raises(ValueError, match="no bot"):
        run_arena(["benchmarks.nowhere:bot", "heuristic"], 2, Rules.from_spec("philippine"))


def test_labelled_seats_play_their_specs_under_their_labels() -> None:
    """``specs``: a label's seats played by another bot, the outcomes still naming the
    label; a seat with no spec is its own; a spec for a label with no seat is refused."""
    rules = Rules.from_spec("philippine")
    seats = ["greedy", "random"]
    plain = run_arena(seats, 4, rules, seed="labels", workers=1)
    swapped = run_arena(seats, 4, rules, seed="labels", workers=1, specs={"random": "greedy"})
    both_greedy = run_arena(["greedy", "greedy@1"], 4, rules, seed="labels", workers=1)
    assert [s.level for s in swapped.levels] == seats
    assert [o.levels for o in swapped.outcomes] == [o.levels for o in plain.outcomes]
    # greedy in both seats plays as two greedy seats do, whatever the seats are called
    assert [o.winner for o in swapped.outcomes] == [o.winner for o in both_greedy.outcomes]
    assert [o.cards_left for o in swapped.outcomes] == [o.cards_left for o in both_greedy.outcomes]
    with pytest.raises(ValueError, match="no seat: expert"):
        run_arena(seats, 2, rules, workers=1, specs={"expert": "greedy"})
    with pytest.raises(ValueError, match="no bot"):
        run_arena(seats, 2, rules, workers=1, specs={"random": "benchmarks.nowhere:bot"})


def test_the_frozen_heuristic_is_the_heuristic_where_points_do_not_count() -> None:
    """Under ``deuces-double`` today's heuristic only changed how it goes out, so the
    copy (the yardstick) and the planner (the level without its search) agree on
    positions that do not end a deal."""
    from benchmarks.strength.frozen.heuristic_2026_11 import heuristic_move as frozen_move
    from pusoy.ai.heuristic import heuristic_move
    from tests.ai.helpers import random_position

    agree = 0
    for seed in range(60):
        state = random_position("philippine", 4, seed, seed % 40)
        assert state.turn is not None
        view = state.view(state.turn)
        if len(view.hand) <= 5:
            continue
        assert heuristic_move(view, random.Random(0)) == frozen_move(view, random.Random(0))
        agree += 1
    assert agree > 30
