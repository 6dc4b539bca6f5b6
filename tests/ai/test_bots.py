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

from pusoy import compiled
from pusoy.ai import LEVELS, Budget, choose_move, expert, timeout_move
from pusoy.ai.learned import learned_move
from pusoy.engine import DealState, PlayerView, Rules
from pusoy.engine.fast import FastState
from pusoy.engine.moves import Move, Play
from tests.ai.helpers import RULE_SPECS, positions, random_position, searches_beside_the_default

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


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions)
def test_the_greedy_bot_plays_the_lowest_play_that_beats_the_table(state: DealState) -> None:
    """Stated through the engine's own moves and plays, not the fast tables the bot and
    the expert's rollouts share (``greedy.greedy_play``); the timeout's lead is the same."""
    view = state.view(state.turn)
    plays = [Play.from_mask(m.mask, view.rules) for m in view.legal_moves() if not m.is_pass]
    move = choose_move("greedy", view, random.Random(0))
    if view.to_beat is not None:
        assert move == (min(plays, key=lambda p: p.key).move if plays else Move(0))
    else:
        lowest = min(plays, key=lambda p: (p.size, p.key)).move
        assert move == lowest == timeout_move(view)
        if view.required_card is not None:
            assert move.cards == (view.required_card,)


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

    def spy(
        view: PlayerView, rng: random.Random, budget: Budget, tuning: expert.Tuning
    ) -> tuple[object, object]:
        seen.append(gc.get_threshold())
        return real_search(view, rng, budget, tuning)

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


def test_halving_keeps_the_better_half_of_the_candidates() -> None:
    results = [[1.0, 1.0], [3.0, 3.0], [0.0, 0.0], [2.0, 2.0], [5.0, 5.0]]
    assert expert._better_half([0, 1, 2, 3, 4], results) == [1, 3, 4]
    assert expert._better_half([2, 3], results) == [3]


def test_a_search_by_halving_spends_its_rollouts_on_fewer_candidates() -> None:
    # (a variant for the benchmarks, docs/ai.md "The expert's search against today's")
    state = random_position("philippine", 4, 3, 8)
    view = state.view(state.turn)
    budget = Budget.of_rollouts(300)
    _play, even = expert.search(view, random.Random(1), budget)
    _play, halved = expert.search(view, random.Random(1), budget, expert.Tuning(halving=True))
    assert len(even) > 2
    # every candidate starts; the last survivors play more worlds than any even share
    assert set(halved) == set(even)
    assert max(w for w, _ in halved.values()) > max(w for w, _ in even.values())


def test_the_default_tuning_is_the_constants_as_they_are_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ``ai_regret --set expert.KEEP_DEFAULT_Z=0`` patches the sources; a tuning bound
    # when the class was made would go on searching with the old value.
    assert expert.current_tuning() == expert.Tuning()
    if compiled.is_compiled(expert):
        pytest.skip("a compiled module's Final constants cannot be patched")
    monkeypatch.setattr(expert, "KEEP_DEFAULT_Z", 0.0)
    monkeypatch.setattr(expert, "NEAR_MISS_WEIGHT", 3.0)
    assert expert.current_tuning().keep_default_z == 0.0
    assert expert.current_tuning().near_miss_weight == 3.0


def test_the_near_miss_weight_is_a_knob_of_the_search() -> None:
    deuces = Rules.from_spec("philippine")
    sim = FastState.at_start(deuces, [0] * 4, [3, 0, 9, 4], 1)
    sim.out = 1
    sim.beat_mask = Move.play("2S").mask
    dealt = [13, 13, 13, 13]
    default = expert._reward(sim, 2, dealt)
    heavier = expert._weighted_reward(10.0)(sim, 2, dealt)
    # the same payment; only the share of cards left weighs 100 times more
    assert heavier - default == pytest.approx(-(10.0 - expert.NEAR_MISS_WEIGHT) * 9 / 13)
    assert expert._weighted_reward(10.0)(sim, 1, dealt) == expert._reward(sim, 1, dealt)


def test_worlds_without_the_reading_agree_with_the_view() -> None:
    # ``Tuning(read_history=False)``: the instant level's uniform worlds, for the league
    state = random_position("philippine", 4, 5, 8)
    view = state.view(state.turn)
    source = expert.world_source(
        view, random.Random(3), Budget.of_rollouts(300), expert.Tuning(read_history=False)
    )
    root = FastState.from_view(view)
    for _ in range(20):
        hands = source()
        assert hands[view.seat] == root.hands[view.seat]
        assert [h.bit_count() for h in hands] == list(root.counts)
        assert all(a & b == 0 for a, b in itertools.combinations(hands, 2))
    searches = searches_beside_the_default(expert.Tuning(read_history=False), 8, 200)
    for read, _play, stats in searches:
        assert set(stats) == set(read)  # the same candidates, other worlds
    assert any(stats for _read, _play, stats in searches)
