"""The per-player event feed: one row per event per recipient, and the short-lived
tickets a browser's EventSource presents instead of a token (a token never goes in a URL)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from notifications.types import EventPayload, EventType


class Event(models.Model):
    """Something that happened in a game, as one player's feed shows it. Ids increase in
    commit-independent insert order; a feed is read by `id > since`, so a row is written
    in the same transaction as the change it reports and exists iff that change does."""

    id = models.BigAutoField(primary_key=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="events"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="events")
    type = models.CharField(max_length=32, choices=EventType)
    # Public facts only (a move's cards are the cards played, never a hand).
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["player", "id"], name="event_player_id")]

    def __str__(self) -> str:
        return f"{self.type} #{self.pk} for player {self.player_id}"

    def payload(self) -> EventPayload:
        """The event as the feed, its stream and webhooks render it."""
        return {
            "id": self.pk,
            "type": self.type,
            "game": str(self.game_id),
            "created_at": self.created_at.isoformat().replace("+00:00", "Z"),
            "data": self.data,
            "player": str(self.player_id),
        }


class StreamTicket(models.Model):
    """A single-use credential for `GET events/stream?ticket=`: issued to a logged-in
    player by `POST events/ticket`, valid for STREAM_TICKET_SECONDS. Only its hash is
    stored; it is spent by the first connection that presents it. It stands in for the
    token that took it, so it is deleted with that token (logout) and is no good once
    the token has expired."""

    digest = models.CharField(max_length=64, primary_key=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stream_tickets"
    )
    token = models.ForeignKey(
        settings.KNOX_TOKEN_MODEL, on_delete=models.CASCADE, related_name="stream_tickets"
    )
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"stream ticket of player {self.player_id}"
