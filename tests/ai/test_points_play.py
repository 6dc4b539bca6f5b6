"""The bots play for points (docs/ai.md): the heuristic sheds cards when it will probably
pay for them, and the expert's search is rewarded in the game's own scoring."""

from __future__ import annotations

import random

import pytest

from benchmarks.strength.variants import heuristic_sheds_from_start
from pusoy.ai.expert import WIN_BONUS, _reward, reward_with_bonus
from pusoy.ai.heuristic import heuristic_move
from pusoy.ai.hints import hint
from pusoy.engine import Play, PlayerView, Rules
from pusoy.engine.cards import cards_of, parse_cards
from pusoy.engine.fast import FastState
from pusoy.engine.moves import PASS, Move


def _view(scoring: str, hand: str, to_beat: str | None, counts: tuple[int, ...]) -> PlayerView:
    """Seat 0 to answer ``to_beat`` played by seat 3 (or, with None, to lead a new
    trick), the others holding ``counts``."""
    rules = Rules.from_spec({"preset": "philippine", "scoring": scoring})
    cards = parse_cards(hand)
    play = Play.parse(to_beat, rules) if to_beat else None
    return PlayerView(
        seat=0,
        rules=rules,
        num_players=4,
        hand=tuple(sorted(cards)),
        card_counts=(len(cards), *counts),
        turn=0,
        to_beat=play,
        trick_leader=3 if play else 0,
        last_player=3 if play else 0,
        passed=frozenset(),
        in_play=frozenset(range(4)),
        required_card=None,
        history=(),
        played_cards=tuple(cards_of(play.mask)) if play else (),
        finished_order=(),
        seq=1,
        is_over=False,
        result=None,
    )


# A long, weak hand facing a pair: its only pairs break its triple of 9s.
HAND = "3C 4D 6H 7S 8C 9C 9D 9H JS QD KC"


@pytest.mark.parametrize("scoring", ["cards-left", "cards-left-tiered"])
def test_the_heuristic_sheds_when_an_opponent_is_close_and_cards_cost(scoring: str) -> None:
    view = _view(scoring, HAND, "5C 5D", (5, 9, 8))
    move = heuristic_move(view, random.Random(0))
    assert move != PASS
    assert {str(c) for c in move.cards} <= {"9C", "9D", "9H"}


def test_under_deuces_double_a_losers_cards_cost_nothing_and_it_keeps_its_triple() -> None:
    view = _view("deuces-double", HAND, "5C 5D", (5, 9, 8))
    assert heuristic_move(view, random.Random(0)) == PASS


@pytest.mark.parametrize("scoring", ["cards-left", "cards-left-tiered"])
def test_with_nobody_close_it_keeps_its_triple(scoring: str) -> None:
    # Even where ten cards cost double: shedding from the start lost deals against every
    # league style but the hoarder (docs/ai.md, "Why the instant level wins less ...").
    view = _view(scoring, HAND, "5C 5D", (11, 9, 10))
    assert heuristic_move(view, random.Random(0)) == PASS


def test_the_variant_of_before_sheds_from_the_start_under_the_tiered_scoring() -> None:
    view = _view("cards-left-tiered", HAND, "5C 5D", (11, 9, 10))
    assert heuristic_sheds_from_start(view, random.Random(0)) != PASS
    view = _view("cards-left", HAND, "5C 5D", (11, 9, 10))
    assert heuristic_sheds_from_start(view, random.Random(0)) == PASS


def _ended(rules: Rules, winner: int, final: str, counts: list[int]) -> FastState:
    sim = FastState.at_start(rules, [0] * len(counts), counts, winner)
    sim.out = winner
    sim.beat_mask = Move.play(final).mask
    return sim


def test_the_expert_is_rewarded_with_its_payment() -> None:
    tiered = Rules.from_spec({"preset": "philippine", "scoring": "cards-left-tiered"})
    dealt = [13, 13, 13, 13]
    # Seat 1 went out; seat 0 holds 10 cards (double), seat 2 is untouched (triple).
    sim = _ended(tiered, 1, "2S", [10, 0, 13, 4])
    assert _reward(sim, 0, dealt) == -20
    assert _reward(sim, 2, dealt) == -39
    assert _reward(sim, 1, dealt) == 20 + 39 + 4
    deuces = Rules.from_spec("philippine")
    sim = _ended(deuces, 1, "2S 2H", [3, 0, 9, 4])
    # Two 2s in the final play: a stake of 4 from each of three, and the bonus for going
    # out that steadies the search (in stakes; not part of the score).
    assert _reward(sim, 1, dealt) == 3 * 4 + WIN_BONUS
    assert -4.1 < _reward(sim, 2, dealt) < _reward(sim, 0, dealt) < -4  # nearer is better
    # Benchmarks take the bonus out (or set another) on the same deals.
    assert reward_with_bonus(sim, 1, dealt, 0.0) == 3 * 4
    assert reward_with_bonus(sim, 0, dealt, 0.0) == _reward(sim, 0, dealt)


def _lead(scoring: str, hand: str, counts: tuple[int, ...]) -> str:
    move = heuristic_move(_view(scoring, hand, None, counts), random.Random(0))
    return " ".join(str(c) for c in move.cards)


def test_under_deuces_double_it_leads_its_beatable_play_first_to_go_out_on_its_2() -> None:
    # The 2 of diamonds wins any single: cashing it first goes out on the 5 for a stake of
    # 1; leading the 5 first lets the 2 win the lead back and end the deal at a stake of 2.
    assert _lead("deuces-double", "5C 2D", (5, 6, 4)) == "5C"
    assert _lead("deuces-double", "5C 5D 2D", (1, 6, 4)) == "5C 5D"
    # An opponent on one card would go out on the 5: the 2 goes first.
    assert _lead("deuces-double", "5C 2D", (1, 6, 4)) == "2D"
    # Where a 2 does not double anything, the sure way out stands.
    assert _lead("cards-left", "5C 2D", (5, 6, 4)) == "2D"


def test_the_hint_for_that_lead_says_the_2_is_kept_to_go_out_on() -> None:
    view = _view("deuces-double", "5C 2D", None, (5, 6, 4))
    suggestion = hint(view, random.Random(0))
    assert str(suggestion.move) == "5C"
    assert "keep your 2s to win the lead back and go out on them" in suggestion.reason
    cards_left = _view("cards-left", "5C 2D", None, (5, 6, 4))
    assert "go out on them" not in hint(cards_left, random.Random(0)).reason
