"""The event vocabulary shared by the feed, its stream and webhooks: one definition."""

from __future__ import annotations

from typing import Any, TypedDict

from django.db import models


class EventType(models.TextChoices):
    GAME_STARTED = "game_started"
    YOUR_TURN = "your_turn"
    MOVE = "move"
    DEAL_FINISHED = "deal_finished"
    GAME_FINISHED = "game_finished"
    INVITED = "invited"
    INVITATION_ANSWERED = "invitation_answered"
    DEADLINE_SOON = "deadline_soon"
    RESIGNED = "resigned"
    ABANDONED = "abandoned"


class EventPayload(TypedDict):
    """One event as a player's feed shows it and as a webhook receives it.

    `player` is the recipient (the player's id, a UUID string): a player's own feed always
    shows their id, and an app-wide webhook needs it to know whose device to notify."""

    id: int
    type: str
    game: str
    created_at: str
    data: dict[str, Any]
    player: str  # the recipient's id (players have UUIDs)
