"""Notation (docs/rules.md "Writing cards") and the Card value."""

from __future__ import annotations

import pytest

from pusoy.engine import CARDS, Card, InvalidMoveError, format_cards, parse_cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3C", "3C"),
        ("TD", "TD"),
        ("10d", "TD"),
        ("10D", "TD"),
        ("2♦", "2D"),
        ("a♠", "AS"),
        ("k♥", "KH"),
        ("J♣", "JC"),
        ("9\u2666\ufe0f", "9D"),
    ],
)
def test_notation_accepts_input_forms(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


# Padding is not a spelling: the parser reads exactly CARD_INPUT_PATTERN, which the API
# schema publishes, so what a client may send is what the schema says.
@pytest.mark.parametrize(
    "text", ["", "1C", "11D", "3X", "ZZ", "3", "C", "3CC", "10", "TT", " qs ", "3\ufe0fC"]
)
def test_invalid_card_has_code(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Card.parse(text)
    assert info.value.code == "invalid_card"


def test_non_string_is_invalid_card() -> None:
    with pytest.raises(InvalidMoveError) as info:
        Card.parse(7)  # type: ignore[arg-type]
    assert info.value.code == "invalid_card"


def test_card_value_semantics() -> None:
    card = Card.parse("10d")
    assert repr(card) == "Card.parse('TD')"
    assert eval(repr(card)) == card
    assert (card.rank, card.suit, card.index) == (7, 3, 31)
    assert Card.parse("3C") < Card.parse("3S") < Card.parse("4C") < Card.parse("2D")
    assert len(set(CARDS)) == 52
    assert [c.index for c in CARDS] == list(range(52))
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]
    with pytest.raises(InvalidMoveError):
        Card(13, 0)


def test_parse_and_format_cards() -> None:
    assert format_cards(parse_cards("9H 9S")) == ["9H", "9S"]
    assert format_cards(parse_cards(["9h", "10s"])) == ["9H", "TS"]
    assert format_cards(parse_cards("3C,4C")) == ["3C", "4C"]
    assert parse_cards("") == ()
