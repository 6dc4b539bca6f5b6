"""Every write on games, one module per domain: the lobby (create, join, rematch),
invitations, exits (leave, cancel, resign, abandon), moves, deals (dealing, scoring, the
match's end) and the turns the server plays (AI, deadlines, the sweep).

Each public function is one transaction: it locks the game's row, checks, changes, and
leaves its side effects (waking long-pollers, queueing an AI turn) to the commit
(`side_effects`). Refusals raise `pusoy_api.domain_errors.DomainError`.
"""

from games.services.exits import game_cancel, game_leave, game_resign
from games.services.invitations import invitation_accept, invitation_create, invitation_decline
from games.services.lobby import Rematch, SeatSpec, game_create, game_join, game_rematch
from games.services.moves import MoveOutcome, move_submit, move_submit_for_seat
from games.services.turns import (
    ai_turn_play,
    deadline_warnings_send,
    timeout_turn_play,
    turns_sweep,
)

__all__ = [
    "MoveOutcome",
    "Rematch",
    "SeatSpec",
    "ai_turn_play",
    "deadline_warnings_send",
    "game_cancel",
    "game_create",
    "game_join",
    "game_leave",
    "game_rematch",
    "game_resign",
    "invitation_accept",
    "invitation_create",
    "invitation_decline",
    "move_submit",
    "move_submit_for_seat",
    "timeout_turn_play",
    "turns_sweep",
]
