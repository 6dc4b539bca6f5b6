"""Reads on players: profiles, the leaderboard, a player's sessions."""

from __future__ import annotations

import uuid

from django.db.models import F, QuerySet

from .models import Player, Session


def leaderboard(*, order: str = "wins") -> QuerySet[Player]:
    """Players best first. `wins`: those who have finished a game, by games won, then deals
    won, then points. `rating`: those with a rated deal, by the rating's conservative
    estimate (mu - 3 sigma, the expression the rating table is indexed on)."""
    players = Player.objects.filter(is_active=True).select_related("rating")
    if order == "rating":
        return players.filter(rating__deals__gt=0).order_by(
            (F("rating__mu") - 3 * F("rating__sigma")).desc(),
            "username",
        )
    return players.filter(games_played__gt=0).order_by(
        "-games_won", "-deals_won", "-points", "username"
    )


def player_get(*, player_id: uuid.UUID | str) -> Player | None:
    return Player.objects.filter(pk=player_id, is_active=True).select_related("rating").first()


def username_taken(*, username_canonical: str) -> bool:
    return Player.objects.filter(username_canonical=username_canonical).exists()


def sessions_of(*, player: Player) -> QuerySet[Session]:
    """The player's sessions, most recently used first, with their tokens' expiry."""
    return Session.objects.filter(player=player).select_related("token")
