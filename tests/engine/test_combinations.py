"""Combinations and their comparison (docs/rules.md "Plays", "Comparing plays")."""

from __future__ import annotations

import itertools

import pytest

from pusoy.engine import InvalidMoveError, Play, Rules

PH = Rules.from_spec("philippine")
HK = Rules.from_spec("hong-kong")
SYSTEMS = ("ace-low", "hong-kong", "deuce-high", "no-deuce")


def play(text: str, rules: Rules = PH) -> Play:
    return Play.parse(text, rules)


def beats(a: str, b: str, rules: Rules = PH) -> bool:
    return play(a, rules).beats(play(b, rules))


def test_rank_order_three_low_two_high() -> None:
    order = ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "2C"]
    for low, high in itertools.pairwise(order):
        assert beats(high, low)
        assert not beats(low, high)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("7H", "single"),
        ("9H 9S", "pair"),
        ("9H 9S 9C", "triple"),
        ("3C 4D 5H 6S 7C", "straight"),
        ("4D 6D 8D TD QD", "flush"),
        ("9S 9H 9C 4D 4S", "full_house"),
        ("QS QH QC QD 6C", "four_of_a_kind"),
        ("7D 8D 9D TD JD", "straight_flush"),
    ],
)
def test_a_play_is_single_pair_triple_or_five_card_hand(text: str, kind: str) -> None:
    p = play(text)
    assert p.kind == kind
    assert p.size == len(text.split())
    assert eval(repr(p)) == p


@pytest.mark.parametrize(
    "text",
    [
        "9H 9S 9C 9D",  # four cards: no four-card plays
        "9H 9S 4C 4D",  # two pair
        "9H 8S",  # two cards of different ranks are not a pair
        "9H 9S 8C",  # mismatched triple
        "9H 9S 9C 9D 4C 4D",  # six cards
        "3C 4D 5H 6S 8C",  # five odd cards
        "3C 3D 5H 5S 8C",  # two pair plus one
        "3C 3D 3H 5S 8C",  # triple plus two singles
    ],
)
def test_no_other_sizes_or_shapes(text: str) -> None:
    for rules in (PH, HK):
        with pytest.raises(InvalidMoveError) as info:
            play(text, rules)
        assert info.value.code == "not_a_combination"


def test_four_of_a_kind_only_with_a_fifth_card() -> None:
    assert play("QS QH QC QD 6C").kind == "four_of_a_kind"
    with pytest.raises(InvalidMoveError):
        play("QS QH QC QD")


def test_five_card_hand_types_ordered() -> None:
    ladder = [
        "TC JD QH KS AC",  # straight (top)
        "3D 5D 7D 9D JD",  # flush
        "3C 3D 3H 4S 4C",  # full house (lowest)
        "3C 3D 3H 3S 4C",  # four of a kind (lowest)
        "3C 4C 5C 6C 7C",  # straight flush (lowest)
    ]
    for i, low in enumerate(ladder):
        for high in ladder[i + 1 :]:
            assert beats(high, low), (high, low)
            assert not beats(low, high)


def test_answer_only_with_same_size() -> None:
    assert not beats("2D 2H", "3C")
    assert not beats("2D", "3C 3S")
    assert not beats("2D 2H 2S", "3C 3S")
    assert not beats("3C 4C 5C 6C 7C", "2D")
    assert beats("3S 3D", "3C 3H")


def test_singles_pairs_triples_rank_then_highest_suit() -> None:
    assert beats("7D", "7H")  # the worked example: diamonds beat hearts
    assert not beats("7H", "7D")
    assert beats("8C", "7D")  # rank first
    assert beats("9C 9D", "9S 9H")  # highest suit in the play decides
    assert beats("4C 4D", "4S 4H")  # the pair with the diamond wins
    assert play("9C 9S 9D").key > play("9C 9S 9H").key


def test_suit_order_philippine_vs_hong_kong() -> None:
    # low to high: C S H D (philippine) and D C H S (hong-kong)
    for order, rules in (("CSHD", PH), ("DCHS", HK)):
        cards = [f"7{s}" for s in order]
        for low, high in itertools.pairwise(cards):
            assert beats(high, low, rules)
            assert not beats(low, high, rules)
    assert beats("7H", "7D", HK)  # the seed's remark about the Hong Kong order


def test_full_house_compared_by_triple_only() -> None:
    assert beats("5C 5D 5H 3S 3C", "4C 4D 4H 2S 2C")
    assert play("5C 5D 5H 3S 3C").key == play("5S 5D 5H 2S 2C").key


def test_four_of_a_kind_compared_by_four_only() -> None:
    assert beats("5C 5D 5H 5S 3C", "4C 4D 4H 4S 2C")
    assert play("5C 5D 5H 5S 3C").key == play("5C 5D 5H 5S 2D").key


# Every straight that docs/rules.md lists, valid (with its position low to high) or invalid.
STRAIGHTS = {
    "A 2 3 4 5": {"ace-low": 0, "hong-kong": 9, "deuce-high": None, "no-deuce": None},
    "3 4 5 6 7": {"ace-low": 1, "hong-kong": 0, "deuce-high": 0, "no-deuce": 0},
    "4 5 6 7 8": {"ace-low": 2, "hong-kong": 1, "deuce-high": 1, "no-deuce": 1},
    "10 J Q K A": {"ace-low": 8, "hong-kong": 7, "deuce-high": 7, "no-deuce": 7},
    "2 3 4 5 6": {"ace-low": None, "hong-kong": 8, "deuce-high": None, "no-deuce": None},
    "J Q K A 2": {"ace-low": None, "hong-kong": None, "deuce-high": 8, "no-deuce": None},
    "Q K A 2 3": {"ace-low": None, "hong-kong": None, "deuce-high": None, "no-deuce": None},
    "K A 2 3 4": {"ace-low": None, "hong-kong": None, "deuce-high": None, "no-deuce": None},
    "2 A K Q J": {"ace-low": None, "hong-kong": None, "deuce-high": 8, "no-deuce": None},
    "3 2 A K Q": {"ace-low": None, "hong-kong": None, "deuce-high": None, "no-deuce": None},
}
MIXED_SUITS = "CDHSC"


def _straight(ranks: str, suits: str = MIXED_SUITS) -> str:
    return " ".join(r + s for r, s in zip(ranks.split(), suits, strict=True))


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("ranks", list(STRAIGHTS))
def test_straights_valid_or_invalid_per_system(ranks: str, system: str) -> None:
    rules = Rules.from_spec({"straights": system})
    expected = STRAIGHTS[ranks][system]
    if expected is None:
        with pytest.raises(InvalidMoveError):
            play(_straight(ranks), rules)
    else:
        p = play(_straight(ranks), rules)
        assert p.kind == "straight"
        assert play(_straight(ranks, "DDDDD"), rules).kind == "straight_flush"


@pytest.mark.parametrize("system", SYSTEMS)
def test_straights_ranked_low_to_high_per_system(system: str) -> None:
    rules = Rules.from_spec({"straights": system})
    valid = sorted(
        ((pos[system], r) for r, pos in STRAIGHTS.items() if pos[system] is not None),
    )
    for (p1, low), (p2, high) in itertools.pairwise(valid):
        if p1 != p2:
            assert beats(_straight(high), _straight(low), rules), (high, low)


@pytest.mark.parametrize(
    ("system", "ranks", "deciding"),
    [
        ("ace-low", "A 2 3 4 5", "5"),
        ("ace-low", "10 J Q K A", "A"),
        ("ace-low", "3 4 5 6 7", "7"),
        ("deuce-high", "J Q K A 2", "2"),
        ("deuce-high", "10 J Q K A", "A"),
        ("hong-kong", "2 3 4 5 6", "2"),
        ("hong-kong", "A 2 3 4 5", "2"),
        ("hong-kong", "10 J Q K A", "A"),
        ("no-deuce", "9 10 J Q K", "K"),
    ],
)
def test_straight_ties_decided_by_suit_of_deciding_card(
    system: str, ranks: str, deciding: str
) -> None:
    """Same run: the suit of the deciding card decides; no other card's suit matters."""
    rules = Rules.from_spec({"straights": system})
    names = ranks.split()
    k = names.index(deciding)

    # diamonds on the deciding card beat hearts there, whatever the other suits are
    assert beats(_mixed(names, k, "D", "C"), _mixed(names, k, "H", "S"), rules)
    high = play(_mixed(names, k, "D", "C"), rules)
    low = play(_mixed(names, k, "H", "D"), rules)
    assert high.beats(low)
    assert not low.beats(high)


def _mixed(names: list[str], k: int, deciding_suit: str, other: str) -> str:
    """Deciding card in one suit, others alternating so the hand is not a flush."""
    alternate = {"C": "S", "S": "C", "D": "C", "H": "C"}[other]
    suits = [other if i % 2 else alternate for i in range(5)]
    suits[k] = deciding_suit
    return " ".join(r + s for r, s in zip(names, suits, strict=True))


def test_straight_flush_compared_by_run_then_suit() -> None:
    assert beats("4C 5C 6C 7C 8C", "3D 4D 5D 6D 7D")
    assert beats("3D 4D 5D 6D 7D", "3H 4H 5H 6H 7H")


def test_flush_rank_first() -> None:
    rules = Rules.from_spec({"flush_order": "rank-first"})
    assert beats("3C 5C 7C 9C KC", "3D 5D 7D 9D QD", rules)  # king high beats queen high
    assert beats("4C 5C 7C 9C KC", "3D 5D 7D 9D KD", rules)  # then the next card down
    assert beats("3D 5D 7D 9D KD", "3H 5H 7H 9H KH", rules)  # same ranks: the suit


def test_flush_suit_first() -> None:
    rules = Rules.from_spec({"flush_order": "suit-first"})
    assert beats("3D 4D 6D 8D TD", "5H 7H 9H JH 2H", rules)  # any diamond flush beats hearts
    assert beats("3D 5D 7D 9D KD", "4D 6D 8D TD QD", rules)
    assert beats("4H 5H 7H 9H KH", "3H 5H 7H 9H KH", rules)
    hk = Rules.from_spec("hong-kong")
    assert beats("3S 4S 6S 8S TS", "5H 7H 9H JH 2H", hk)  # spades high in hong-kong


def test_non_run_flush_with_a_two_is_a_flush() -> None:
    # 2-3-4-5-6 of one suit is a plain flush where 2-3-4-5-6 is not a straight
    assert play("2H 3H 4H 5H 6H").kind == "flush"
    assert play("2H 3H 4H 5H 6H", HK).kind == "straight_flush"


def test_triples_false_house_rule() -> None:
    rules = Rules.from_spec({"triples": False})
    with pytest.raises(InvalidMoveError) as info:
        play("9H 9S 9C", rules)
    assert info.value.code == "not_a_combination"
    assert play("9H 9S 9C 4D 4S", rules).kind == "full_house"


def test_play_value_semantics() -> None:
    p = play("9H 9S")
    assert str(p) == "9S 9H"  # canonical order: rank, then suit C S H D
    assert [str(c) for c in p.cards] == ["9S", "9H"]
    assert eval(repr(p)) == p
    assert eval(repr(play("9H 9S", HK))) == play("9S 9H", HK)
    with pytest.raises(AttributeError):
        p.mask = 3  # type: ignore[misc]
