"""The Pusoy Dos rules engine: pure Python, no Django (see docs/engine.md).

>>> from pusoy.engine import DealState, Move, Rules
>>> state = DealState.new(Rules.from_spec("philippine"), ["3C 4D", "5C 6C", "7C 8C", "9C TC"])
>>> state.turn, state.required_card
(0, Card.parse('3C'))
>>> state.apply(Move.parse("3C"))
>>> state.turn, str(state.to_beat)
(1, '3C')
"""

from __future__ import annotations

from pusoy.engine.cards import CARDS, Card, format_cards, parse_cards
from pusoy.engine.errors import (
    EngineError,
    IllegalMoveError,
    InvalidMoveError,
    RecordError,
    RulesError,
)
from pusoy.engine.match import MatchStanding
from pusoy.engine.moves import Move, Play
from pusoy.engine.record import Record, Verification, record_from_state, verify_record
from pusoy.engine.rules import OPTION_NAMES, PRESETS, Rules
from pusoy.engine.shuffle import (
    commitment,
    deal_from_seed,
    face_up_card,
    new_seed,
    shuffle_deck,
)
from pusoy.engine.state import DealResult, DealState, PlayerView

__all__ = [
    "CARDS",
    "OPTION_NAMES",
    "PRESETS",
    "Card",
    "DealResult",
    "DealState",
    "EngineError",
    "IllegalMoveError",
    "InvalidMoveError",
    "MatchStanding",
    "Move",
    "Play",
    "PlayerView",
    "Record",
    "RecordError",
    "Rules",
    "RulesError",
    "Verification",
    "commitment",
    "deal_from_seed",
    "face_up_card",
    "format_cards",
    "new_seed",
    "parse_cards",
    "record_from_state",
    "shuffle_deck",
    "verify_record",
]
