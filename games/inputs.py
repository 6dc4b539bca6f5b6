"""Input fields of the game endpoints: each takes exactly what the schema it publishes
says, so a request the schema calls valid is read, and any other is refused with 400.

Cards and rules are judged by the engine's own definitions (the card pattern, the option
values), published in the schema from the same constants.
"""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.errors import domain_error
from games.models import AI_LEVEL_CHOICES
from games.serializers import SUIT_ORDERS
from pusoy.engine import PRESETS, Card, EngineError
from pusoy.engine.cards import CARD_INPUT_PATTERN
from pusoy.engine.rules import FLUSH_ORDERS, HAND_SIZES, LEFTOVERS, SCORINGS, STRAIGHT_SYSTEMS
from pusoy_api.domain_errors import DomainError, ErrorCode
from pusoy_api.fields import StrictIntegerField

MAX_SEQ = 2**31 - 1
MIN_SEATS, MAX_SEATS = 2, 4

# --- Cards ---------------------------------------------------------------------------------

CARD_INPUT_SCHEMA = {
    "type": "string",
    "pattern": CARD_INPUT_PATTERN,
    "description": 'A card: "3C", "TD", "10d", "2♦" (rank, then suit; any case).',
    "example": "3C",
}


@extend_schema_field(CARD_INPUT_SCHEMA)
class CardInputField(serializers.Field):
    """A card as a client may write it; anything else is `invalid_card` (400)."""

    def to_internal_value(self, data: Any) -> str:
        try:
            Card.parse(data)
        except EngineError as exc:
            raise domain_error(exc) from exc
        return data


# --- Rules ---------------------------------------------------------------------------------

RULE_OPTIONS_SCHEMA: dict[str, dict[str, Any]] = {
    "preset": {"type": "string", "enum": list(PRESETS)},
    "suit_order": {"type": "string", "enum": SUIT_ORDERS, "description": "Suits, low to high."},
    "opening_card": CARD_INPUT_SCHEMA,
    "straights": {"type": "string", "enum": list(STRAIGHT_SYSTEMS)},
    "flush_order": {"type": "string", "enum": list(FLUSH_ORDERS)},
    "scoring": {"type": "string", "enum": list(SCORINGS)},
    "play_out": {"type": "boolean"},
    "pass_locks_out": {"type": "boolean"},
    "leftover": {"type": "string", "enum": list(LEFTOVERS)},
    "hand_size": {"type": "integer", "enum": list(HAND_SIZES)},
    "triples": {"type": "boolean"},
}
_JSON_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "boolean": (bool,), "integer": (int,)}


def _fits(value: Any, schema: dict[str, Any]) -> bool:
    """Whether `value` matches one option's schema above (type, then enum or pattern)."""
    if not isinstance(value, _JSON_TYPES[schema["type"]]):
        return False
    if schema["type"] == "integer" and isinstance(value, bool):
        return False
    if "enum" in schema:
        return value in schema["enum"]
    if "pattern" in schema:
        return isinstance(value, str) and re.fullmatch(schema["pattern"], value) is not None
    return True


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": list(PRESETS), "description": "A preset by name."},
            {
                "type": "object",
                "description": "A preset (default `philippine`) with options overridden.",
                "properties": RULE_OPTIONS_SCHEMA,
                "additionalProperties": False,
            },
        ],
        "nullable": True,
        "description": "The rules: a preset name, or a preset with options overridden; null "
        "or absent means `philippine`. docs/rules.md explains every option. Anything else "
        "is `invalid_rules` (400), `details.option` naming the option.",
        "example": {"preset": "philippine", "flush_order": "suit-first"},
    }
)
class RulesSpecField(serializers.Field):
    """A rules spec exactly as the schema above allows; the engine then resolves it."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str):
            data = {"preset": data}
        if not isinstance(data, dict):
            raise DomainError(
                ErrorCode.INVALID_RULES, "rules must be a preset name or an object of options."
            )
        for option, value in data.items():
            schema = RULE_OPTIONS_SCHEMA.get(option)
            if schema is None:
                raise DomainError(
                    ErrorCode.INVALID_RULES,
                    f"Unknown rule option {option!r}.",
                    details={"option": option, "allowed": list(RULE_OPTIONS_SCHEMA)},
                )
            if not _fits(value, schema):
                raise DomainError(
                    ErrorCode.INVALID_RULES,
                    f"{option} cannot be {value!r}.",
                    details={"option": option, "value": value, **_allowed(schema)},
                )
        return data

    def to_representation(self, value: Any) -> Any:
        return value


def _allowed(schema: dict[str, Any]) -> dict[str, Any]:
    if "enum" in schema:
        return {"allowed": schema["enum"]}
    if "pattern" in schema:
        return {"pattern": schema["pattern"]}
    return {"type": schema["type"]}


# --- Seats ---------------------------------------------------------------------------------


class HumanSeatSerializer(serializers.Serializer):
    """A seat for a person: the creator, someone who joins."""

    type = serializers.ChoiceField(choices=["human"])


class AiSeatSerializer(serializers.Serializer):
    """A seat played by the server's AI at this level (weakest first)."""

    type = serializers.ChoiceField(choices=["ai"])
    level = serializers.ChoiceField(choices=AI_LEVEL_CHOICES)


class SeatSpecSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["human", "ai"])
    level = serializers.ChoiceField(choices=AI_LEVEL_CHOICES, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["type"] == "ai" and not attrs.get("level"):
            raise serializers.ValidationError({"level": "An AI seat needs a level."})
        return attrs


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="SeatSpec",
        serializers={"human": HumanSeatSerializer, "ai": AiSeatSerializer},
        resource_type_field_name="type",
    )
)
class SeatSpecField(serializers.Field):
    """A seat asked for at creation: a human seat, or an AI of a level."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        seat = SeatSpecSerializer(data=data)
        seat.is_valid(raise_exception=True)
        return seat.validated_data


class SeatListField(serializers.ListField):
    """2 to 4 seats. Anything wrong with the list's form is `invalid_seats` (400), the
    code the game service gives for the same rule, so it is one code however it is sent."""

    child = SeatSpecField()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=MIN_SEATS, max_length=MAX_SEATS, **kwargs)

    def run_validation(self, data: Any = serializers.empty) -> Any:
        try:
            return super().run_validation(data)
        except serializers.ValidationError as exc:
            raise DomainError(
                ErrorCode.INVALID_SEATS,
                "seats must list 2 to 4 seats, each human or an AI with a level.",
                details={"seats": exc.detail},
            ) from exc


# --- Moves ---------------------------------------------------------------------------------

EXPECTED_SEQ_HELP = "Refuse with 409 stale_seq unless this is the last move's seq."


class PlaySerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["play"])
    cards = serializers.ListField(
        child=CardInputField(), min_length=1, max_length=17, help_text="The cards to play."
    )
    expected_seq = StrictIntegerField(
        required=False, min_value=0, max_value=MAX_SEQ, help_text=EXPECTED_SEQ_HELP
    )


class PassSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["pass"])
    cards = serializers.ListField(
        child=CardInputField(), max_length=0, required=False, help_text="None: a pass."
    )
    expected_seq = StrictIntegerField(
        required=False, min_value=0, max_value=MAX_SEQ, help_text=EXPECTED_SEQ_HELP
    )


MOVE_REQUEST_SCHEMA = PolymorphicProxySerializer(
    component_name="MoveSubmit",
    serializers={"play": PlaySerializer, "pass": PassSerializer},
    resource_type_field_name="action",
)


class MoveInputSerializer(serializers.Serializer):
    """What MOVE_REQUEST_SCHEMA says: a play with 1 to 17 cards, or a pass with none."""

    action = serializers.ChoiceField(choices=["play", "pass"])
    cards = serializers.ListField(child=CardInputField(), max_length=17, required=False)
    expected_seq = StrictIntegerField(required=False, min_value=0, max_value=MAX_SEQ)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        cards = attrs.get("cards", [])
        if attrs["action"] == "play" and not cards:
            raise serializers.ValidationError({"cards": "A play needs cards."})
        if attrs["action"] == "pass" and cards:
            raise serializers.ValidationError({"cards": "A pass carries no cards."})
        return attrs
