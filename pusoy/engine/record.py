"""Game records (``pusoy-dos-record/1``, one deal, JSON): read, write, verify.

The record is the source of truth: verification rebuilds the deal from the hands and
replays every move through the same engine the service uses.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pusoy.engine.cards import FULL_DECK_MASK, Card, cards_of
from pusoy.engine.errors import EngineError, RecordError
from pusoy.engine.moves import cards_to_mask
from pusoy.engine.rules import Rules
from pusoy.engine.shuffle import commitment as seed_commitment
from pusoy.engine.shuffle import deal_from_seed
from pusoy.engine.state import DealState, move_entry

FORMAT = "pusoy-dos-record/1"
_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class RecordMove:
    """One move as recorded: ``cards`` are the raw strings (checked when replayed)."""

    seat: int
    action: str  # "play" or "pass"
    cards: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        if self.action == "pass":
            return {"seat": self.seat, "pass": True}
        return {"seat": self.seat, "play": list(self.cards)}


@dataclass(frozen=True)
class Record:
    """One deal: rules, hands as dealt, moves, and optionally result, seed, commitment.

    ``leader``/``opening_card``: with ``opening_card`` (or neither field) this is a first
    deal, led by the holder of the card the first play must include; with only ``leader``
    it is a later deal of a match and that seat leads freely.
    """

    rules: Rules
    hands: tuple[tuple[Card, ...], ...]
    moves: tuple[RecordMove, ...] = ()
    players: tuple[str, ...] | None = None
    leader: int | None = None
    opening_card: Card | None = None
    result: dict[str, Any] | None = None
    seed: bytes | None = None
    commitment: str | None = None

    @classmethod
    def from_dict(cls, obj: object) -> Record:
        """Read a record; RecordError (``bad_format``, ``invalid_rules``, ``invalid_card``,
        ``bad_hands``) when it cannot be read."""
        if not isinstance(obj, Mapping):
            raise RecordError("bad_format", "a record is a JSON object")
        if obj.get("format") != FORMAT:
            raise _bad("format", f"format must be {FORMAT!r}")
        if obj.get("rules") is None:
            raise _bad("rules", "rules (a preset name or an object of options) is required")
        try:
            rules = Rules.from_spec(obj["rules"])
        except EngineError as error:
            raise RecordError("invalid_rules", error.message, error.details) from None
        hands = _read_hands(obj.get("hands"), rules)
        n = len(hands)
        players = obj.get("players")
        if players is not None and (
            not isinstance(players, list)
            or len(players) != n
            or not all(isinstance(p, str) for p in players)
        ):
            raise _bad("players", f"players must be a list of {n} names")
        leader = obj.get("leader")
        if leader is not None and (type(leader) is not int or not 0 <= leader < n):
            raise _bad("leader", f"leader must be a seat 0..{n - 1}")
        opening = obj.get("opening_card")
        if opening is not None:
            opening = _read_card(opening, "opening_card")
        moves = _read_moves(obj.get("moves", []))
        result = obj.get("result")
        if result is not None:
            _check_result_shape(result, n)
        seed = obj.get("seed")
        if seed is not None:
            if not isinstance(seed, str) or not _HEX64.fullmatch(seed):
                raise _bad("seed", "seed must be 32 bytes in lower-case hex")
            seed = bytes.fromhex(seed)
        commitment = obj.get("commitment")
        if commitment is not None and (
            not isinstance(commitment, str) or not _HEX64.fullmatch(commitment)
        ):
            raise _bad("commitment", "commitment must be a lower-case hex SHA-256")
        return cls(
            rules=rules,
            hands=hands,
            moves=moves,
            players=None if players is None else tuple(players),
            leader=leader,
            opening_card=opening,
            result=None if result is None else dict(result),
            seed=seed,
            commitment=commitment,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "rules": self.rules.to_dict()}
        if self.players is not None:
            out["players"] = list(self.players)
        out["hands"] = [[str(c) for c in hand] for hand in self.hands]
        if self.leader is not None:
            out["leader"] = self.leader
        if self.opening_card is not None:
            out["opening_card"] = str(self.opening_card)
        out["moves"] = [move.to_dict() for move in self.moves]
        if self.result is not None:
            out["result"] = dict(self.result)
        if self.seed is not None:
            out["seed"] = self.seed.hex()
        if self.commitment is not None:
            out["commitment"] = self.commitment
        return out

    def new_state(self) -> DealState:
        """The deal before its first move (a later deal when only ``leader`` is given)."""
        later_deal = self.leader is not None and self.opening_card is None
        dealt = 0
        for hand in self.hands:
            dealt |= cards_to_mask(hand)
        return DealState.new(
            self.rules,
            self.hands,
            leader=self.leader if later_deal else None,
            set_aside=cards_of(FULL_DECK_MASK & ~dealt),
        )


def _bad(field: str, message: str) -> RecordError:
    return RecordError("bad_format", message, {"field": field})


def _read_card(text: object, field: str) -> Card:
    try:
        return Card.parse(text)
    except EngineError:
        raise RecordError(
            "invalid_card", f"{field}: not a card: {text!r}", {"field": field}
        ) from None


def _read_hands(raw: object, rules: Rules) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(raw, list) or not all(isinstance(h, list) for h in raw):
        raise _bad("hands", "hands must be a list of lists of cards")
    if not 2 <= len(raw) <= 4:
        raise RecordError("bad_hands", f"a deal has 2 to 4 hands, not {len(raw)}")
    hands = tuple(tuple(sorted(_read_card(c, "hands") for c in h)) for h in raw)
    seen: set[Card] = set()
    for hand in hands:
        for card in hand:
            if card in seen:
                raise RecordError("bad_hands", f"{card} is dealt twice", {"card": str(card)})
            seen.add(card)
    n = len(hands)
    sizes = sorted(len(h) for h in hands)
    if n == 4:
        expected = [13, 13, 13, 13]
    elif n == 3:
        expected = [17, 17, 17] if rules.leftover == "set-aside" else [17, 17, 18]
    else:
        expected = [rules.hand_size] * 2
    if sizes != expected:
        raise RecordError(
            "bad_hands",
            f"{n} players under these rules hold {expected} cards, not {sizes}",
            {"expected": expected},
        )
    if n == 3 and rules.leftover == "to-opening-holder":
        # The 52nd card goes to the opening card's holder (or, when it is the opening
        # card, to the holder of the lowest card, who then holds the opening card).
        receiver = next(h for h in hands if len(h) == 18)
        if rules.opening_card not in receiver:
            raise RecordError(
                "bad_hands", "the 18-card hand must hold the opening card", {"expected": 18}
            )
    return hands


def _read_moves(raw: object) -> tuple[RecordMove, ...]:
    if not isinstance(raw, list):
        raise _bad("moves", "moves must be a list")
    moves = []
    for index, entry in enumerate(raw):
        seat = entry.get("seat") if isinstance(entry, Mapping) else None
        if type(seat) is not int:
            raise RecordError(
                "bad_format", f"move {index}: needs an integer seat", {"move_index": index}
            )
        if "seq" in entry and entry["seq"] != index + 1:
            # moves carry seq from 1 with no gaps (docs/engine.md); seq is optional in a record
            raise RecordError(
                "bad_format", f"move {index}: seq must be {index + 1}", {"move_index": index}
            )
        if entry.get("pass") is True and "play" not in entry:
            moves.append(RecordMove(seat, "pass"))
        elif isinstance(entry.get("play"), list) and "pass" not in entry:
            moves.append(RecordMove(seat, "play", tuple(entry["play"])))
        else:
            raise RecordError(
                "bad_format",
                f'move {index}: needs "play": [cards] or "pass": true',
                {"move_index": index},
            )
    return tuple(moves)


def _is_int_list(value: object, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(type(v) is int for v in value)


def _check_result_shape(result: object, n: int) -> None:
    if not isinstance(result, Mapping) or type(result.get("winner")) is not int:
        raise _bad("result", "result needs an integer winner")
    if not _is_int_list(result.get("points"), n):
        raise _bad("result", f"result.points must list {n} integers")
    for field in ("places", "cards_left"):
        if field in result and not _is_int_list(result[field], n):
            raise _bad("result", f"result.{field} must list {n} integers")


def record_from_state(
    state: DealState,
    players: list[str] | tuple[str, ...] | None = None,
    seed: bytes | None = None,
    include_result: bool = True,
) -> Record:
    """The record of a deal (finished or not). With a seed, its commitment is included."""
    result = state.result.to_dict() if include_result and state.result is not None else None
    return Record(
        rules=state.rules,
        hands=state.initial_hands,
        moves=tuple(
            RecordMove(seat, move.action, tuple(str(c) for c in move.cards))
            for seat, move in state.history
        ),
        players=None if players is None else tuple(players),
        # A deal opened by the holder of the opening card names that card, not a leader:
        # in a record, `leader` means a free lead, which would not prove the card was played.
        leader=state.first_leader if state.opening_card is None else None,
        opening_card=state.opening_card,
        result=result,
        seed=seed,
        commitment=None if seed is None else seed_commitment(seed),
    )


@dataclass(frozen=True)
class Verification:
    """The verdict on a record. ``move_index`` is the 0-based index of the first bad
    move (``len(moves)`` for ``result_mismatch``; None for problems of the deal itself
    such as ``seed_mismatch``); ``readable`` is False when the record could not be read."""

    valid: bool
    move_index: int | None
    code: str | None
    message: str
    readable: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "move_index": self.move_index,
            "code": self.code,
            "message": self.message,
        }


def verify_record(obj: object) -> Verification:
    """Check a record: readable, the seed (if any) reproduces the hands and matches the
    commitment, every move is legal, and a recorded result equals the deal's outcome.

    A commitment without a seed cannot be checked against the hands (SHA-256 cannot be
    inverted); it is only checked for form, and the message says so.
    """
    try:
        record = Record.from_dict(obj)
    except RecordError as error:
        return Verification(False, None, error.code, error.message, readable=False)
    notes = []
    if record.seed is not None:
        if record.commitment is not None and not hmac.compare_digest(
            seed_commitment(record.seed), record.commitment
        ):
            return Verification(
                False, None, "seed_mismatch", "the commitment is not the SHA-256 of the seed"
            )
        hands, _ = deal_from_seed(record.seed, record.rules, len(record.hands))
        if hands != record.hands:
            return Verification(False, None, "seed_mismatch", "the seed does not deal these hands")
    elif record.commitment is not None:
        notes.append("commitment not checked against the hands: no seed")
    state = record.new_state()
    if record.opening_card is not None and record.opening_card != state.opening_card:
        return Verification(
            False,
            None,
            "opening_card_mismatch",
            f"the first play must include {state.opening_card}, not {record.opening_card}",
        )
    if record.leader is not None and record.leader != state.turn:
        return Verification(False, None, "leader_mismatch", f"seat {state.turn} leads this deal")
    for index, move in enumerate(record.moves):
        try:
            validated = state.validate(move.seat, move.action, list(move.cards))
            state.apply(validated, move.seat)
        except EngineError as error:
            return Verification(False, index, error.code, f"move {index}: {error.message}")
    if record.result is not None:
        actual = state.result
        mismatch = actual is None or any(
            record.result[k] != v for k, v in actual.to_dict().items() if k in record.result
        )
        if mismatch:
            return Verification(
                False,
                len(record.moves),
                "result_mismatch",
                "the deal is not over"
                if actual is None
                else f"the deal's result is {actual.to_dict()}",
            )
    status = "finished" if state.is_over else f"unfinished after {state.seq} moves"
    return Verification(True, None, None, "; ".join([f"valid ({status})", *notes]))


__all__ = [
    "FORMAT",
    "Record",
    "RecordMove",
    "Verification",
    "move_entry",
    "record_from_state",
    "verify_record",
]
