"""Game records (pusoy-dos-record/1): write, read, verify; and the verify_record CLI."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from pusoy.engine import (
    DealState,
    Record,
    RecordError,
    Rules,
    commitment,
    record_from_state,
    verify_record,
)
from pusoy.engine.verify_cli import run
from tests.engine.helpers import fill_hands, play_randomly

SEED = bytes(range(32))


def finished(spec: object = "philippine", n: int = 4, seed: bytes = SEED) -> DealState:
    state = DealState.from_seed(Rules.from_spec(spec), seed, n)  # type: ignore[arg-type]
    play_randomly(state, random.Random(7))
    return state


def record_dict(state: DealState, **kwargs: object) -> dict:
    return record_from_state(state, **kwargs).to_dict()  # type: ignore[arg-type]


def test_written_record_has_the_contract_shape() -> None:
    state = finished()
    data = record_dict(state, players=["Ana", "Ben", "Cia", "Dee"], seed=SEED)
    assert data["format"] == "pusoy-dos-record/1"
    assert data["rules"] == Rules.from_spec("philippine").to_dict()
    assert data["players"] == ["Ana", "Ben", "Cia", "Dee"]
    assert [len(h) for h in data["hands"]] == [13] * 4
    assert data["opening_card"] == "3C"
    # A first deal is led by the opening card's holder: the record names the card and no
    # `leader` (which would mean a free lead and prove nothing about the card).
    assert "leader" not in data
    assert "3C" in data["hands"][data["moves"][0]["seat"]]
    assert "3C" in data["moves"][0]["play"]
    assert all(set(m) in ({"seat", "play"}, {"seat", "pass"}) for m in data["moves"])
    assert data["result"]["winner"] == state.result.winner  # type: ignore[union-attr]
    assert data["seed"] == SEED.hex()
    assert data["commitment"] == commitment(SEED)
    json.dumps(data)
    assert Record.from_dict(data).to_dict() == data


def test_a_first_deal_record_cannot_drop_the_opening_card() -> None:
    state = DealState.from_seed("philippine", SEED, 4)
    data = record_dict(state)
    holder = state.turn
    hand = data["hands"][holder]
    other = next(c for c in hand if c != "3C")
    data["moves"] = [{"seat": holder, "play": [other]}]
    verdict = verify_record(data)
    assert (verdict.valid, verdict.code, verdict.move_index) == (
        False,
        "must_include_opening_card",
        0,
    )


@pytest.mark.parametrize("spec", ["philippine", "philippine-online", "hong-kong"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_finished_deals_verify(spec: str, n: int) -> None:
    verdict = verify_record(record_dict(finished(spec, n), seed=SEED))
    assert verdict.valid, verdict
    assert verdict.code is None
    assert verdict.move_index is None


def test_contract_example_style_record() -> None:
    """A hand-written record with a short preset spec, leader and opening card."""
    hands = fill_hands(["3C 5S", "7H 8S", "7D 9H 9S", "JC JD"], [13] * 4)
    record = {
        "format": "pusoy-dos-record/1",
        "rules": {"preset": "philippine"},
        "players": ["Ana", "Ben", "Cia", "Dee"],
        "hands": hands,
        "leader": 0,
        "opening_card": "3C",
        "moves": [
            {"seat": 0, "play": ["3C"]},
            {"seat": 1, "play": ["7H"]},
            {"seat": 2, "play": ["7D"]},
            {"seat": 3, "pass": True},
        ],
    }
    assert verify_record(record).valid
    record["leader"] = 1
    assert verify_record(record).code == "leader_mismatch"
    record["leader"] = 0
    record["opening_card"] = "3D"
    assert verify_record(record).code == "opening_card_mismatch"


def test_unfinished_deal_is_valid_but_a_result_is_not() -> None:
    state = DealState.from_seed(None, SEED, 4)
    state.apply(state.legal_moves()[0])
    data = record_dict(state)
    assert "result" not in data
    assert verify_record(data).valid
    data["result"] = {"winner": 0, "points": [1, 0, 0, 0]}
    verdict = verify_record(data)
    assert (verdict.valid, verdict.code, verdict.move_index) == (False, "result_mismatch", 1)


def test_result_mismatch_at_index_past_last_move() -> None:
    data = record_dict(finished("philippine-online"))
    data["result"]["points"] = [p + 1 for p in data["result"]["points"]]
    verdict = verify_record(data)
    assert verdict.code == "result_mismatch"
    assert verdict.move_index == len(data["moves"])
    short = record_dict(finished())
    short["result"] = {"winner": (short["result"]["winner"] + 1) % 4, "points": [0] * 4}
    assert verify_record(short).code == "result_mismatch"


def test_first_bad_move_is_named_with_its_code() -> None:
    data = record_dict(finished())
    moves = data["moves"]
    i = next(k for k, m in enumerate(moves) if k > 4 and "play" in m)
    # a card the mover does not hold
    other = (moves[i]["seat"] + 1) % 4
    foreign = data["hands"][other][-1]
    tampered = json.loads(json.dumps(data))
    tampered["moves"][i] = {"seat": moves[i]["seat"], "play": [foreign]}
    verdict = verify_record(tampered)
    assert verdict.move_index == i
    assert verdict.code in ("cards_not_in_hand", "does_not_beat", "wrong_size")
    tampered["moves"][i] = {"seat": (moves[i]["seat"] + 1) % 4, "pass": True}
    assert verify_record(tampered).code == "not_your_turn"
    tampered["moves"][i] = {"seat": moves[i]["seat"], "play": ["QQ"]}
    assert verify_record(tampered).code == "invalid_card"
    tampered["moves"] = [*moves, {"seat": 0, "pass": True}]
    verdict = verify_record(tampered)
    assert (verdict.code, verdict.move_index) == ("game_not_active", len(moves))
    tampered["moves"] = [{"seat": moves[0]["seat"], "pass": True}]
    assert verify_record(tampered).code == "cannot_pass_on_lead"


def test_seed_and_commitment_checked() -> None:
    data = record_dict(finished(), seed=SEED)
    bad = dict(data, commitment="0" * 64)
    assert verify_record(bad).code == "seed_mismatch"
    other_seed = bytes(32)
    bad = dict(data, seed=other_seed.hex(), commitment=commitment(other_seed))
    verdict = verify_record(bad)
    assert verdict.code == "seed_mismatch"
    assert verdict.move_index is None
    only_commitment = {k: v for k, v in data.items() if k != "seed"}
    verdict = verify_record(only_commitment)
    assert verdict.valid
    assert "commitment not checked" in verdict.message


@pytest.mark.parametrize(
    ("mutate", "code"),
    [
        (lambda d: "not a dict", "bad_format"),
        (lambda d: dict(d, format="pusoy-dos-record/2"), "bad_format"),
        (lambda d: dict(d, rules={"preset": "texas"}), "invalid_rules"),
        (lambda d: dict(d, rules={"jokers": True}), "invalid_rules"),
        (lambda d: {k: v for k, v in d.items() if k != "rules"}, "bad_format"),
        (lambda d: dict(d, moves=[{"seat": 0, "seq": 2, "pass": True}]), "bad_format"),
        (lambda d: dict(d, hands=[["3C", "XX"], *d["hands"][1:]]), "invalid_card"),
        (lambda d: dict(d, hands=d["hands"][:1]), "bad_hands"),
        (lambda d: dict(d, hands=[d["hands"][0], *d["hands"][:3]]), "bad_hands"),
        (lambda d: dict(d, hands=[d["hands"][0][:12], *d["hands"][1:]]), "bad_hands"),
        (lambda d: dict(d, hands="3C"), "bad_format"),
        (lambda d: dict(d, moves=[{"seat": "0", "pass": True}]), "bad_format"),
        (lambda d: dict(d, moves=[{"seat": 0}]), "bad_format"),
        (lambda d: dict(d, moves=[{"seat": 0, "pass": True, "play": ["3C"]}]), "bad_format"),
        (lambda d: dict(d, result={"winner": 0}), "bad_format"),
        (lambda d: dict(d, seed="XYZ"), "bad_format"),
        (lambda d: dict(d, commitment="ABC"), "bad_format"),
        (lambda d: dict(d, players=["Ana"]), "bad_format"),
        (lambda d: dict(d, leader=9), "bad_format"),
        (lambda d: dict(d, opening_card="3Z"), "invalid_card"),
    ],
)
def test_unreadable_records(mutate, code: str) -> None:  # type: ignore[no-untyped-def]
    data = mutate(record_dict(finished()))
    verdict = verify_record(data)
    assert not verdict.valid
    assert not verdict.readable
    assert verdict.code == code
    if isinstance(data, dict):
        with pytest.raises(RecordError) as info:
            Record.from_dict(data)
        assert info.value.code == code


def test_moves_may_carry_seq_from_one() -> None:
    data = record_dict(finished())
    data["moves"] = [dict(m, seq=i + 1) for i, m in enumerate(data["moves"])]
    assert verify_record(data).valid


def test_three_player_hands_checked_against_leftover_rule() -> None:
    data = record_dict(finished("philippine", 3))
    assert sorted(len(h) for h in data["hands"]) == [17, 17, 18]
    assert verify_record(data).valid
    wrong = dict(data, rules=dict(data["rules"], leftover="set-aside"))
    assert verify_record(wrong).code == "bad_hands"


def test_later_deal_leader_leads_freely() -> None:
    state = DealState.from_seed("philippine-online", SEED, 4, leader=2)
    play_randomly(state, random.Random(3))
    data = record_dict(state)
    assert data["leader"] == 2
    assert "opening_card" not in data
    assert verify_record(data).valid
    assert Record.from_dict(data).new_state().required_card is None


# ------------------------------------------------------------------------- the CLI
def test_verify_cli_lines_and_exit_code(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record_dict(finished())))
    bad_data = record_dict(finished())
    bad_data["moves"][3] = {"seat": bad_data["moves"][3]["seat"], "play": ["ZZ"]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_data))
    seed_bad = tmp_path / "seed.json"
    seed_bad.write_text(json.dumps(dict(record_dict(finished()), seed="00" * 32)))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    missing = tmp_path / "missing.json"
    unread = tmp_path / "unread.json"
    unread.write_text(json.dumps({"format": "other"}))

    out = io.StringIO()
    assert run([str(good)], as_json=False, out=out) == 0
    assert out.getvalue() == f"{good}: valid\n"

    out = io.StringIO()
    paths = [good, bad, seed_bad, garbage, missing, unread]
    assert run([str(p) for p in paths], as_json=False, out=out) == 1
    assert out.getvalue().splitlines() == [
        f"{good}: valid",
        f"{bad}: invalid at move 3: invalid_card",
        f"{seed_bad}: invalid: seed_mismatch",
        f"{garbage}: unreadable: bad_json",
        f"{missing}: unreadable: unreadable_file",
        f"{unread}: unreadable: bad_format",
    ]

    out = io.StringIO()
    assert run([str(good), str(bad)], as_json=True, out=out) == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines == [
        {"file": str(good), "valid": True, "move_index": None, "code": None},
        {"file": str(bad), "valid": False, "move_index": 3, "code": "invalid_card"},
    ]
