"""Every level returns a legal move, on every preset and player count."""

from __future__ import annotations

import gc
import itertools
import random
import threading
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pusoy.ai import LEVELS, Budget, choose_move, expert, timeout_move
from pusoy.ai.learned import learned_move
from pusoy.engine import DealState, PlayerView, Rules
from tests.ai.helpers import RULE_SPECS, positions, random_position

TINY = Budget(seconds=5.0, iterations=12)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, bot_seed=st.integers(0, 2**16))
def test_fast_levels_and_timeout_move_are_legal(state: DealState, bot_seed: int) -> None:
    view = state.view(state.turn)
    legal = view.legal_moves()
    for level in ("random", "greedy", "heuristic"):
        assert choose_move(level, view, random.Random(bot_seed)) in legal
    assert learned_move(view, random.Random(bot_seed)) in legal
    assert timeout_move(view) in legal


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, bot_seed=st.integers(0, 2**16))
def test_expert_is_legal(state: DealState, bot_seed: int) -> None:
    view = state.view(state.turn)
    assert choose_move("expert", view, random.Random(bot_seed), budget=TINY) in view.legal_moves()


@pytest.mark.parametrize("spec", RULE_SPECS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_deals_between_all_levels(spec: object, players: int) -> None:
    """Mixed tables play deals to the end; ``apply`` rejects any illegal move."""
    rng = random.Random(f"{spec}{players}")
    rules = Rules.from_spec(spec)
    for deal in range(2):
        levels = [LEVELS[(deal + s) % len(LEVELS)] for s in range(players)]
        state = DealState.from_seed(rules, rng.randbytes(32), players)
        while not state.is_over:
            seat = state.turn
            state.apply(choose_move(levels[seat], state.view(seat), rng, budget=TINY))
        assert state.result is not None


def test_unknown_level_and_wrong_turn() -> None:
    state = DealState.from_seed("philippine", bytes(32), 4)
    view = state.view(state.turn)
    with pytest.raises(ValueError, match="unknown AI level"):
        choose_move("grandmaster", view, random.Random(0))
    other = state.view((state.turn + 1) % 4)
    with pytest.raises(ValueError, match="not seat"):
        choose_move("random", other, random.Random(0))
    with pytest.raises(ValueError, match="not seat"):
        timeout_move(other)


def test_budget_defaults() -> None:
    assert Budget() == Budget(seconds=1.0, iterations=None)
    with pytest.raises(AttributeError):
        Budget().seconds = 2.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="seconds"):
        Budget(seconds=0)
    with pytest.raises(ValueError, match="iterations"):
        Budget(iterations=0)


def test_expert_stops_at_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fake clock that moves 1 ms per reading: the search reads it about once per
    # rollout, so with 50 ms it must stop after some rollouts and before 50, whatever
    # the machine's speed (no wall-clock assertion).
    ticks = itertools.count()
    monkeypatch.setattr(expert, "time", SimpleNamespace(perf_counter=lambda: next(ticks) / 1000))
    state = random_position("philippine", 4, 3, 8)  # 14 candidates, none clearly best
    view = state.view(state.turn)
    play, stats = expert.search(view, random.Random(0), Budget(seconds=0.05))
    rollouts = sum(n for n, _mean in stats.values())
    assert len(stats) > 1
    assert 0 < rollouts < 50
    assert play in stats
    assert next(ticks) <= 52  # it stopped reading the clock once past the deadline


def test_a_candidate_is_dropped_only_on_strong_evidence() -> None:
    # Candidate 1 trails the leader (0) by 3 standard errors of the paired difference.
    leader = [1.0, 0.0] * 50
    trailing = [x - 0.3 - (1.0 if i % 2 else -1.0) for i, x in enumerate(leader)]
    mean, se = expert._paired(leader, trailing)
    assert 2.5 < mean / se < 3.5
    assert expert._eliminate([0, 1], [leader, trailing], 2.0) == [0]
    # The search's own bar keeps it in the race; 5 standard errors behind, it is out.
    assert expert._eliminate([0, 1], [leader, trailing], expert.ELIMINATE_Z) == [0, 1]
    far = [x - 0.5 - (1.0 if i % 2 else -1.0) for i, x in enumerate(leader)]
    mean, se = expert._paired(leader, far)
    assert 4.5 < mean / se < 5.5
    assert expert._eliminate([0, 1], [leader, far], expert.ELIMINATE_Z) == [0]


def test_every_budget_drops_candidates_at_the_same_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    # (a lower bar for small budgets dropped the best candidate on a few worlds' noise)
    state = random_position("philippine", 4, 3, 8)
    view = state.view(state.turn)
    bars: list[float] = []
    real = expert._eliminate

    def spy(alive: list[int], results: list[list[float]], z: float) -> list[int]:
        bars.append(z)
        return real(alive, results, z)

    monkeypatch.setattr(expert, "_eliminate", spy)
    # (the last budget is big enough to read the history sharper: a bar grown with the
    # budget was measured and not kept, docs/ai.md "Spending a big budget")
    big = Budget.of_rollouts(expert.SHARP_READING_FROM)
    for budget in (Budget.of_rollouts(200), Budget.of_rollouts(2000), big):
        bars.clear()
        expert.search(view, random.Random(1), budget)
        assert bars
        assert set(bars) == {expert.ELIMINATE_Z}


def _thresholds_seen_by_searches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """The collector's thresholds each search of ``expert`` runs under, from now on."""
    seen: list[tuple[int, int, int]] = []
    real_search = expert._search

    def spy(view: PlayerView, rng: random.Random, budget: Budget) -> tuple[object, object]:
        seen.append(gc.get_threshold())
        return real_search(view, rng, budget)

    monkeypatch.setattr(expert, "_search", spy)
    return seen


def test_a_process_that_has_not_opted_in_keeps_its_collector_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The collector's settings are the whole process's: a web server running a search in
    # a thread (the embedded default) must not see them change under it.
    monkeypatch.setattr(expert, "_gc_tuned", False)
    state = random_position("philippine", 4, 3, 8)
    before = gc.get_threshold()
    seen = _thresholds_seen_by_searches(monkeypatch)
    expert.search(state.view(state.turn), random.Random(1), TINY)
    assert seen == [before]
    assert gc.get_threshold() == before


def test_searches_raise_the_collector_threshold_and_put_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = random_position("philippine", 4, 3, 8)
    view = state.view(state.turn)
    before = gc.get_threshold()
    seen = _thresholds_seen_by_searches(monkeypatch)
    monkeypatch.setattr(expert, "_gc_tuned", False)
    expert.tune_collector()  # the opt-in of a process that exists to search (undone after)
    # Searches overlapping in threads (embedded task threads) must not leave the raised
    # threshold behind, whichever ends last.
    threads = [
        threading.Thread(target=expert.search, args=(view, random.Random(i), TINY))
        for i in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 4
    assert all(t[0] == max(before[0], expert.SEARCH_GC_THRESHOLD) for t in seen)
    assert gc.get_threshold() == before
