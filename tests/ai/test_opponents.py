"""Reading the opponents' styles (``pusoy.ai.opponents``) and the expert's rollouts that
play them."""

from __future__ import annotations

import random

import pytest

from pusoy.ai import expert, heuristic, opponents
from pusoy.ai.arena import seat_bot
from pusoy.ai.budget import Budget
from pusoy.ai.inference import ActionModel
from pusoy.ai.learned import learned_play
from pusoy.ai.opponents import Observation, Style, fit_style, read_styles
from pusoy.ai.worlds import cards_dealt
from pusoy.engine import DealState, Rules
from pusoy.engine.fast import FastState
from tests.ai.helpers import random_position, searches_beside_the_default


def test_the_random_play_draws_every_legal_move_and_only_those() -> None:
    for steps in (0, 9):
        state = random_position("philippine", 4, 11, steps)
        view = state.view(state.turn)
        sim = FastState.from_view(view)
        legal = {move.mask for move in view.legal_moves()}
        rng = random.Random(2)
        drawn = {opponents.random_play(sim, rng)[0] for _ in range(3000)}
        assert drawn == legal
        # on lead no pass; following, a pass among them
        assert (0 in drawn) == (view.to_beat is not None)


def test_moves_that_the_planner_explains_are_read_as_the_planner() -> None:
    seen = [Observation(True, False, 0.2)] * 20
    assert fit_style(seen).planner > 0.95
    # (a move both explain is the planner's too: the prior leans to it)
    assert fit_style([Observation(True, True, 0.2)] * 20).planner > 0.5


def test_moves_only_the_greedy_bot_explains_are_read_as_greedy() -> None:
    style = fit_style([Observation(False, True, 0.1)] * 12)
    assert style.greedy > 0.6
    assert style.planner < opponents.MODELLED_BELOW


def test_moves_nothing_explains_are_read_as_random() -> None:
    style = fit_style([Observation(False, False, 0.1)] * 12)
    assert style.random > 0.6
    assert style.planner < opponents.MODELLED_BELOW


def test_a_few_moves_alone_do_not_make_a_seat_look_otherwise() -> None:
    # the prior: two unexplained moves leave the seat a planner
    assert fit_style([Observation(False, False, 0.1)] * 2).planner >= opponents.MODELLED_BELOW
    assert fit_style([]) == opponents.PLANNER_STYLE


def test_a_styles_weights_are_a_distribution() -> None:
    rng = random.Random(4)
    for _ in range(50):
        seen = [
            Observation(rng.random() < 0.5, rng.random() < 0.5, 1 / rng.randint(1, 20))
            for _ in range(rng.randint(0, 30))
        ]
        style = fit_style(seen, rng.choice([1.0, 0.5, 1 / 6]))
        assert sum(style) == pytest.approx(1.0)
        assert min(style) >= 0.0


def _read_at_the_table(deals: int, after: int) -> dict[str, list[Style | None]]:
    """Seat 3's reading of random, greedy and heuristic opponents, at each of its turns
    once ``after`` moves were made."""
    specs = ["random", "greedy", "heuristic", "heuristic"]
    rules = Rules.from_spec("philippine")
    read: dict[str, list[Style | None]] = {"random": [], "greedy": [], "heuristic": []}
    for deal in range(deals):
        state = DealState.from_seed(rules, bytes([deal]) * 32, 4)
        rng = random.Random(deal)
        bots = [seat_bot(spec, Budget()) for spec in specs]
        moves = 0
        while not state.is_over:
            seat = state.turn
            assert seat is not None
            view = state.view(seat)
            if seat == 3 and moves >= after:
                model = ActionModel(view)
                source = expert.world_source(view, rng, Budget.of_rollouts(1000), None, model)
                styles = read_styles(model, [source() for _ in range(opponents.READING_WORLDS)])
                for s in range(3):
                    read[specs[s]].append(styles[s])
            state.apply(bots[seat](view, rng))
            moves += 1
    return read


def test_random_and_greedy_seats_are_read_so_and_planners_are_not() -> None:
    read = _read_at_the_table(deals=6, after=16)
    rate = {name: sum(s is not None for s in styles) / len(styles) for name, styles in read.items()}
    assert all(len(styles) >= 6 for styles in read.values())
    # (measured: the heuristic 9% of its readings, random 34%, greedy 42%; a reading
    # that cannot tell the styles apart reads all three alike)
    assert rate["heuristic"] <= 0.15
    assert rate["random"] >= 0.25
    assert rate["random"] >= 3 * rate["heuristic"]
    assert rate["greedy"] >= 0.25
    assert rate["greedy"] >= 3 * rate["heuristic"]
    for style in read["random"]:
        if style is not None:
            assert style.random > style.greedy
    for style in read["greedy"]:
        if style is not None:
            assert style.greedy > 0.1


def test_a_rollout_with_no_style_read_is_the_planners() -> None:
    for seed in range(5):
        state = random_position("philippine", 4, seed, 6)
        sim = FastState.from_view(state.view(state.turn))
        sim.hands = true_hands(state)
        a, b = sim.copy(), sim.copy()
        expert.rollout(a)
        opponents.styled_rollout(b, [None] * 4, random.Random(seed))
        assert (a.out, a.counts, a.played) == (b.out, b.counts, b.played)


def test_styled_rollouts_end_the_deal_with_every_card_accounted_for() -> None:
    mix = Style(0.2, 0.3, 0.5)
    for seed in range(20):
        state = random_position("philippine", 4, seed, seed)
        sim = FastState.from_view(state.view(state.turn))
        sim.hands = true_hands(state)
        cards = sum(sim.counts) + sim.played.bit_count()
        opponents.styled_rollout(sim, [mix, None, mix, mix], random.Random(seed))
        assert sim.out >= 0
        assert sim.counts[sim.out] == 0
        assert sum(sim.counts) + sim.played.bit_count() == cards
        assert [h.bit_count() for h in sim.hands] == sim.counts
        assert not any(h & sim.played for h in sim.hands)


def true_hands(state: DealState) -> list[int]:
    return [state.view(seat).hand_mask for seat in range(state.num_players)]


def test_the_search_plays_the_reading_worlds_first_and_draws_no_world_twice() -> None:
    drawn = iter(range(100))
    source = expert._replayed([[1], [2]], lambda: [next(drawn)])
    assert [source()[0] for _ in range(4)] == [1, 2, 0, 1]


def test_a_search_that_reads_styles_weighs_the_same_candidates_within_its_budget() -> None:
    """The default search reads the styles; beside one whose rollouts play every seat as
    the planner it weighs the same candidates and spends no more than its rollouts."""
    assert expert.Tuning().model_opponents
    searches = searches_beside_the_default(expert.Tuning(model_opponents=False), 20, 300)
    for styled, play, plain in searches:
        assert set(styled) == set(plain)  # the same candidates
        assert play in plain or not plain
        assert sum(n for n, _ in styled.values()) <= 300
    assert any(styled for styled, _play, _plain in searches)


def test_rollout_noise_mixes_moves_into_the_planners_seats_only() -> None:
    """The variant ``rollout_noise`` (not the served expert's): the seats left to the
    planner get the noisy mix, a read style is kept, the searching seat stays the
    planner's unless ``rollout_noise_self``."""
    assert expert.Tuning().rollout_noise == 0.0
    greedy = Style(0.3, 0.6, 0.1)
    read: list[Style | None] = [None, greedy, None, None]
    tuning = expert.Tuning(rollout_noise=0.1)
    noisy = Style(0.9, 0.05, 0.05)
    assert expert.with_rollout_noise(read, 0, tuning) == [None, greedy, noisy, noisy]
    both = tuning._replace(rollout_noise_self=True)
    assert expert.with_rollout_noise(read, 0, both) == [noisy, greedy, noisy, noisy]
    assert read == [None, greedy, None, None]


def test_a_search_with_rollout_noise_weighs_the_same_candidates_within_its_budget() -> None:
    """Beside the default search, on the same random source: the same candidates, no
    more rollouts, and other results (the noise is played, not ignored)."""
    searches = searches_beside_the_default(expert.Tuning(rollout_noise=0.25), 20, 300)
    for plain, play, noisy in searches:
        assert set(noisy) == set(plain)
        assert play in noisy or not noisy
        assert sum(n for n, _ in noisy.values()) <= 300
    assert any(noisy != plain for plain, _play, noisy in searches)


def test_an_own_policy_plays_the_searching_seats_first_moves_and_nothing_else() -> None:
    """``Tuning.own_policy`` (a variant, not the served expert's): the searching seat's
    first ``own_moves`` moves of a rollout are the policy's, the other seats' moves and
    random draws are the rollout's own; so with the planner's move as the policy the
    rollout ends exactly as a plain one, with or without read styles."""
    assert expert.Tuning().own_policy is None
    mix = Style(0.2, 0.3, 0.5)
    played = 0
    for seed in range(12):
        state = random_position("philippine", 4, seed, seed % 5)
        me = state.turn
        view = state.view(me)
        world = FastState.from_view(view)
        world.hands = true_hands(state)
        dealt = cards_dealt(view)
        play = heuristic.heuristic_play(world)
        # (the search reads no style for its own seat)
        read: list[Style | None] = [None if seat == me else mix for seat in range(4)]
        for styles in (None, (read, seed)):
            plain = expert.play_out(world, play, me, dealt, expert._reward, None, styles)
            for moves in (1, 3, 13):
                seats: list[int] = []

                def planner(sim: FastState, seats: list[int] = seats) -> tuple[int, int]:
                    seats.append(sim.turn)
                    return heuristic.rollout_play(sim)

                own = (planner, moves)
                value = expert.play_out(world, play, me, dealt, expert._reward, None, styles, own)
                assert value == plain
                assert seats == [me] * len(seats)
                assert len(seats) <= moves
                played += len(seats)
    assert played > 12 * 2 * 3  # the policy was asked (a rollout can end before its turn)


def test_the_learned_policy_finishes_a_rollout_with_every_card_accounted_for() -> None:
    for seed in range(10):
        state = random_position("hong-kong", 4, seed, seed)
        sim = FastState.from_view(state.view(state.turn))
        sim.hands = true_hands(state)
        cards = sum(sim.counts) + sim.played.bit_count()
        ended = expert.own_moves(sim, state.turn, (learned_play, 13), None, None, None)
        if not ended:
            expert.rollout(sim)
        assert sim.out >= 0
        assert sum(sim.counts) + sim.played.bit_count() == cards
        assert [h.bit_count() for h in sim.hands] == sim.counts


def test_a_search_with_the_learned_policy_weighs_the_same_candidates_within_its_budget() -> None:
    """Beside the default search, on the same random source: the same candidates, no
    more rollouts, and other results (the policy's moves are played, not ignored)."""
    tuning = expert.Tuning(own_policy=learned_play, own_moves=3)
    searches = searches_beside_the_default(tuning, 20, 200)
    for plain, play, learned in searches:
        assert set(learned) == set(plain)
        assert play in learned or not learned
        assert sum(n for n, _ in learned.values()) <= 200
    assert any(learned != plain for plain, _play, learned in searches)
