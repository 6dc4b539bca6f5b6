"""Reads on players: profiles and the leaderboard."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from .models import Player


def leaderboard() -> QuerySet[Player]:
    """Players who have finished a game, best first: games won, then deals won, then points."""
    return Player.objects.filter(is_active=True, games_played__gt=0).order_by(
        "-games_won", "-deals_won", "-points", "username"
    )


def player_get(*, player_id: uuid.UUID | str) -> Player | None:
    return Player.objects.filter(pk=player_id, is_active=True).first()


def username_taken(*, username_canonical: str) -> bool:
    return Player.objects.filter(username_canonical=username_canonical).exists()
