"""Hypothesis properties: legal moves equal brute force over all subsets, every other
play is refused with the code the order gives, no card is lost or duplicated, and a
random deal played out always ends with the right scores."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pusoy.engine import (
    CARDS,
    DealState,
    EngineError,
    Move,
    Play,
    Rules,
)
from pusoy.engine.cards import mask_of
from tests.engine.reference import reference_beats, reference_key

SETTINGS = settings(deadline=None, max_examples=150)

rules_strategy = st.builds(
    Rules,
    preset=st.sampled_from(["philippine", "philippine-online", "hong-kong"]),
    suit_order=st.sampled_from(["CSHD", "DCHS", "SHDC"]),
    opening_card=st.sampled_from(["3C", "3D", "5H"]),
    straights=st.sampled_from(["ace-low", "hong-kong", "deuce-high", "no-deuce"]),
    flush_order=st.sampled_from(["rank-first", "suit-first"]),
    scoring=st.sampled_from(["deuces-double", "cards-left", "cards-left-tiered"]),
    play_out=st.booleans(),
    pass_locks_out=st.booleans(),
    leftover=st.sampled_from(["to-opening-holder", "set-aside"]),
    hand_size=st.sampled_from([13, 17]),
    triples=st.booleans(),
)


def expected_code(state: DealState, cards: tuple) -> str | None:
    """The code docs/rules.md and the check order give for playing ``cards`` (a subset of the
    hand of the seat to move), computed from the reference classifier."""
    key = reference_key(cards, state.rules)
    if key is None:
        return "not_a_combination"
    required = state.required_card
    if required is not None and required not in cards:
        return "must_include_opening_card"
    to_beat = state.to_beat
    if to_beat is not None:
        beat_key = reference_key(to_beat.cards, state.rules)
        assert beat_key is not None
        if beat_key[0] != key[0]:
            return "wrong_size"
        if not reference_beats(key, beat_key):
            return "does_not_beat"
    return None


def check_moves_against_brute_force(state: DealState, sizes: tuple[int, ...]) -> None:
    seat = state.turn
    assert seat is not None
    hand = state.hands[seat]
    legal = state.legal_moves()
    assert len(legal) == len(set(legal)), "legal moves are distinct"
    expected = set()
    for k in sizes:
        for cards in combinations(hand, k):
            code = expected_code(state, cards)
            move = Move.play(cards)
            try:
                state.check(move, seat)
                got = None
            except EngineError as error:
                got = error.code
            assert got == code, (cards, got, code)
            if code is None:
                expected.add(move)
    if state.to_beat is not None:
        expected.add(Move.pass_())
    assert set(legal) == expected
    foreign = [c for s in range(state.num_players) if s != seat for c in state.hands[s]]
    for move in legal:
        if foreign and not move.is_pass:
            # the same play with a card the seat does not hold: refused for that first
            with pytest.raises(EngineError) as info:
                state.check(Move.play([*move.cards[1:], foreign[0]]), seat)
            assert info.value.code == "cards_not_in_hand"
            assert info.value.details == {"cards": [str(foreign[0])]}
    assert set(state.view(seat).legal_moves()) == expected


def random_position(rules: Rules, rng: random.Random, hand_size: int) -> DealState:
    """A deal of small hands advanced a few random moves."""
    n = rng.choice([2, 3, 4])
    deck = list(CARDS)
    rng.shuffle(deck)
    hands = [deck[i * hand_size : (i + 1) * hand_size] for i in range(n)]
    leader = rng.choice([None, rng.randrange(n)])
    state = DealState.new(rules, hands, leader=leader, set_aside=deck[n * hand_size :])
    for _ in range(rng.randrange(0, 3 * n)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


@SETTINGS
@given(rules=rules_strategy, seed=st.integers(0, 2**32), size=st.integers(5, 9))
def test_legal_moves_equal_brute_force_small_hands(rules: Rules, seed: int, size: int) -> None:
    rng = random.Random(seed)
    state = random_position(rules, rng, size)
    if not state.is_over:
        check_moves_against_brute_force(state, (1, 2, 3, 4, 5, 6))


@settings(deadline=None, max_examples=25)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_legal_moves_equal_brute_force_thirteen_cards(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(rules, rng, 13)
    if not state.is_over:
        check_moves_against_brute_force(state, (1, 2, 3, 4, 5))


@SETTINGS
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_five_card_plays_against_reference(rules: Rules, seed: int) -> None:
    """Random plays of any size classify and compare exactly as the reference does."""
    rng = random.Random(seed)
    plays = []
    for _ in range(30):
        cards = tuple(rng.sample(CARDS, rng.choice([1, 2, 3, 5, 5, 5])))
        key = reference_key(cards, rules)
        if key is None:
            with pytest.raises(EngineError, match="not a"):
                Play.from_mask(mask_of(cards), rules)
            continue
        play = Play.from_mask(mask_of(cards), rules)
        assert key is not None
        plays.append((play, key))
    for a, ka in plays:
        for b, kb in plays:
            assert a.beats(b) == reference_beats(ka, kb), (a, b)


def test_exhaustive_pair_and_triple_keys_match_reference() -> None:
    for rules in (Rules.from_spec("philippine"), Rules.from_spec("hong-kong")):
        small = [c for k in (1, 2, 3) for c in combinations(CARDS, k)]
        for cards in small:
            ref = reference_key(cards, rules)
            try:
                play = Play.from_mask(mask_of(cards), rules)
            except EngineError:
                assert ref is None
                continue
            assert ref is not None
            assert play.size == ref[0]


def conserved(state: DealState) -> None:
    """Every card is in exactly one place: a hand, the played pile or set aside."""
    places = [*state.hands, state.played_cards, state.set_aside]
    seen = [c for group in places for c in group]
    assert len(seen) == len(set(seen)) == 52


@SETTINGS
@given(rules=rules_strategy, seed=st.integers(0, 2**32), n=st.sampled_from([2, 3, 4]))
def test_random_deal_conserves_cards_and_scores_right(rules: Rules, seed: int, n: int) -> None:
    rng = random.Random(seed)
    state = DealState.from_seed(rules, rng.randbytes(32), n)
    conserved(state)
    dealt = [len(h) for h in state.hands]
    first_out: tuple[int, Move, list[int]] | None = None
    order: list[int] = []
    while not state.is_over:
        seat = state.turn
        assert seat is not None
        move = rng.choice(state.legal_moves())
        before = len(state.hands[seat])
        state.apply(move)
        conserved(state)
        assert len(state.hands[seat]) == before - len(move.cards)
        if before and not state.hands[seat]:
            order.append(seat)
            if first_out is None:
                first_out = (seat, move, [len(h) for h in state.hands])
    assert first_out is not None
    winner, final, left = first_out
    result = state.result
    assert result is not None
    assert result.winner == winner
    assert result.cards_left == left
    if rules.scoring == "deuces-double":
        deuces = sum(1 for c in final.cards if c.rank == 12)
        assert result.points == [2**deuces if s == winner else 0 for s in range(n)]
    else:
        expected = []
        for s in range(n):
            if s == winner:
                expected.append(0)
            elif rules.scoring == "cards-left-tiered" and left[s] == dealt[s]:
                expected.append(3 * left[s])
            elif rules.scoring == "cards-left-tiered" and left[s] >= 10:
                expected.append(2 * left[s])
            else:
                expected.append(left[s])
        assert result.points == expected
    assert sorted(result.places) == list(range(n))
    assert result.places[0] == winner
    if rules.play_out:
        assert result.places[: len(order)] == order
        assert len(order) == n - 1
    else:
        assert order == [winner]
        others = result.places[1:]
        assert [left[s] for s in others] == sorted(left[s] for s in others)
    # the state serializes and replays to the same place
    again = DealState.from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict()
