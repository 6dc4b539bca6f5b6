"""Players: the custom user model, with the running stats the leaderboard reads, and
the sessions (one per bearer token) a player can list and revoke."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from .usernames import username_canonical


class PlayerManager(UserManager["Player"]):
    """Finds a player by any spelling of their name that is the same name (`EVEX` is
    `evex`): log-in, `createsuperuser` and fixtures all look players up through here."""

    def get_by_natural_key(self, username: str | None) -> Player:
        return self.get(username_canonical=username_canonical(username or ""))

    async def aget_by_natural_key(self, username: str | None) -> Player:
        return await self.aget(username_canonical=username_canonical(username or ""))


class Player(AbstractUser):
    """A person who plays. Public id is a UUID so ids reveal nothing about sign-up order."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # Derived from `username` on every save, so no way of creating a player (sign-up,
    # admin, createsuperuser, fixtures) can skip it; unique in the database, so two
    # spellings of one name can never both be stored. Case-folding at most doubles a
    # name's length (`ῼ` folds to `ωι`).
    username_canonical = models.CharField(max_length=300, editable=False)
    games_played = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    deals_played = models.PositiveIntegerField(default=0)
    deals_won = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0, help_text="Sum of deal points over all games.")
    # A guest plays at once with a generated name and no usable password; claiming the
    # account (a name and a password) makes it a full one, keeping everything else.
    is_guest = models.BooleanField(default=False)
    # Set when the account was deleted: the row stays (finished games' seats and moves
    # point at it) under a tombstone name, inactive and stripped of personal data.
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects: ClassVar[PlayerManager] = PlayerManager()

    class Meta:
        ordering = ["username"]
        indexes = [models.Index(fields=["-games_won", "-deals_won"], name="player_leaderboard")]
        constraints = [
            models.UniqueConstraint(
                fields=["username_canonical"], name="player_username_canonical_unique"
            )
        ]

    def __str__(self) -> str:
        return self.username

    def clean(self) -> None:
        # Forms (the admin's) validate before saving; without this a name that only
        # case-folding makes a twin (`STRASSE` of `straße`) would pass Django's own
        # case-insensitive check and fail on the constraint as a 500.
        super().clean()
        twins = Player.objects.filter(username_canonical=username_canonical(self.username))
        if twins.exclude(pk=self.pk).exists():
            raise ValidationError({"username": "A player with that name already exists."})

    def save(self, *args, **kwargs) -> None:
        self.username_canonical = username_canonical(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_canonical"}
        super().save(*args, **kwargs)


class Session(models.Model):
    """What a player sees of one bearer token: when it was issued and last used, and by
    which device. Never the token itself (knox keeps only its hash); deleted with it."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    token = models.OneToOneField(
        settings.KNOX_TOKEN_MODEL, on_delete=models.CASCADE, related_name="session"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sessions")
    # The User-Agent that took the token, cut to this length: enough to tell devices apart.
    device = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    # Moved forward at most once a minute (players/authentication.py), with the token's
    # idle expiry, so a read is not a write.
    last_used_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-last_used_at", "-created_at"]
        indexes = [models.Index(fields=["player", "-last_used_at"], name="session_player_recent")]

    def __str__(self) -> str:
        return f"session {self.pk} of {self.player_id}"
