"""A bot sees only what its seat may see: the view holds no other hand, and the expert's
sampled worlds agree with everything public."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pusoy.ai import Budget, choose_move, expert
from pusoy.ai.heuristic import heuristic_move
from pusoy.ai.inference import ActionModel, chained_worlds
from pusoy.ai.learned import learned_move
from pusoy.ai.worlds import WorldSampler
from pusoy.engine import Card, DealState, Move, Play, PlayerView, Rules
from pusoy.engine.cards import cards_of
from tests.ai.helpers import LEAGUE_BOTS, positions


def reachable_cards(value: object) -> Iterator[Card]:
    """Every card reachable from a view: fields, containers, moves and plays (by their
    masks). Rules are the table's agreed options, not cards of the deal."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, Move | Play):
        yield from cards_of(value.mask)
    elif isinstance(value, Rules) or value is None:
        return
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from reachable_cards(getattr(value, f.name))
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from reachable_cards(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from reachable_cards(key)
            yield from reachable_cards(item)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions)
def test_the_view_given_to_a_bot_holds_no_other_hand(state: DealState) -> None:
    seat = state.turn
    view = state.view(seat)
    # The face-up card of a 3-player deal is public: everyone saw it dealt.
    public = {state.face_up_card} if state.face_up_card is not None else set()
    visible = set(view.hand) | set(state.played_cards) | public
    others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand} - public
    reachable = set(reachable_cards(view))
    assert reachable <= visible
    assert not reachable & others
    assert not reachable & set(state.set_aside)


def _same_view_other_hands(state: DealState, seat: int, rng: random.Random) -> DealState:
    """The same deal, moves and view for ``seat``, with the cards ``seat`` cannot see
    redealt among the others (each keeps its count and the cards it has played)."""
    played_by = [0] * state.num_players
    for s, move in state.history:
        played_by[s] |= move.mask
    # Cards public to ``seat`` stay where they are: the card the leader must open with,
    # and the face-up card of a 3-player deal.
    fixed: dict[int, list[Card]] = {s: [] for s in range(state.num_players)}
    required = state.required_card
    if required is not None and state.turn != seat:
        fixed[state.turn].append(required)
    face_up = state.face_up_card
    if (
        face_up is not None
        and state.face_up_seat != seat
        and face_up in state.hands[state.face_up_seat]
    ):
        fixed[state.face_up_seat].append(face_up)
    pinned = {c for cards in fixed.values() for c in cards}
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand if c not in pinned]
    rng.shuffle(hidden)
    hands = []
    at = 0
    current: dict[int, list[Card]] = {}
    for s in range(state.num_players):
        if s == seat:
            current[s] = list(state.hands[s])
            continue
        k = len(state.hands[s]) - len(fixed[s])
        current[s] = fixed[s] + hidden[at : at + k]
        at += k
    for s in range(state.num_players):
        hands.append([*current[s], *cards_of(played_by[s])])
    other = DealState.new(
        state.rules, hands, leader=state.leader, set_aside=state.set_aside, face_up=face_up
    )
    for s, move in state.history:
        other.apply(move, s)
    return other


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, seed=st.integers(0, 2**16))
def test_bots_decide_from_the_view_alone(state: DealState, seed: int) -> None:
    """Other hands redealt, same view: every level (expert on a rollout budget) answers
    the same move for the same random source."""
    seat = state.turn
    other = _same_view_other_hands(state, seat, random.Random(seed))
    view, view2 = state.view(seat), other.view(seat)
    assert view == view2
    budget = Budget(seconds=30.0, iterations=10)
    for level in ("random", "greedy", "heuristic", "expert"):
        a = choose_move(level, view, random.Random(seed), budget=budget)
        b = choose_move(level, view2, random.Random(seed), budget=budget)
        assert a == b, level
    # the expert whose rollouts play every seat as the planner (a league variant)
    planner = expert.Tuning(model_opponents=False)
    a_play = expert.search(view, random.Random(seed), budget, planner)[0]
    assert a_play == expert.search(view2, random.Random(seed), budget, planner)[0]
    for name, bot in LEAGUE_BOTS.items():
        assert bot(view, random.Random(seed)) == bot(view2, random.Random(seed)), name
    assert learned_move(view, random.Random(seed)) == learned_move(view2, random.Random(seed))


def assert_agrees_with_the_view(view: PlayerView, hands: list[int]) -> None:
    """A world: the seat's own hand, every count, no card twice, no card seen elsewhere,
    the required card with the seat to lead, the face-up card with its holder."""
    seat = view.seat
    known = view.hand_mask | sum(card.mask for card in view.played_cards)
    assert hands[seat] == view.hand_mask
    assert [h.bit_count() for h in hands] == list(view.card_counts)
    seen = 0
    for s, hand in enumerate(hands):
        assert not hand & seen
        seen |= hand
        if s != seat:
            assert not hand & known
    if view.required_card is not None and view.turn != seat:
        assert hands[view.turn] & view.required_card.mask
    face_up = view.face_up_card
    if face_up is not None and view.face_up_seat != seat and face_up not in view.played_cards:
        assert hands[view.face_up_seat] & face_up.mask  # the face-up card stays put


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, seed=st.integers(0, 2**16))
def test_sampled_worlds_agree_with_everything_public(state: DealState, seed: int) -> None:
    view = state.view(state.turn)
    sampler = WorldSampler(view)
    rng = random.Random(seed)
    for _ in range(5):
        assert_agrees_with_the_view(view, sampler.sample(rng))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions, seed=st.integers(0, 2**16))
def test_chained_worlds_agree_with_everything_public(state: DealState, seed: int) -> None:
    """The worlds the expert searches (Markov chains over the deals of the hidden cards,
    weighted by the opponents' moves), from every chain and after many steps."""
    view = state.view(state.turn)
    next_world = chained_worlds(WorldSampler(view), ActionModel(view), random.Random(seed), 2)
    for _ in range(5):
        assert_agrees_with_the_view(view, next_world())


@pytest.mark.parametrize(
    "spec", ["philippine", "hong-kong", {"preset": "philippine", "pass_locks_out": True}]
)
def test_the_true_hands_explain_heuristic_opponents(spec: object) -> None:
    """Against heuristic opponents (the planner the reading models, not the level's
    search), the real world has no mismatch, random ones have."""
    rng = random.Random(5)
    true_total = sampled_total = 0
    for _ in range(6):
        state = DealState.from_seed(spec, rng.randbytes(32), 4)
        for _ in range(20):
            if state.is_over:
                break
            state.apply(heuristic_move(state.view(state.turn), rng))
        if state.is_over:
            continue
        view = state.view(state.turn)
        model = ActionModel(view)
        true_hands = [sum(c.mask for c in h) for h in state.hands]
        sampled = WorldSampler(view).sample(rng)
        for seat in range(4):
            if seat != view.seat:
                true_total += model.seat_mismatches(seat, true_hands[seat])
                sampled_total += model.seat_mismatches(seat, sampled[seat])
    assert true_total == 0
    assert sampled_total > 0


def test_sampled_worlds_give_the_face_up_card_to_its_holder() -> None:
    """3 players: everyone saw the 52nd card dealt face up, so no world moves it."""
    rules = Rules.from_spec("philippine")
    checked = 0
    for n in range(20):
        state = DealState.from_seed(rules, bytes([n]) * 32, 3)
        holder = state.face_up_seat
        card = state.face_up_card
        assert holder is not None
        assert card is not None
        seat = next(s for s in range(3) if s != holder)
        view = state.view(seat)
        sampler = WorldSampler(view)
        rng = random.Random(n)
        for _ in range(20):
            assert sampler.sample(rng)[holder] & card.mask
        next_world = chained_worlds(sampler, ActionModel(view), rng, 1)
        for _ in range(20):
            assert next_world()[holder] & card.mask
        checked += 1
    assert checked == 20
