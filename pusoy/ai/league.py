"""The league: a candidate bot against each of several opponents of different styles,
never only against its own copy (issue 42; docs/ai.md, "The league").

A member is a name in ``MEMBERS`` and a seat spec of ``pusoy.ai.arena`` (a level, a
level bounded by rollouts as ``expert/1000``, or ``module:function``); adding one is one
line. Against each member the candidate takes one seat and three copies of the member
the others (two or one at a table of 3 or 2: ``players``), the seats rotated (every deal
is played once per rotation, as in the arena), and every member is played on the same
deals, so two candidates can be compared deal by deal (``verdict``). Searching members
are bounded by rollouts or iterations, not time, so the load of the machine does not
change their moves.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pusoy.ai import Budget
from pusoy.ai.arena import (
    DealOutcome,
    LevelStats,
    PairedDifference,
    play_labelled_deal,
    pooled_differences,
    seat_bot,
    summarize,
)
from pusoy.ai.placing import PlaceDifference, PlaceStats, paired_place_difference, place_stats
from pusoy.engine.rules import PRESETS, Rules
from pusoy.engine.shuffle import TABLE_SIZES

# The house rules of issue 42's held-out match, as overrides of ``hong-kong`` (diamonds
# low and spades high, 3D opens, suit-first flushes, a pass only gives up the turn); no
# preset holds them, and every one is an option of docs/rules.md.
HOUSE: Final[dict[str, Any]] = {
    "preset": "hong-kong",
    "straights": "no-deuce",
    "triples": False,
    "scoring": "cards-left-tiered",
}
RULE_SETS: Final[dict[str, str | dict[str, Any]]] = {"house": HOUSE, **{p: p for p in PRESETS}}

# The expert as a member: 1,000 rollouts a move, about 100 ms compiled on an idle core.
EXPERT_ROLLOUTS: Final = 1000
MEMBERS: dict[str, str] = {
    # The lobby's instant level: the planner alone (also the expert's rollout policy).
    "heuristic": "heuristic",
    # The planner's move checked by 40 rollouts: issue 42's instant level, not yet the
    # lobby's (docs/ai.md, "The instant level against the league").
    "instant": "pusoy.ai.instant:instant_move",
    "expert": f"expert/{EXPERT_ROLLOUTS}",
    "ismcts": "pusoy.ai.ismcts:ismcts_move/200",
    "hoarder": "pusoy.ai.styles:hoarder_move",
    "shedder": "pusoy.ai.styles:shedder_move",
    "greedy": "greedy",
    "learned": "pusoy.ai.learned:learned_move",
}

CANDIDATE: Final = "candidate"


def seats(players: int = 4) -> tuple[str, ...]:
    """The candidate's seat and the member's others, rotated deal by deal."""
    if players not in TABLE_SIZES:
        raise ValueError(f"a table has 2, 3 or 4 players, not {players}")
    return (CANDIDATE, *("member",) * (players - 1))


def _seats_of(outcomes: Sequence[DealOutcome]) -> tuple[str, ...]:
    return seats(len(outcomes[0].levels))


def rules_named(name: str) -> Rules:
    """``house``, a preset, or a JSON object of options given as a dict."""
    if name not in RULE_SETS:
        raise ValueError(f"unknown rules {name!r}; known: {', '.join(RULE_SETS)}")
    return Rules.from_spec(RULE_SETS[name])


def spec_of(name: str) -> str:
    """A member's seat spec, or ``name`` itself when it is a seat spec already."""
    spec = MEMBERS.get(name, name)
    seat_bot(spec, Budget())  # ValueError now, not in a worker
    return spec


@dataclass(frozen=True)
class LeagueTask:
    member: str
    index: int
    candidate: str  # seat specs
    opponent: str
    rules: Rules
    seed: str
    players: int = 4


def play_league_deal(task: LeagueTask) -> tuple[str, DealOutcome]:
    specs = {CANDIDATE: task.candidate, "member": task.opponent}
    outcome = play_labelled_deal(
        task.index, seats(task.players), specs, task.rules, task.seed, Budget()
    )
    return task.member, outcome


def run_league(
    candidate: str,
    members: Sequence[str],
    rules: Rules,
    deals: int,
    *,
    seed: str = "league",
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    players: int = 4,
) -> dict[str, list[DealOutcome]]:
    """``deals`` deals (``players`` rotations of ``deals / players`` distinct deals) of
    ``candidate`` against ``players - 1`` copies of each member; the outcomes per member,
    in deal order. The deals depend on ``seed`` and ``players`` alone: the same for every
    member and every candidate."""
    if deals < 1:
        raise ValueError("deals must be at least 1")
    seats(players)  # ValueError now, not in a worker
    own = spec_of(candidate)
    specs = {m: spec_of(m) for m in members}
    tasks = [
        LeagueTask(m, i, own, specs[m], rules, seed, players) for m in members for i in range(deals)
    ]
    out: dict[str, list[DealOutcome]] = {m: [] for m in members}
    for done, (member, outcome) in enumerate(_played(tasks, workers), 1):
        out[member].append(outcome)
        if progress:
            progress(done, len(tasks))
    return out


def _played(tasks: list[LeagueTask], workers: int) -> Iterable[tuple[str, DealOutcome]]:
    if workers <= 1:
        yield from map(play_league_deal, tasks)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(play_league_deal, tasks)


def standings(outcomes: dict[str, list[DealOutcome]]) -> dict[str, LevelStats]:
    """Per member, the candidate's wins and zero-sum payment per deal with intervals."""
    return {m: summarize(o, _seats_of(o))[0] for m, o in outcomes.items() if o}


def place_standings(
    outcomes: dict[str, list[DealOutcome]], *, play_out: bool
) -> dict[str, PlaceStats]:
    """Per member, the candidate's places as the lobby's ratings place them (``play_out``:
    the rules' own, which decide how the losers are placed)."""
    return {m: place_stats(o, CANDIDATE, play_out=play_out) for m, o in outcomes.items() if o}


# What "loses" means to ``verdict``: the zero-sum payment per deal (the game's own
# result; the default), the share of deals won, either of them, or the share of
# opponent seats placed above (the ratings' measure).
JUDGES: Final = ("payment", "deals", "both", "places")


@dataclass(frozen=True)
class Verdict:
    keep: bool
    differences: dict[str, PairedDifference]  # per member, candidate minus baseline
    losses: tuple[str, ...]  # members it loses to beyond noise, by the judged measure
    fewer_deals: tuple[str, ...]  # members it wins fewer deals against beyond noise
    less_payment: tuple[str, ...]  # members it takes less payment from beyond noise
    place_differences: dict[str, PlaceDifference]  # per member, candidate minus baseline
    lower_places: tuple[str, ...]  # members it places above less often beyond noise


def verdict(
    candidate: dict[str, list[DealOutcome]],
    baseline: dict[str, list[DealOutcome]],
    judge: str = "payment",
    *,
    play_out: bool,
) -> Verdict:
    """Keep the candidate unless, against some member, its paired difference to the
    baseline on the same deals has its whole 95% interval below zero: in payment per
    deal, in deals won, in either (``judge`` both), or in the share of opponent seats
    placed above (``places``). A change may trade a few deals for bigger stakes, or
    stakes for places (or the other way), so every measure is reported whatever is
    judged."""
    if judge not in JUDGES:
        raise ValueError(f"judge must be one of {', '.join(JUDGES)}, not {judge!r}")
    differences = {}
    place_differences = {}
    for member, ours in candidate.items():
        theirs = baseline.get(member, [])
        if ours and theirs:
            if len(ours[0].levels) != len(theirs[0].levels):
                raise ValueError("the candidate and the baseline played tables of other sizes")
            differences[member] = pooled_differences([(ours, theirs)], _seats_of(ours))[0]
            place_differences[member] = paired_place_difference(
                ours, theirs, CANDIDATE, play_out=play_out
            )
    fewer = tuple(m for m, d in differences.items() if d.won_ci[1] < 0)
    less = tuple(m for m, d in differences.items() if d.payment_ci[1] < 0)
    lower = tuple(m for m, p in place_differences.items() if p.above_ci[1] < 0)
    judged = {"payment": less, "deals": fewer, "both": (*less, *fewer), "places": lower}[judge]
    losses = tuple(m for m in differences if m in judged)
    return Verdict(not losses, differences, losses, fewer, less, place_differences, lower)
