"""Push notifications: the devices players register, their preferences, and the outbox of
pushes to send. Events arrive as payloads (notifications.types.EventPayload): this app
never reads the feed's or the games' tables."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class Platform(models.TextChoices):
    APNS = "apns", "Apple Push Notification service"
    FCM = "fcm", "Firebase Cloud Messaging"
    WEBPUSH = "webpush", "Web Push (browsers)"


class Locale(models.TextChoices):
    EN = "en", "English"
    FIL = "fil", "Filipino"


class Device(models.Model):
    """Where a player's pushes go. Registered with a bearer token and deleted with it:
    logging out, revoking the session or deleting the account (every token goes) removes
    the device, so a phone that changed hands gets nothing more of its last owner's."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    auth_token = models.ForeignKey(
        settings.KNOX_TOKEN_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    platform = models.CharField(max_length=8, choices=Platform.choices)
    # The APNs device token or FCM registration token; for Web Push, the endpoint URL.
    # One handle belongs to one device of one player at a time.
    handle = models.CharField(max_length=1024)
    # Web Push only: the subscription's keys (base64url), which encrypt every message.
    p256dh = models.CharField(max_length=128, blank=True, default="")
    auth = models.CharField(max_length=64, blank=True, default="")
    locale = models.CharField(max_length=8, choices=Locale.choices, default=Locale.EN)
    created_at = models.DateTimeField(default=timezone.now)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["platform", "handle"], name="push_device_handle")
        ]
        indexes = [models.Index(fields=["player", "-created_at"], name="push_device_player")]

    def __str__(self) -> str:
        return f"{self.platform} device {self.pk} of {self.player_id}"


class Preferences(models.Model):
    """What a player wants pushed. No row: everything pushable, no game muted."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="push_preferences",
    )
    # The pushed event kinds (push.content.PUSHED_KINDS) the player turned off.
    kinds_off = models.JSONField(default=list)
    # Game ids (strings) the player muted: nothing of those games is pushed.
    muted_games = models.JSONField(default=list)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"push preferences of {self.player_id}"


class OutboxState(models.TextChoices):
    PENDING = "pending"
    SENT = "sent"
    # The provider said the token is gone (its device is deleted with it; kept for no row).
    GONE = "gone"
    # A newer push of the same game to the same device was made first: this one is not sent.
    SUPERSEDED = "superseded"
    # Refused for good (a malformed request, credentials), retries ran out, or the
    # platform has no credentials any more.
    FAILED = "failed"


class Outbox(models.Model):
    """One push to one device, written in the transaction of the event it reports."""

    id = models.BigAutoField(primary_key=True)
    device = models.ForeignKey(Device, on_delete=models.CASCADE, related_name="outbox")
    event_id = models.BigIntegerField()
    kind = models.CharField(max_length=32)
    game_id = models.CharField(max_length=36)
    # Rendered at publish time in the device's language (push.content): names and ids
    # only, never a card.
    title = models.CharField(max_length=120)
    body = models.CharField(max_length=240)
    state = models.CharField(
        max_length=10, choices=OutboxState.choices, default=OutboxState.PENDING
    )
    # Attempts started; a send task carries the number of the one it makes, so a
    # duplicated or late task finds it taken and does nothing.
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    queued = models.BooleanField(default=False)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_reason = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="push_outbox_due",
                condition=models.Q(state="pending"),
            ),
            models.Index(fields=["device", "game_id", "-id"], name="push_outbox_device_game"),
            models.Index(fields=["created_at"], name="push_outbox_created"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.event_id} to {self.device_id} ({self.state})"
