"""The rules of play, one test per rule of docs/rules.md (leads, tricks, passing, the end of
the deal, play_out, pass_locks_out, players and the deal, scoring)."""

from __future__ import annotations

import pytest

from pusoy.engine import (
    Card,
    DealState,
    IllegalMoveError,
    Move,
    Rules,
    deal_from_seed,
)
from pusoy.engine.shuffle import deal_deck
from tests.engine.helpers import fill_hands, play_moves, set_aside_of

PH = Rules.from_spec("philippine")


def four(fixed: list[str], rules: Rules = PH, **kwargs: object) -> DealState:
    return DealState.new(rules, fill_hands(fixed, [13] * 4), **kwargs)  # type: ignore[arg-type]


def code_of(state: DealState, text: str, seat: int | None = None) -> str | None:
    try:
        state.check(Move.parse(text), seat)
    except IllegalMoveError as error:
        return error.code
    except ValueError as error:
        return getattr(error, "code", None)
    return None


def test_worked_example_move_by_move() -> None:
    """Ana leads 3C; Ben 7H; Cia 7D; Dee, Ana, Ben pass; Cia leads 9H 9S; Dee JC JD;
    Ana, Ben, Cia pass; Dee leads next."""
    state = four(["3C 5S", "7H 8S", "7D 9H 9S", "JC JD"])
    ana, ben, cia, dee = range(4)
    assert state.turn == ana
    assert state.required_card == Card.parse("3C")
    steps = [
        (ana, "3C", ben, "3C"),
        (ben, "7H", cia, "7H"),
        (cia, "7D", dee, "7D"),
        (dee, "pass", ana, "7D"),
        (ana, "pass", ben, "7D"),
        (ben, "pass", cia, None),  # Cia wins the round with 7D and leads
        (cia, "9H 9S", dee, "9S 9H"),
        (dee, "JC JD", ana, "JC JD"),
        (ana, "pass", ben, "JC JD"),
        (ben, "pass", cia, "JC JD"),
        (cia, "pass", dee, None),  # Dee wins the round and leads next
    ]
    for seat, move, next_turn, to_beat in steps:
        state.apply(Move.parse(move), seat)
        assert state.turn == next_turn, (seat, move)
        assert (None if state.to_beat is None else str(state.to_beat)) == to_beat
    assert state.trick_leader == dee
    assert state.seq == 11
    played = {str(c) for c in state.played_cards}
    assert played == {"3C", "7H", "7D", "9H", "9S", "JC", "JD"}


def test_worked_example_under_hong_kong_suit_order() -> None:
    """Under the Hong Kong order 7H beats 7D instead."""
    rules = Rules.from_spec({"suit_order": "DCHS"})
    state = four(["3C 5S", "7D 8S", "7H 9H 9S", "JC JD"], rules)
    play_moves(state, [(0, "3C"), (1, "7D")])
    assert code_of(state, "7H", 2) is None
    state = four(["3C 5S", "7H 8S", "7D 9H 9S", "JC JD"], rules)
    play_moves(state, [(0, "3C"), (1, "7H")])
    assert code_of(state, "7D", 2) == "does_not_beat"


def test_opening_card_holder_leads_and_must_include_it() -> None:
    state = four(["5S", "6S", "3C 4C 5C 6C 7C", "8S"])
    assert state.turn == 2
    assert code_of(state, "4C", 2) == "must_include_opening_card"
    assert code_of(state, "3C 4C 5C 6C 7C", 2) is None  # inside a five-card hand
    assert all(Card.parse("3C") in m.cards for m in state.legal_moves())
    state.apply(Move.parse("3C 4C 5C 6C 7C"))
    assert state.required_card is None


def test_hong_kong_opening_card_is_three_of_diamonds() -> None:
    state = four(["3C", "3D", "5S", "8S"], Rules.from_spec("hong-kong"))
    assert state.turn == 1
    assert str(state.required_card) == "3D"


def test_opening_card_set_aside_lowest_dealt_card_leads() -> None:
    """Two players with 13 cards: if 3C is set aside, the lowest card dealt opens."""
    hands = fill_hands(["4C 3S", "3H 3D"], [13, 13])
    state = DealState.new(Rules.from_spec({"hand_size": 13}), hands, set_aside=["3C"])
    assert state.turn == 0
    assert state.required_card == Card.parse("3S")
    assert code_of(state, "4C", 0) == "must_include_opening_card"
    # Hong Kong suit order: 3D is the lowest, and it is the opening card itself
    hk = Rules.from_spec({"preset": "hong-kong", "hand_size": 13})
    state = DealState.new(hk, hands, set_aside=["3C"])
    assert state.turn == 1
    assert state.required_card == Card.parse("3D")
    hands = fill_hands(["4C 3S", "3H 3C"], [13, 13])
    state = DealState.new(hk, hands, set_aside=["3D"])
    assert state.turn == 1
    assert state.required_card == Card.parse("3C")


def test_later_deal_given_leader_leads_freely() -> None:
    state = four(["3C", "5S", "6S", "8S"], leader=2)
    assert state.turn == 2
    assert state.required_card is None
    assert code_of(state, "8S", 2) != "must_include_opening_card"
    assert Move.parse("pass") not in state.legal_moves()


def test_leader_may_not_pass() -> None:
    state = four(["3C", "5S", "6S", "8S"])
    assert code_of(state, "pass", 0) == "cannot_pass_on_lead"
    assert Move.pass_() not in state.legal_moves()
    play_moves(state, [(0, "3C"), (1, "pass"), (2, "pass"), (3, "pass")])
    assert state.turn == 0
    assert state.to_beat is None
    assert code_of(state, "pass", 0) == "cannot_pass_on_lead"


def test_answer_with_same_size_that_beats() -> None:
    state = four(["3C 4C", "5S 5H 6S", "6H", "8S"])
    state.apply(Move.parse("3C"))
    assert code_of(state, "5S 5H", 1) == "wrong_size"
    assert code_of(state, "5S", 1) is None
    play_moves(state, [(1, "pass"), (2, "pass"), (3, "pass")])
    assert state.turn == 0
    state.apply(Move.parse("4C"))
    state.apply(Move.parse("5H"))
    assert code_of(state, "3S", 2) == "cards_not_in_hand"


def test_trick_won_when_all_others_pass_then_any_shape() -> None:
    state = four(["3C 9C 9D", "5S", "6S", "8S"])
    play_moves(state, [(0, "3C"), (1, "5S"), (2, "6S"), (3, "8S")])
    play_moves(state, [(0, "pass"), (1, "pass"), (2, "pass")])
    assert state.turn == 3
    assert state.to_beat is None
    assert state.trick_leader == 3
    assert state.passed == frozenset()


def test_pass_does_not_lock_out_by_default() -> None:
    state = four(["3C", "5S 7S", "6S", "8S"])
    play_moves(state, [(0, "3C"), (1, "pass"), (2, "6S"), (3, "pass"), (0, "pass")])
    assert state.turn == 1  # Ben passed earlier in this trick and may play now
    assert state.passed == frozenset({3, 0})
    state.apply(Move.parse("7S"))
    assert state.passed == frozenset()  # passes count in succession since the last play


def test_pass_locks_out_house_rule() -> None:
    rules = Rules.from_spec({"pass_locks_out": True})
    state = four(["3C", "5S 7S", "6S", "8S 9S"], rules)
    play_moves(state, [(0, "3C"), (1, "pass"), (2, "6S")])
    assert state.turn == 3
    play_moves(state, [(3, "8S")])
    assert state.turn == 0  # Ben is skipped next time round
    play_moves(state, [(0, "pass")])
    assert state.turn == 2  # Ben skipped
    assert state.passed == frozenset({0, 1})
    play_moves(state, [(2, "pass")])
    # everyone else passed: seat 3 wins the trick
    assert state.turn == 3
    assert state.to_beat is None
    assert state.passed == frozenset()


def test_pass_locks_out_trick_ends_when_all_others_passed() -> None:
    rules = Rules.from_spec({"pass_locks_out": True})
    state = four(["3C", "5S 7S", "6S", "8S 9S"], rules)
    play_moves(state, [(0, "3C"), (1, "pass"), (2, "pass"), (3, "pass")])
    assert state.turn == 0
    assert state.to_beat is None


def test_deal_ends_when_a_player_plays_the_last_card() -> None:
    hands = fill_hands(["3C 4C", "5S", "6S", "8S"], [2, 13, 13, 13])
    state = DealState.new(PH, hands, set_aside=set_aside_of(hands))
    play_moves(state, [(0, "3C"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "4C")])
    assert state.is_over
    assert state.turn is None
    assert state.result is not None
    assert state.result.winner == 0
    assert state.legal_moves() == []
    assert code_of(state, "5S", 1) == "game_not_active"  # nobody answers that play


def test_cannot_go_out_on_a_pass() -> None:
    hands = fill_hands(["3C 4C", "5S", "6S", "8S"], [2, 13, 13, 13])
    state = DealState.new(PH, hands, set_aside=set_aside_of(hands))
    play_moves(state, [(0, "3C"), (1, "5S"), (2, "6S"), (3, "8S"), (0, "pass")])
    assert not state.is_over
    assert len(state.hands[0]) == 1


def test_turn_order_is_seat_order() -> None:
    state = four(["3C", "4S", "5S", "6S"])
    seen = []
    for _ in range(8):
        seen.append(state.turn)
        moves = state.legal_moves()
        state.apply(moves[0] if state.to_beat is None else Move.pass_())
    assert seen[:4] == [0, 1, 2, 3]


def test_play_out_keeps_playing_for_places() -> None:
    rules = Rules.from_spec({"preset": "philippine-deuce-high", "play_out": True})
    hands = fill_hands(["3C", "4S 9S", "5S TS", "6S JS"], [1, 2, 2, 2])
    state = DealState.new(rules, hands, set_aside=set_aside_of(hands))
    play_moves(state, [(0, "3C")])  # seat 0 goes out; points are counted now
    assert not state.is_over
    assert state.finished_order == (0,)
    assert state.turn == 1
    play_moves(state, [(1, "pass"), (2, "pass"), (3, "pass")])
    # the trick's winner is out: the next player still in the deal leads
    assert state.turn == 1
    assert state.to_beat is None
    play_moves(state, [(1, "9S"), (2, "TS"), (3, "JS"), (1, "pass"), (2, "pass")])
    assert state.turn == 3
    play_moves(state, [(3, "6S")])  # seat 3 out second
    assert state.finished_order == (0, 3)
    assert state.turn == 1
    play_moves(state, [(1, "pass"), (2, "pass")])
    assert state.turn == 1
    assert state.to_beat is None
    play_moves(state, [(1, "4S")])
    assert state.is_over
    result = state.result
    assert result is not None
    assert result.places == [0, 3, 1, 2]
    assert result.winner == 0
    assert result.points == [0, 2, 2, 2]  # cards left when seat 0 went out
    assert result.cards_left == [0, 2, 2, 2]


def test_play_out_off_by_default_and_on_any_preset() -> None:
    for name in ("philippine", "philippine-online", "philippine-deuce-high", "hong-kong"):
        assert Rules.from_spec(name).play_out is False
        assert Rules.from_spec({"preset": name, "play_out": True}).play_out is True


def test_play_out_ends_when_one_player_is_left_with_two_players() -> None:
    rules = Rules.from_spec({"play_out": True, "hand_size": 13})
    hands = fill_hands(["3C", "5S"], [1, 13])
    state = DealState.new(rules, hands, set_aside=set_aside_of(hands))
    state.apply(Move.parse("3C"))
    assert state.is_over
    assert state.result is not None
    assert state.result.places == [0, 1]


# ------------------------------------------------------------------ players and the deal
SEED = bytes(range(32))


@pytest.mark.parametrize(
    ("num_players", "spec", "sizes", "set_aside"),
    [
        (4, "philippine", [13, 13, 13, 13], 0),
        (3, "philippine", [17, 17, 18], 1 - 1),
        (3, "philippine-deuce-high", [17, 17, 17], 1),
        (2, "philippine", [17, 17], 18),
        (2, {"hand_size": 13}, [13, 13], 26),
    ],
)
def test_players_and_hand_sizes(
    num_players: int, spec: object, sizes: list[int], set_aside: int
) -> None:
    rules = Rules.from_spec(spec)  # type: ignore[arg-type]
    hands, aside = deal_from_seed(SEED, rules, num_players)
    assert sorted(len(h) for h in hands) == sizes
    assert len(aside) == set_aside
    assert len({c for h in hands for c in h} | set(aside)) == 52


def _deck_with_last(last: str) -> list[Card]:
    from pusoy.engine import CARDS

    deck = [c for c in CARDS if str(c) != last]
    deck.reverse()  # the lowest cards go to the later seats
    return [*deck, Card.parse(last)]


def test_three_players_leftover_to_opening_holder() -> None:
    deck = _deck_with_last("5D")
    hands, aside = deal_deck(deck, PH, 3)
    holder = next(s for s in range(3) if Card.parse("3C") in hands[s])
    assert Card.parse("5D") in hands[holder]
    assert len(hands[holder]) == 18
    assert aside == ()


def test_three_players_leftover_is_the_opening_card() -> None:
    """The 52nd card is 3C itself: it goes to the holder of the lowest card dealt."""
    deck = _deck_with_last("3C")
    hands, _aside = deal_deck(deck, PH, 3)
    lowest_holder = next(s for s in range(3) if Card.parse("3S") in hands[s])
    assert Card.parse("3C") in hands[lowest_holder]
    assert len(hands[lowest_holder]) == 18
    state = DealState.new(PH, hands)
    assert state.turn == lowest_holder
    assert state.required_card == Card.parse("3C")


def test_three_players_leftover_set_aside() -> None:
    rules = Rules.from_spec({"leftover": "set-aside"})
    deck = _deck_with_last("3C")
    hands, aside = deal_deck(deck, rules, 3)
    assert aside == (Card.parse("3C"),)
    state = DealState.new(rules, hands, set_aside=aside)
    assert state.required_card == Card.parse("3S")
    assert Card.parse("3S") in state.hands[state.turn]  # type: ignore[index]


def test_two_players_hand_size_rest_set_aside() -> None:
    for size in (13, 17):
        rules = Rules.from_spec({"hand_size": size})
        state = DealState.from_seed(rules, SEED, 2)
        assert [len(h) for h in state.hands] == [size, size]
        assert len(state.set_aside) == 52 - 2 * size


# ------------------------------------------------------------------------------ scoring
@pytest.mark.parametrize(("final", "points"), [("AC", 1), ("2C", 2), ("2C 2D", 4)])
def test_scoring_deuces_double(final: str, points: int) -> None:
    hands = fill_hands(["3C " + final, "5S", "6S", "8S"], [1 + len(final.split()), 13, 13, 13])
    state = DealState.new(PH, hands, set_aside=set_aside_of(hands))
    play_moves(state, [(0, "3C"), (1, "pass"), (2, "pass"), (3, "pass"), (0, final)])
    assert state.result is not None
    assert state.result.points == [points, 0, 0, 0]


def test_scoring_deuces_double_three_and_four_deuces() -> None:
    for final, points in (("2C 2S 2D 4D 4H", 8), ("2C 2S 2H 2D 4H", 16)):
        hands = fill_hands(["3C " + final, "5S", "6S", "8S"], [6, 13, 13, 13])
        state = DealState.new(PH, hands, set_aside=set_aside_of(hands))
        play_moves(state, [(0, "3C"), (1, "pass"), (2, "pass"), (3, "pass"), (0, final)])
        assert state.result is not None
        assert state.result.points == [points, 0, 0, 0]


def _quick_win(rules: Rules) -> DealState:
    hands = fill_hands(["3C 4C", "5S", "6S", "8S"], [2, 13, 13, 9])
    state = DealState.new(rules, hands, set_aside=set_aside_of(hands))
    play_moves(state, [(0, "3C"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "4C")])
    return state


def test_scoring_cards_left() -> None:
    state = _quick_win(Rules.from_spec("philippine-online"))
    assert state.result is not None
    assert state.result.points == [0, 13, 13, 9]
    assert state.result.places == [0, 3, 1, 2]
    assert state.result.cards_left == [0, 13, 13, 9]


def test_scoring_cards_left_tiered() -> None:
    rules = Rules.from_spec({"scoring": "cards-left-tiered"})
    state = _quick_win(rules)
    assert state.result is not None
    assert state.result.points == [0, 39, 39, 27]  # nobody else played a card: triple
    hands = fill_hands(["3C 2D", "5S", "6S", "8S 9S"], [2, 13, 13, 9])
    state = DealState.new(rules, hands, set_aside=set_aside_of(hands))
    play_moves(state, [(0, "3C"), (1, "5S"), (2, "pass"), (3, "8S")])
    play_moves(state, [(0, "pass"), (1, "pass"), (2, "pass"), (3, "9S"), (0, "2D")])
    assert state.result is not None
    # 12 left after playing: double; 13 never played: triple; 7 left: as is
    assert state.result.points == [0, 24, 39, 7]
