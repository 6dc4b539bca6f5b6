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
    place_standings,
    rules_named,
    run_league,
    spec_of,
    standings,
    verdict,
)
from pusoy.engine import DealState
from pusoy.engine.scoring import places_by_cards_left

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
    places = place_standings(first, play_out=rules.play_out)
    assert set(places) == set(CHEAP)
    for member, row in places.items():
        # a won deal is always first place, and first place is above every seat
        assert (row.place == 1) == (row.above == 1) == (table[member].wins == 8)
        assert 1 <= row.place_ci[0] <= row.place <= row.place_ci[1] <= 4


@pytest.mark.parametrize("players", [2, 3])
def test_a_league_at_a_smaller_table(players: int) -> None:
    rules = rules_named("philippine")
    first = run_league("heuristic", ["greedy"], rules, 2 * players, seed="t", players=players)
    outcomes = first["greedy"]
    assert all(len(o.levels) == players for o in outcomes)
    assert sorted(o.levels.index(CANDIDATE) for o in outcomes) == sorted(2 * list(range(players)))
    assert all(sum(o.payments) == 0 for o in outcomes)
    assert standings(first)["greedy"].deals == 2 * players
    assert verdict(first, first, play_out=rules.play_out).keep
    four = run_league("heuristic", ["greedy"], rules, 4, seed="t")
    with pytest.raises(ValueError, match="tables of other sizes"):
        verdict(first, four, play_out=rules.play_out)
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        run_league("heuristic", ["greedy"], rules, 4, players=5)


def test_the_verdict_keeps_a_bot_equal_to_its_baseline_and_rejects_a_worse_one() -> None:
    rules = rules_named("house")
    heuristic = run_league("heuristic", CHEAP, rules, 40, seed="v")
    same = verdict(heuristic, heuristic, play_out=False)
    assert same.keep
    assert all(d.won == 0 and d.payment == 0 for d in same.differences.values())
    assert all(p.above == 0 for p in same.place_differences.values())
    worse = verdict(run_league("random", CHEAP, rules, 40, seed="v"), heuristic, play_out=False)
    assert worse.less_payment
    assert not verdict(heuristic, heuristic, "both", play_out=False).losses
    with pytest.raises(ValueError, match="judge"):
        verdict(heuristic, heuristic, "luck", play_out=False)
    assert not worse.keep
    assert worse.losses


def rigged(index: int, candidate_left: int) -> DealOutcome:
    """A deal member seat 1 wins, the candidate in seat 0 left ``candidate_left`` cards
    beside members left 5 and 9, no payment either way: only its place moves."""
    cards_left = (candidate_left, 0, 5, 9)
    return DealOutcome(
        index=index,
        levels=(CANDIDATE, "member", "member", "member"),
        winner=1,
        points=(0, 0, 0, 0),
        move_seconds={},
        cards_left=cards_left,
        places=tuple(places_by_cards_left(1, cards_left)),
        payments=(0, 0, 0, 0),
    )


def test_judged_by_places_a_candidate_that_places_lower_is_rejected() -> None:
    # The same deals won and paid; the candidate is left more cards than the baseline
    # (mostly last where the baseline was mostly second).
    baseline = {"hoarder": [rigged(i, 2 + i % 2) for i in range(12)]}
    candidate = {"hoarder": [rigged(i, 12 - i % 3) for i in range(12)]}
    by_payment = verdict(candidate, baseline, play_out=False)
    assert by_payment.keep
    assert by_payment.lower_places == ("hoarder",)
    assert not verdict(candidate, baseline, "deals", play_out=False).losses
    by_places = verdict(candidate, baseline, "places", play_out=False)
    assert not by_places.keep
    assert by_places.losses == ("hoarder",)
    difference = by_places.place_differences["hoarder"]
    # above two of the three seats (not the winner's), then above none
    assert difference.above == pytest.approx(-2 / 3)
    assert "REJECT (loses to hoarder" in bench.format_verdict(by_places, "places")
    assert "(placed lower)" in bench.format_verdict(by_payment, "payment")
    # the other way round it places higher, and keeps
    assert verdict(baseline, candidate, "places", play_out=False).keep


def test_the_benchmark_logs_and_compares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--members", "hoarder", "--deals", "4", "--seed", "b", "--log", str(tmp_path)]
    bench.main(["--candidate", "heuristic", "--baseline", "frozen", *args])
    printed = capsys.readouterr().out
    assert "hoarder" in printed
    assert "verdict: " in printed
    assert "placed above [95% CI] (fair 50%)" in printed
    assert "placed above, points [95% CI]" in printed
    logs = sorted(tmp_path.iterdir())
    assert [p.name for p in logs] == ["house-frozen.jsonl", "house-heuristic.jsonl"]
    assert json.loads(logs[1].read_text().splitlines()[0])["candidate"] == "heuristic"
    assert bench.log_play_out(str(logs[1])) is False  # the house rules stop at the first out
    bench.main(["--compare", str(logs[1]), str(logs[0])])
    assert printed.split("candidate minus")[1].strip() in capsys.readouterr().out
    # At a table of 3 the log says so, and the fair share printed is a third.
    three = tmp_path / "three"
    bench.main(["--candidate", "heuristic", *args[:-1], str(three), "--players", "3"])
    assert "(fair 33%)" in capsys.readouterr().out
    settings = json.loads((three / "house-heuristic.jsonl").read_text().splitlines()[0])
    assert settings["players"] == 3


def test_a_seat_bounded_by_rollouts_alone() -> None:
    """``expert/N``: N rollouts however long they take, whatever budget the arena has."""
    state = DealState.from_seed(rules_named("house"), bytes(32), 4)
    assert state.turn is not None
    view = state.view(state.turn)
    move = seat_bot("expert/20", Budget(seconds=1e-9))(view, random.Random(3))
    assert move == expert_move(view, random.Random(3), Budget.of_rollouts(20))
    search = seat_bot("pusoy.ai.ismcts:ismcts_move/20", Budget())
    assert search(view, random.Random(3)) == ismcts_move(
        view, random.Random(3), Budget(iterations=20)
    )
    with pytest.raises(ValueError, match="a count >= 1"):
        seat_bot("expert/0", Budget())
