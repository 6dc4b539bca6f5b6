"""Typed errors of the rules engine, each carrying a stable snake_case code (docs/api.md)."""

from __future__ import annotations

from typing import Any


class EngineError(ValueError):
    """Base class: ``code`` is stable and machine-readable, ``message`` is for humans.

    Messages and details never name cards of another player's hand.
    """

    default_code = "engine_error"

    def __init__(
        self, code: str | None = None, message: str = "", details: dict[str, Any] | None = None
    ) -> None:
        self.code: str = code or self.default_code
        self.message: str = message or self.code.replace("_", " ")
        self.details: dict[str, Any] = dict(details or {})
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, {self.details!r})"

    def to_dict(self) -> dict[str, Any]:
        """The error body of the HTTP contract: ``{"code", "message", "details"}``."""
        return {"code": self.code, "message": self.message, "details": self.details}


class InvalidMoveError(EngineError):
    """A malformed move: ``invalid_card``, ``duplicate_cards``, ``not_a_combination``, ..."""

    default_code = "invalid_move"


class IllegalMoveError(EngineError):
    """A well-formed move that is not allowed now (``not_your_turn``, ``does_not_beat``, ...)."""

    default_code = "illegal_move"


class RulesError(EngineError):
    """An unknown preset, option or option value; ``details["option"]`` names it."""

    default_code = "invalid_rules"


class RecordError(EngineError):
    """A game record that cannot be read (``bad_format``, ``invalid_rules``, ``bad_hands``...)."""

    default_code = "bad_format"
