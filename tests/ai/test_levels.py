"""Small, exact examples of each level's choices and of ``timeout_move``."""

from __future__ import annotations

import random

from pusoy.ai import choose_move, timeout_move
from pusoy.ai.heuristic import heuristic_play
from pusoy.ai.plan import plan
from pusoy.engine import DealState, Move
from pusoy.engine.fast import FastState
from pusoy.engine.tables import tables_for

R = random.Random(0)


def deal(*hands: str, leader: int | None = None, rules: str | dict = "philippine") -> DealState:
    return DealState.new(rules, list(hands), leader=leader)


def play(state: DealState, *moves: str) -> DealState:
    for move in moves:
        state.apply(Move.parse(move))
    return state


def test_greedy_opening_lead_is_the_required_card_alone() -> None:
    state = deal("3C 3S 4C 5C 6C 7C", "8D 9D", "TD JD", "QD KD")
    assert choose_move("greedy", state.view(0), R) == Move.parse("3C")


def test_greedy_follows_with_the_lowest_play_that_beats() -> None:
    state = play(deal("3C 9S", "4D 7H 8S 2D", "TD JD", "QD KD"), "3C")
    assert choose_move("greedy", state.view(1), R) == Move.parse("4D")
    state = play(deal("3C 4C 4S 8D", "5D 5H 9S 9C KD", "TD JD", "QD KS", leader=0), "4C 4S")
    assert choose_move("greedy", state.view(1), R) == Move.parse("5D 5H")


def test_greedy_passes_when_nothing_beats_and_leads_the_lowest_single() -> None:
    state = play(deal("3C 6C 2D", "4D 5H", "TD JD", "QD KD"), "3C", "4D", "TD", "QD", "2D")
    assert state.turn == 1
    assert state.to_beat is not None
    assert choose_move("greedy", state.view(1), R) == Move.parse("pass")
    state = deal("4C 4S 9H", "8D 9D", "TD JD", "QD KD", leader=0)
    assert choose_move("greedy", state.view(0), R) == Move.parse("4C")


def test_timeout_move() -> None:
    opening = deal("3C 3S 4C 5C 6C 7C", "8D 9D", "TD JD", "QD KD")
    assert timeout_move(opening.view(0)) == Move.parse("3C")
    following = play(deal("3C 9S", "4D 7H", "TD JD", "QD KD"), "3C")
    assert timeout_move(following.view(1)) == Move.parse("pass")
    leading = deal("5H 5S 9H 9S 9D", "8D 9C", "TD JD", "QD KD", leader=0)
    assert timeout_move(leading.view(0)) == Move.parse("5S")


def test_timeout_move_with_the_opening_card_set_aside() -> None:
    # 2 players: nobody holds 3C, so the lowest card dealt (4S) opens.
    state = DealState.new("philippine", ["4S 4D 6H", "5C 7C 8C"])
    assert str(state.required_card) == "4S"
    assert timeout_move(state.view(0)) == Move.parse("4S")


def test_heuristic_goes_out_when_it_can() -> None:
    leading = deal("6C 7D 8H 9S TC", "3C 4C", "TD JD", "QD KD", leader=0)
    assert choose_move("heuristic", leading.view(0), R) == Move.parse("6C 7D 8H 9S TC")
    following = play(deal("3C 4C", "9D", "TD JD", "QD KD"), "3C")
    assert choose_move("heuristic", following.view(1), R) == Move.parse("9D")
    pair = play(deal("3C 3S 4C", "JC JS", "TD KD", "QD KH"), "3C 3S")
    assert choose_move("heuristic", pair.view(1), R) == Move.parse("JC JS")


def test_heuristic_cashes_winners_before_its_last_play() -> None:
    # 2D is unbeatable, 3S 3H then ends the deal: lead the 2 first (where a 2 in the
    # final play doubles nothing; under deuces-double the pair goes first, so that the 2
    # can end the deal: tests/ai/test_points_play.py).
    hands = ("3S 3H 2D", "4C 5C 6C", "7D 8D 9D", "TD JD QD")
    state = deal(*hands, leader=0, rules={"preset": "philippine", "scoring": "cards-left"})
    assert choose_move("heuristic", state.view(0), R) == Move.parse("2D")
    state = deal(*hands, leader=0)
    assert choose_move("heuristic", state.view(0), R) == Move.parse("3S 3H")


def test_heuristic_blocks_a_next_player_with_one_card() -> None:
    # Seat 1 must beat 3C; seat 2 holds a single card: answer with the highest single.
    state = play(deal("3C 4D 5D 6D 7D 8S", "6C 9H KS AH", "JH", "TS TH 2C", leader=0), "3C")
    assert choose_move("heuristic", state.view(1), R) == Move.parse("AH")
    # On lead with the next player on one card, it leads a pair rather than a single.
    lead = deal("5C 5S 9H", "JH", "3D 4D", "6D 7D", leader=0)
    assert choose_move("heuristic", lead.view(0), R) == Move.parse("5C 5S")


def test_plan_uses_the_fewest_plays() -> None:
    t = tables_for(DealState.new("philippine", ["3C", "4C"]).rules)
    hand = Move.parse("3C 4D 5H 6S 7C 9D 9H KS KD KC").mask
    chosen = plan(t, hand)
    assert sum(p[0].bit_count() for p in chosen) == 10
    assert len(chosen) == 2  # the straight and the full house K-K-K-9-9
    assert {p[0] for p in chosen} == {
        Move.parse("3C 4D 5H 6S 7C").mask,
        Move.parse("9D 9H KS KD KC").mask,
    }


def test_heuristic_play_reads_only_the_movers_hand() -> None:
    """On a sim built from a view, other hands are empty: the policy still answers."""
    state = play(deal("3C 4D 5D", "6C 9H KS AH", "JH QS", "TS TH 2C"), "3C")
    sim = FastState.from_view(state.view(1))
    assert sim.hands[0] == sim.hands[2] == sim.hands[3] == 0
    mask, _key = heuristic_play(sim)
    assert Move(mask) in state.legal_moves()
