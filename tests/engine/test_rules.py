"""Rule options and presets (docs/rules.md "Options", "Presets")."""

from __future__ import annotations

import json

import pytest

from pusoy.engine import OPTION_NAMES, PRESETS, Card, Rules, RulesError

TABLE = {
    "philippine": {
        "suit_order": "CSHD",
        "opening_card": "3C",
        "straights": "ace-low",
        "flush_order": "rank-first",
        "scoring": "deuces-double",
        "play_out": False,
        "leftover": "to-opening-holder",
    },
    "philippine-online": {
        "suit_order": "CSHD",
        "opening_card": "3C",
        "straights": "hong-kong",
        "flush_order": "suit-first",
        "scoring": "cards-left",
        "play_out": False,
        "leftover": "to-opening-holder",
    },
    "philippine-deuce-high": {
        "suit_order": "CSHD",
        "opening_card": "3C",
        "straights": "deuce-high",
        "flush_order": "rank-first",
        "scoring": "cards-left",
        "play_out": False,
        "leftover": "set-aside",
    },
    "hong-kong": {
        "suit_order": "DCHS",
        "opening_card": "3D",
        "straights": "hong-kong",
        "flush_order": "suit-first",
        "scoring": "cards-left",
        "play_out": False,
        "leftover": "to-opening-holder",
    },
}


@pytest.mark.parametrize("name", list(TABLE))
def test_presets_match_the_table(name: str) -> None:
    resolved = Rules.from_spec(name).to_dict()
    assert resolved["preset"] == name
    for option, value in TABLE[name].items():
        assert resolved[option] == value, option
    # no preset turns the house rules on
    assert resolved["pass_locks_out"] is False
    assert resolved["triples"] is True
    assert resolved["hand_size"] == 17


def test_default_is_philippine() -> None:
    assert Rules.from_spec(None) == PRESETS["philippine"] == Rules.from_spec({})
    assert set(PRESETS) == set(TABLE)


def test_every_option_overridable_on_any_preset() -> None:
    overrides = {
        "suit_order": "DCHS",
        "opening_card": "3D",
        "straights": "no-deuce",
        "flush_order": "suit-first",
        "scoring": "cards-left-tiered",
        "play_out": True,
        "pass_locks_out": True,
        "leftover": "set-aside",
        "hand_size": 13,
        "triples": False,
    }
    assert set(overrides) == set(OPTION_NAMES)
    for preset in PRESETS:
        for option, value in overrides.items():
            rules = Rules.from_spec({"preset": preset, option: value})
            assert rules.to_dict()[option] == value
            assert rules.preset == preset


def test_play_out_optional_on_deuce_high() -> None:
    rules = Rules.from_spec({"preset": "philippine-deuce-high", "play_out": True})
    assert rules.play_out is True


@pytest.mark.parametrize(
    ("spec", "option"),
    [
        ("texas", "preset"),
        ({"preset": "nope"}, "preset"),
        ({"jokers": True}, "jokers"),
        ({"straights": "wrap-around"}, "straights"),
        ({"flush_order": "suit"}, "flush_order"),
        ({"scoring": "points"}, "scoring"),
        ({"play_out": "yes"}, "play_out"),
        ({"play_out": 1}, "play_out"),
        ({"pass_locks_out": None}, "pass_locks_out"),
        ({"leftover": "burn"}, "leftover"),
        ({"hand_size": 15}, "hand_size"),
        ({"hand_size": "17"}, "hand_size"),
        ({"triples": "false"}, "triples"),
        ({"suit_order": "CSHH"}, "suit_order"),
        ({"suit_order": 5}, "suit_order"),
        ({"opening_card": "3X"}, "opening_card"),
    ],
)
def test_unknown_options_and_values_are_refused(spec: object, option: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_spec(spec)  # type: ignore[arg-type]
    assert info.value.code == "invalid_rules"
    assert info.value.details["option"] == option
    assert option in info.value.message


def test_rules_error_is_value_error() -> None:
    with pytest.raises(ValueError, match="unknown preset"):
        Rules.from_spec("texas")


@pytest.mark.parametrize("name", list(TABLE))
def test_resolved_rules_round_trip_through_json(name: str) -> None:
    rules = Rules.from_spec({"preset": name, "scoring": "cards-left-tiered", "triples": False})
    data = json.loads(json.dumps(rules.to_dict()))
    assert Rules.from_dict(data) == rules
    assert eval(repr(rules)) == rules


def test_resolved_rules_survive_a_preset_change() -> None:
    """A stored game keeps its options: a full dict does not depend on preset defaults."""
    stored = Rules.from_spec("hong-kong").to_dict()
    as_other_preset = {**stored, "preset": "philippine"}
    rules = Rules.from_dict(as_other_preset)
    assert {k: v for k, v in rules.to_dict().items() if k != "preset"} == {
        k: v for k, v in stored.items() if k != "preset"
    }


def test_suit_order_input_forms() -> None:
    for value in ("D C H S", ["D", "C", "H", "S"], "dchs", "♦♣♥♠"):
        assert Rules.from_spec({"suit_order": value}).suit_order == "DCHS"
    assert Rules.from_spec({"opening_card": "3♦"}).opening_card == Card.parse("3D")
