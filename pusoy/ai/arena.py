"""Bots against bots, no HTTP and no database: the engine of ``manage.py ai_arena``.

Deal ``d`` is dealt from a seed derived from the arena seed and ``d``, and played once
per seat rotation (so ``games`` deals are ``games / players`` distinct deals, each played
with the levels rotated through every seat): every level plays every seat position
equally, and luck of the cards cancels between levels. Deals run in worker processes.

A seat is a level name (``expert``), a level with its own time budget in milliseconds
(``expert@1000``: two budgets at one table), a level bounded by rollouts alone
(``expert/1000``: at most 1,000 rollouts a move, however long they take, so the load of
the machine does not change its moves), or, for benchmarks, a bot importable as
``module:function`` taking ``(view, rng)`` (a frozen copy of an older bot, say), or
``module:function/N`` taking ``(view, rng, budget)`` with a budget of ``N`` iterations.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from pusoy.ai import LEVELS, Budget, choose_move
from pusoy.engine.moves import Move
from pusoy.engine.rules import Rules
from pusoy.engine.scoring import deal_payments
from pusoy.engine.state import DealState, PlayerView

Bot = Callable[[PlayerView, random.Random], Move]


@dataclass(frozen=True)
class DealOutcome:
    index: int
    levels: tuple[str, ...]  # level per seat
    winner: int
    points: tuple[int, ...]
    move_seconds: dict[str, list[float]]  # per level, seconds per move
    cards_left: tuple[int, ...] = ()
    places: tuple[int, ...] = ()
    payments: tuple[int, ...] = ()  # the deal as zero-sum payments (deal_payments)


@dataclass(frozen=True)
class LevelStats:
    level: str
    seats: int
    wins: int
    deals: int
    win_share: float
    win_share_ci: tuple[float, float]
    fair_share: float
    mean_points: float  # per seat per deal
    mean_points_ci: tuple[float, float]
    mean_payment: float  # per seat per deal, zero-sum: what the seat won or paid
    mean_payment_ci: tuple[float, float]
    moves: int
    move_ms_p50: float
    move_ms_p95: float
    move_ms_mean: float


@dataclass
class ArenaReport:
    seats: tuple[str, ...]
    rules: Rules
    games: int
    seed: str
    budget: Budget
    workers: int
    seconds: float
    levels: list[LevelStats] = field(default_factory=list)
    outcomes: list[DealOutcome] = field(default_factory=list)


def deal_seed(seed: str, deal: int) -> bytes:
    return hashlib.sha256(f"pusoy-arena:{seed}:{deal}".encode()).digest()


def rotation(seats: Sequence[str], index: int) -> tuple[str, ...]:
    """The level per seat in game ``index``: the seat list rotated by ``index``."""
    n = len(seats)
    shift = index % n
    return tuple(seats[(s - shift) % n] for s in range(n))


def seat_bot(seat: str, budget: Budget) -> Bot:
    """The bot a seat spec names (module doc); ValueError for an unknown one."""
    seat, slash, count = seat.partition("/")
    if slash:
        try:
            budget = Budget.of_rollouts(int(count))
        except ValueError:
            raise ValueError(f"bad budget in {seat}/{count}: a count >= 1 after '/'") from None
    if ":" in seat:
        module, _, name = seat.partition(":")
        try:
            found = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as error:
            raise ValueError(f"no bot {seat!r}: {error}") from None
        if not callable(found):
            raise ValueError(f"no bot {seat!r}: not a function")
        if not slash:
            bot: Bot = found
            return bot
        bounded = budget

        def search(view: PlayerView, rng: random.Random) -> Move:
            move: Move = found(view, rng, bounded)
            return move

        return search
    level, at, ms = seat.partition("@")
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; known: {', '.join(LEVELS)}")
    if at:
        try:
            budget = Budget(seconds=float(ms) / 1000, iterations=budget.iterations)
        except ValueError:
            raise ValueError(f"bad budget in {seat!r}: milliseconds > 0 after '@'") from None

    def move(view: PlayerView, rng: random.Random) -> Move:
        return choose_move(level, view, rng, budget=budget)

    return move


def play_deal(task: tuple[int, tuple[str, ...], Rules, str, Budget]) -> DealOutcome:
    """Play game ``index`` to its end (a first deal: the opening card leads)."""
    index, seats, rules, seed, budget = task
    return play_labelled_deal(index, seats, {seat: seat for seat in seats}, rules, seed, budget)


def play_labelled_task(
    task: tuple[int, tuple[str, ...], dict[str, str], Rules, str, Budget],
) -> DealOutcome:
    """``play_labelled_deal`` of one task, for a pool of workers."""
    return play_labelled_deal(*task)


def play_labelled_deal(
    index: int,
    seats: tuple[str, ...],
    specs: dict[str, str],
    rules: Rules,
    seed: str,
    budget: Budget,
) -> DealOutcome:
    """``play_deal`` with seats named by labels, each played by the bot of the seat spec
    ``specs[label]`` (a benchmark's ``candidate`` and ``member`` may be the same bot);
    the outcome names the labels."""
    n = len(seats)
    levels = rotation(seats, index)
    bots = {label: seat_bot(specs[label], budget) for label in set(levels)}
    state = DealState.from_seed(rules, deal_seed(seed, index // n), n)
    rng = random.Random(f"{seed}:{index}")
    times: dict[str, list[float]] = {level: [] for level in set(levels)}
    while not state.is_over:
        seat = state.turn
        assert seat is not None
        view = state.view(seat)
        start = time.perf_counter()
        move = bots[levels[seat]](view, rng)
        times[levels[seat]].append(time.perf_counter() - start)
        state.apply(move)
    result = state.result
    assert result is not None
    return DealOutcome(
        index,
        levels,
        result.winner,
        tuple(result.points),
        times,
        cards_left=tuple(result.cards_left),
        places=tuple(result.places),
        payments=tuple(deal_payments(rules, result.winner, result.points)),
    )


def outcome_json(outcome: DealOutcome, **extra: float) -> str:
    """One deal's outcome as a line of JSON, with ``extra`` keys beside its fields
    (``outcome_from_json`` reads it back)."""
    return json.dumps(asdict(outcome) | extra, separators=(",", ":"))


def outcome_from_json(line: str) -> DealOutcome:
    """The outcome ``outcome_json`` wrote; keys it does not know are ignored."""
    return outcome_from_data(json.loads(line))


def outcome_from_data(data: dict[str, Any]) -> DealOutcome:
    """``outcome_from_json`` of a line already parsed."""
    return DealOutcome(
        index=data["index"],
        levels=tuple(data["levels"]),
        winner=data["winner"],
        points=tuple(data["points"]),
        move_seconds={level: list(times) for level, times in data["move_seconds"].items()},
        cards_left=tuple(data.get("cards_left", ())),
        places=tuple(data.get("places", ())),
        payments=tuple(data.get("payments", ())),
    )


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = 1.96) -> tuple[float, tuple[float, float]]:
    n = len(values)
    if n == 0:
        return (0.0, (0.0, 0.0))
    mean = sum(values) / n
    if n == 1:
        return (mean, (mean, mean))
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, (mean - half, mean + half))


def percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


def won_by(outcome: DealOutcome, level: str) -> bool:
    """Whether a seat played by ``level`` won the deal."""
    return outcome.levels[outcome.winner] == level


def per_seat(values: Sequence[int], outcome: DealOutcome, level: str, seats: int) -> float:
    """The mean of ``values`` (one per seat) over the deal's seats played by ``level``."""
    return sum(v for s, v in enumerate(values) if outcome.levels[s] == level) / seats


def summarize(outcomes: Sequence[DealOutcome], seats: Sequence[str]) -> list[LevelStats]:
    n = len(seats)
    stats = []
    for level in dict.fromkeys(seats):
        k = seats.count(level)
        wins = sum(1 for o in outcomes if won_by(o, level))
        mean, ci = mean_ci([per_seat(o.points, o, level, k) for o in outcomes])
        pay_mean, pay_ci = mean_ci([per_seat(o.payments, o, level, k) for o in outcomes])
        times = sorted(t for o in outcomes for t in o.move_seconds.get(level, ()))
        stats.append(
            LevelStats(
                level=level,
                seats=k,
                wins=wins,
                deals=len(outcomes),
                win_share=wins / len(outcomes) if outcomes else 0.0,
                win_share_ci=wilson(wins, len(outcomes)),
                fair_share=k / n,
                mean_points=mean,
                mean_points_ci=ci,
                mean_payment=pay_mean,
                mean_payment_ci=pay_ci,
                moves=len(times),
                move_ms_p50=percentile(times, 0.5) * 1000,
                move_ms_p95=percentile(times, 0.95) * 1000,
                move_ms_mean=(sum(times) / len(times) * 1000) if times else 0.0,
            )
        )
    return stats


@dataclass(frozen=True)
class PairedDifference:
    """One level in two runs of the same deals (the same seeds, seats and rotations):
    the mean per-deal difference, run ``a`` minus run ``b``, with 95% intervals."""

    level: str
    deals: int
    won: float  # share of deals won
    won_ci: tuple[float, float]
    payment: float  # per seat per deal
    payment_ci: tuple[float, float]


def paired_differences(
    a: Sequence[DealOutcome], b: Sequence[DealOutcome], seats: Sequence[str]
) -> list[PairedDifference]:
    """Compare two runs deal by deal, on the deals both played: the luck of the cards
    is the same on both sides, so the difference is known far better than either
    run's own interval says."""
    return pooled_differences([(a, b)], seats)


def pooled_differences(
    runs: Sequence[tuple[Sequence[DealOutcome], Sequence[DealOutcome]]], seats: Sequence[str]
) -> list[PairedDifference]:
    """``paired_differences`` over several pairs of runs (each pair the same deals, the
    pairs different deals: other seeds), every deal one paired sample."""
    pairs = []
    for a, b in runs:
        by_index = {o.index: o for o in b}
        pairs += [(o, by_index[o.index]) for o in a if o.index in by_index]
    out = []
    for level in dict.fromkeys(seats):
        k = seats.count(level)
        won = [float(won_by(x, level)) - won_by(y, level) for x, y in pairs]
        paid = [
            per_seat(x.payments, x, level, k) - per_seat(y.payments, y, level, k) for x, y in pairs
        ]
        won_mean, won_ci = mean_ci(won)
        pay_mean, pay_ci = mean_ci(paid)
        out.append(PairedDifference(level, len(pairs), won_mean, won_ci, pay_mean, pay_ci))
    return out


def run_arena(
    seats: Sequence[str],
    games: int,
    rules: Rules,
    *,
    seed: str = "0",
    budget: Budget | None = None,
    workers: int = 2,
    progress: Callable[[int, int], None] | None = None,
    record: Callable[[DealOutcome], None] | None = None,
    first: int = 0,
    specs: Mapping[str, str] | None = None,
) -> ArenaReport:
    """Play ``games`` deals (levels rotated through the seats) in ``workers`` processes.

    With ``specs`` the seats are labels, each played by the bot of its seat spec (a
    candidate in a level's seats, the outcomes still naming the level); without, every
    seat is its own spec.

    ``record`` is called with each deal's outcome as soon as it and every deal before
    it are played: a log of a run stopped early holds its first deals, so its figures
    are those of fewer deals, not of the deals that happened to finish first. With
    ``first``, the deals before it were played by an earlier run (a log resumed) and
    only deals ``first`` to ``games - 1`` are played: each deal's cards and random
    numbers come from the seed and its number alone, so they are the deals the whole
    run would have played."""
    seats = tuple(seats)
    if not 2 <= len(seats) <= 4:
        raise ValueError("an arena needs 2 to 4 seats")
    if games < 1:
        raise ValueError("games must be at least 1")
    if not 0 <= first < games:
        raise ValueError("first must be one of the games' numbers")
    budget = budget or Budget()
    if unseated := set(specs or ()) - set(seats):
        raise ValueError(f"specs for labels with no seat: {', '.join(sorted(unseated))}")
    played = {label: (specs or {}).get(label, label) for label in seats}
    for spec in played.values():
        seat_bot(spec, budget)  # an unknown seat fails here, not in a worker
    tasks = [(i, seats, played, rules, seed, budget) for i in range(first, games)]
    start = time.perf_counter()
    outcomes: list[DealOutcome] = []
    if workers <= 1:
        for task in tasks:
            outcome = play_labelled_task(task)
            outcomes.append(outcome)
            if record:
                record(outcome)
            if progress:
                progress(len(outcomes), len(tasks))
    else:
        # Processes, not threads: the bots are pure Python and need a core each.
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for outcome in pool.imap(play_labelled_task, tasks):
                outcomes.append(outcome)
                if record:
                    record(outcome)
                if progress:
                    progress(len(outcomes), len(tasks))
    report = ArenaReport(
        seats=seats,
        rules=rules,
        games=len(tasks),
        seed=seed,
        budget=budget,
        workers=workers,
        seconds=time.perf_counter() - start,
    )
    report.levels = summarize(outcomes, seats)
    report.outcomes = outcomes
    return report


def format_report(report: ArenaReport) -> str:
    budget = ""
    if any(s.startswith("expert") for s in report.seats):
        budget = f"expert budget {report.budget.seconds * 1000:g} ms"
        if report.budget.iterations is not None:
            budget += f" / {report.budget.iterations} rollouts"
        budget += ", "
    w = max(10, *(len(s.level) for s in report.levels))
    lines = [
        f"{report.games} deals, rules {report.rules.to_spec()!r}, "
        f"seats {','.join(report.seats)} (rotated), {budget}"
        f"seed {report.seed!r}, {report.workers} worker(s), {report.seconds:.1f} s",
        "",
        f"{'level':<{w}} {'seats':>5} {'wins':>5}  {'win share [95% CI]':<24} {'fair':>6}"
        f"  {'game points/seat [95% CI]':<28}  {'payment/seat [95% CI]':<28}",
    ]
    for s in report.levels:
        lo, hi = s.win_share_ci
        plo, phi = s.mean_points_ci
        qlo, qhi = s.mean_payment_ci
        lines.append(
            f"{s.level:<{w}} {s.seats:>5} {s.wins:>5}  "
            f"{s.win_share:6.1%} [{lo:6.1%}, {hi:6.1%}]   {s.fair_share:6.1%}"
            f"  {s.mean_points:6.3f} [{plo:6.3f}, {phi:6.3f}]"
            f"  {s.mean_payment:+7.3f} [{qlo:+7.3f}, {qhi:+7.3f}]"
        )
    lines += [
        "",
        f"{'level':<{w}} {'moves':>7} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}",
    ]
    for s in report.levels:
        lines.append(
            f"{s.level:<{w}} {s.moves:>7} {s.move_ms_p50:8.2f} {s.move_ms_p95:8.2f}"
            f" {s.move_ms_mean:8.2f}"
        )
    return "\n".join(lines)
