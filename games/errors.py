"""Engine errors as API refusals: the engine's stable code, an HTTP status that fits it."""

from __future__ import annotations

from games.engine import EngineError
from pusoy_api.errors import ApiError

# Input the schema refuses is 400; a well-formed request the rules refuse is 422 (two
# spellings of one card, "TD" and "10d", fit the schema and are still a duplicate); a move
# that collides with the game's state (turn, sequence, lifecycle) is 409.
STATUS_BY_CODE: dict[str, int] = {
    "invalid_card": 400,
    "duplicate_cards": 422,
    "invalid_rules": 400,
    "not_a_combination": 422,
    "cards_not_in_hand": 422,
    "must_include_opening_card": 422,
    "wrong_size": 422,
    "does_not_beat": 422,
    "cannot_pass_on_lead": 422,
    "not_your_turn": 409,
    "game_not_active": 409,
}


def api_error_from_engine(exc: EngineError) -> ApiError:
    return ApiError(
        exc.code, exc.message, status_code=STATUS_BY_CODE.get(exc.code, 400), details=exc.details
    )
