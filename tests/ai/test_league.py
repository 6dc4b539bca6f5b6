"""The league runner (``pusoy.ai.league``) and its benchmark, on a few deals."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks.strength import league as bench
from pusoy.ai.arena import DealOutcome, seat_bot
from pusoy.ai.budget import Budget
from pusoy.ai.expert import expert_move
from pusoy.ai.ismcts import ismcts_move
from pusoy.ai.league import (
    CANDIDATE,
    MEMBERS,
    rules_named,
    run_league,
    spec_of,
    standings,
    verdict,
)
from pusoy.engine import DealState

CHEAP = ["hoarder", "shedder"]


def played(outcomes: dict[str, list[DealOutcome]]) -> dict[str, list[DealOutcome]]:
    return {m: [replace(o, move_seconds={}) for o in deals] for m, deals in outcomes.items()}


def test_the_house_rules_are_the_issues() -> None:
    rules = rules_named("house")
    assert (rules.suit_order, str(rules.opening_card)) == ("DCHS", "3D")
    assert (rules.straights, rules.flush_order, rules.scoring) == (
        "no-deuce",
        "suit-first",
        "cards-left-tiered",
    )
    assert rules.triples is False
    assert rules.pass_locks_out is False


def test_every_member_resolves() -> None:
    assert {"heuristic", "expert", "ismcts", "hoarder", "shedder", "learned"} <= set(MEMBERS)
    for member in MEMBERS:
        spec_of(member)  # raises for a member whose bot cannot be built
    with pytest.raises(ValueError, match="nobody"):
        run_league("heuristic", ["nobody"], rules_named("house"), 4)


def test_a_small_league_is_repeatable_and_fair_in_its_deals() -> None:
    rules = rules_named("house")
    first = run_league("heuristic", CHEAP, rules, 8, seed="t")
    again = run_league("heuristic", CHEAP, rules, 8, seed="t")
    assert played(first) == played(again)  # all but the times per move
    for member in CHEAP:
        outcomes = first[member]
        assert [o.index for o in outcomes] == list(range(8))
        # each distinct deal once per rotation: the candidate in every seat
        assert sorted(o.levels.index(CANDIDATE) for o in outcomes) == [0, 0, 1, 1, 2, 2, 3, 3]
        assert all(sum(o.payments) == 0 for o in outcomes)
    table = standings(first)
    assert set(table) == set(CHEAP)
    assert all(row.deals == 8 and row.seats == 1 for row in table.values())


def test_the_verdict_keeps_a_bot_equal_to_its_baseline_and_rejects_a_worse_one() -> None:
    rules = rules_named("house")
    heuristic = run_league("heuristic", CHEAP, rules, 40, seed="v")
    same = verdict(heuristic, heuristic)
    assert same.keep
    assert all(d.won == 0 and d.payment == 0 for d in same.differences.values())
    worse = verdict(run_league("random", CHEAP, rules, 40, seed="v"), heuristic)
    assert worse.less_payment
    assert not verdict(heuristic, heuristic, "both").losses
    with pytest.raises(ValueError, match="judge"):
        verdict(heuristic, heuristic, "luck")
    assert not worse.keep
    assert worse.losses


def test_the_benchmark_logs_and_compares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--members", "hoarder", "--deals", "4", "--seed", "b", "--log", str(tmp_path)]
    bench.main(["--candidate", "heuristic", "--baseline", "frozen", *args])
    printed = capsys.readouterr().out
    assert "hoarder" in printed
    assert "verdict: " in printed
    logs = sorted(tmp_path.iterdir())
    assert [p.name for p in logs] == ["house-frozen.jsonl", "house-heuristic.jsonl"]
    assert json.loads(logs[1].read_text().splitlines()[0])["candidate"] == "heuristic"
    bench.main(["--compare", str(logs[1]), str(logs[0])])
    assert printed.split("candidate minus")[1].strip() in capsys.readouterr().out


def test_a_seat_bounded_by_rollouts_alone() -> None:
    """``expert/N``: N rollouts however long they take, whatever budget the arena has."""
    state = DealState.from_seed(rules_named("house"), bytes(32), 4)
    view = state.view(state.turn)
    move = seat_bot("expert/20", Budget(seconds=1e-9))(view, random.Random(3))
    assert move == expert_move(view, random.Random(3), Budget.of_rollouts(20))
    search = seat_bot("pusoy.ai.ismcts:ismcts_move/20", Budget())
    assert search(view, random.Random(3)) == ismcts_move(
        view, random.Random(3), Budget(iterations=20)
    )
    with pytest.raises(ValueError, match="a count >= 1"):
        seat_bot("expert/0", Budget())
