"""Players: the custom user model, with the running stats the leaderboard reads."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractUser
from django.db import models


class Player(AbstractUser):
    """A person who plays. Public id is a UUID so ids reveal nothing about sign-up order."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    games_played = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    deals_played = models.PositiveIntegerField(default=0)
    deals_won = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0, help_text="Sum of deal points over all games.")

    class Meta:
        ordering = ["username"]
        indexes = [models.Index(fields=["-games_won", "-deals_won"], name="player_leaderboard")]

    def __str__(self) -> str:
        return self.username
