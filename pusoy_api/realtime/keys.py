"""The names of what a client can wait on: `<kind>:<id>`. One place, so the sender
(`notify`) and the waiters (`longpoll`) of every app spell them alike."""

from __future__ import annotations

from typing import Any


def game_key(game_id: Any) -> str:
    """A game's moves and seats (every write on the game)."""
    return f"game:{game_id}"


def player_key(player_id: Any) -> str:
    """A player's event feed (`notifications`)."""
    return f"player:{player_id}"
