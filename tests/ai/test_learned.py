"""The learned policy: its features, its shipped weights, its moves and its training step."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from pusoy.ai.greedy import greedy_move
from pusoy.ai.heuristic import heuristic_move
from pusoy.ai.learned import learned_move, learned_play
from pusoy.ai.learned.dataset import Teacher, generate_chunk, state_from_row, state_row
from pusoy.ai.learned.features import (
    CANDIDATE_SIZE,
    STATE_SIZE,
    candidate_features,
    candidates,
    state_features,
)
from pusoy.ai.learned.model import WEIGHTS, WEIGHTS_2P, Policy, shipped
from pusoy.ai.learned.reinforce import Opponent, _deal, evaluate_play, improve
from pusoy.ai.learned.train import evaluate, examples, fit
from pusoy.ai.random_bot import random_move
from pusoy.engine import DealState, PlayerView, Rules
from pusoy.engine.fast import FastState
from pusoy.engine.moves import Move
from tests.ai.helpers import RULE_SPECS


def _views(spec: object, players: int, seed: int) -> list[PlayerView]:
    """The view of the seat to move at every point of a heuristic-played deal."""
    state = DealState.from_seed(Rules.from_spec(spec), seed.to_bytes(32, "big"), players)
    rng = random.Random(seed)
    views = []
    while not state.is_over:
        view = state.view(state.turn)
        views.append(view)
        state.apply(heuristic_move(view, rng))
    return views


@pytest.mark.parametrize("spec", RULE_SPECS)
def test_features_have_their_shapes_and_are_deterministic(spec: object) -> None:
    for view in _views(spec, 4, 3)[:20]:
        sim = FastState.from_view(view)
        moves = candidates(sim)
        s = state_features(sim)
        c = candidate_features(sim, moves)
        assert s.shape == (STATE_SIZE,)
        assert c.shape == (len(moves), CANDIDATE_SIZE)
        assert s.dtype == c.dtype == np.float32
        assert np.isfinite(s).all()
        assert np.isfinite(c).all()
        again = FastState.from_view(view)
        assert np.array_equal(s, state_features(again))
        assert np.array_equal(c, candidate_features(again, candidates(again)))


def test_a_position_row_rebuilds_the_seats_state() -> None:
    rules = Rules.from_spec("philippine")
    for view in _views("philippine", 4, 5):
        sim = FastState.from_view(view)
        back = state_from_row(rules, state_row(sim))
        assert state_row(back) == state_row(sim)
        assert back.legal_plays() == sim.legal_plays()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shipped_weights_load(players: int) -> None:
    policy = shipped(players)
    assert WEIGHTS.stat().st_size < 500_000
    assert WEIGHTS_2P.stat().st_size < 500_000
    assert policy.Ws.shape[0] == STATE_SIZE
    assert policy.Wc.shape[0] == CANDIDATE_SIZE
    assert policy.Ws.shape[1] == policy.Wc.shape[1] == policy.b1.shape[0]
    assert policy.W2.shape == (policy.b1.shape[0], policy.w3.shape[0])
    assert shipped(players) is policy  # loaded once


def test_a_table_of_two_plays_its_own_weights() -> None:
    """The bot at a table of 2 scores with ``policy_2p.npz``, at 3 and 4 with
    ``policy.npz``: the two files differ, and each table's moves are its file's."""
    assert not np.array_equal(shipped(2).Ws, shipped(4).Ws)
    assert shipped(3) is shipped(4)
    differs = 0
    for players in (2, 3):
        for view in _views("philippine", players, 3):
            sim = FastState.from_view(view)
            own = shipped(players)
            assert learned_play(sim) == learned_play(sim, own)
            other = shipped(4 if players == 2 else 2)
            differs += learned_play(sim, other) != learned_play(sim)
    assert differs  # the test tells the two files apart


@pytest.mark.parametrize("spec", RULE_SPECS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_learned_bots_play_whole_deals(spec: object, players: int) -> None:
    """``apply`` rejects any illegal move."""
    rng = random.Random(f"{spec}{players}")
    state = DealState.from_seed(Rules.from_spec(spec), rng.randbytes(32), players)
    while not state.is_over:
        state.apply(learned_move(state.view(state.turn), rng))
    assert state.result is not None


def test_learned_move_on_another_seats_turn() -> None:
    state = DealState.from_seed("philippine", bytes(32), 4)
    with pytest.raises(ValueError, match="not seat"):
        learned_move(state.view((state.turn + 1) % 4), random.Random(0))


def test_a_few_training_steps_lower_the_loss_on_a_tiny_dataset() -> None:
    rules = Rules.from_spec("philippine")
    rows, chosen = generate_chunk(rules, Teacher("heuristic"), "tiny", 60)
    data = examples(rules, rows, chosen)
    policy = Policy.initial(np.random.default_rng(0), hidden=(16, 8))
    before, _ = evaluate(policy, data)
    trained = fit(policy, data, epochs=3, seed=0, lr=3e-3, batch_size=16)
    after, _ = evaluate(trained, data)
    assert after < before
    # The bot plays what the trained weights prefer.
    sim = state_from_row(rules, rows[0].tolist())
    assert learned_play(sim, trained) in candidates(sim)


def test_a_policy_gradient_step_plays_deals_and_moves_the_weights() -> None:
    rules = Rules.from_spec("philippine")
    policy = Policy.initial(np.random.default_rng(0), hidden=(16, 8))
    improved = improve(policy, rules, updates=1, deals=4, seed=0, lr=1e-2, temperature=2.0)
    assert improved.Ws.shape == policy.Ws.shape
    assert not np.array_equal(improved.Ws, policy.Ws)
    # A bonus for going out changes the returns, so the step (the policy loses deals the
    # heuristic wins from the same seat)
    bonus = improve(
        policy, rules, updates=1, deals=4, seed=0, lr=1e-2, temperature=2.0, win_bonus=10
    )
    assert not np.array_equal(bonus.Ws, improved.Ws)
    # One deal played from each of the 4 seats: a whole number of wins out of 4, and the
    # same figures again from the same seed (the evaluation replays, it does not sample).
    won, paid = evaluate_play(improved, rules, 1, "test")
    assert won * 4 in {0, 1, 2, 3, 4}
    assert evaluate_play(improved, rules, 1, "test") == (won, paid)


def test_policy_gradient_deals_take_the_opponents_in_turn_four_deals_each() -> None:
    """``improve(..., opponents=...)``: deals 0-3 (one per seat) against three of the
    first kind, 4-7 against the second, and so on; the evaluation plays the one it is
    given."""
    rules = Rules.from_spec("philippine")
    policy = Policy.initial(np.random.default_rng(0), hidden=(16, 8))
    faced: list[str] = []

    def seen(name: str, bot: Opponent) -> Opponent:
        def move(view: PlayerView, rng: random.Random) -> Move:
            if not faced or faced[-1] != name:
                faced.append(name)
            return bot(view, rng)

        return move

    kinds = [seen("greedy", greedy_move), seen("random", random_move)]
    improve(policy, rules, updates=1, deals=12, seed=0, lr=1e-2, temperature=2.0, opponents=kinds)
    # each deal is played twice (the policy, then the heuristic's baseline) by the same kind
    assert faced == ["greedy", "random", "greedy"]
    faced.clear()
    evaluate_play(policy, rules, 1, "test", kinds[1])
    assert faced == ["random"]


def test_policy_gradient_tables_take_the_player_counts_in_turn_step_by_step() -> None:
    """``improve(..., players=[3, 2])``: the first step deals 3-player tables, the second
    2-player ones, the third 3 again; the evaluation plays the table size it is given,
    one deal from every seat, and 4 players keeps the deals of the runs before."""
    rules = Rules.from_spec("philippine")
    policy = Policy.initial(np.random.default_rng(0), hidden=(16, 8))
    tables: list[int] = []

    def counting(view: PlayerView, rng: random.Random) -> Move:
        if not tables or tables[-1] != view.num_players:
            tables.append(view.num_players)
        return heuristic_move(view, rng)

    steps: list[int] = []
    improve(
        policy,
        rules,
        updates=3,
        deals=3,
        seed=0,
        lr=1e-2,
        temperature=2.0,
        opponents=[counting],
        players=[3, 2],
        log=lambda update, *_: steps.append(update),
    )
    assert steps == [0, 1, 2]
    assert tables == [3, 2, 3]
    # With two presets every preset meets every table size.
    met: list[tuple[Rules, int]] = []

    def noting(view: PlayerView, rng: random.Random) -> Move:
        pair = (view.rules, view.num_players)
        if not met or met[-1] != pair:
            met.append(pair)
        return heuristic_move(view, rng)

    two = [rules, Rules.from_spec("hong-kong")]
    improve(policy, two, updates=4, deals=2, temperature=2.0, opponents=[noting], players=[3, 2])
    assert met == [(two[0], 3), (two[1], 3), (two[0], 2), (two[1], 2)]
    tables.clear()
    won, _ = evaluate_play(policy, rules, 1, "test", counting, players=2)
    assert tables == [2]
    assert won * 2 in {0, 1, 2}
    old_seed = hashlib.sha256(b"learned-rl:0:0").digest()
    assert _deal(rules, "0", 0).hands == DealState.from_seed(rules, old_seed, 4).hands
    assert _deal(rules, "0", 0, 3).num_players == 3
