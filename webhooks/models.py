"""Webhooks: a player's subscriptions, the outbox of events to send them, and one log row
per delivery attempt. Events arrive as payloads (notifications.types.EventPayload): this
app keeps the exact bytes it sends and never reads the feed's own tables."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class WebhookScope(models.TextChoices):
    OWN = "own", "the owner's own events"
    ALL = "all", "every player's events (staff only)"


class Webhook(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=2000)
    # A list of EventType values: a JSON list works on every database the tests use.
    events = models.JSONField()
    scope = models.CharField(max_length=8, choices=WebhookScope.choices, default=WebhookScope.OWN)
    # Kept as is, not hashed: every delivery is signed with it (HMAC needs the key itself).
    secret = models.CharField(max_length=64)
    active = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=300, blank=True, default="")
    disabled_at = models.DateTimeField(null=True, blank=True)
    # Events in a row whose deliveries ran out of retries; any success sets it back to 0.
    failed_events_in_a_row = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="webhook_owner_recent"),
            models.Index(
                fields=["scope"],
                name="webhook_scope_all_active",
                condition=models.Q(scope="all", active=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.url} ({self.owner_id})"


class MessageState(models.TextChoices):
    PENDING = "pending"
    DELIVERED = "delivered"
    # Retries ran out.
    FAILED = "failed"
    # The webhook was disabled before it could be delivered.
    DROPPED = "dropped"


class WebhookMessage(models.Model):
    """The outbox: one event to send to one webhook, with the exact body every attempt sends."""

    id = models.BigAutoField(primary_key=True)
    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="messages")
    event_id = models.BigIntegerField()
    event_type = models.CharField(max_length=40)
    body = models.BinaryField()
    state = models.CharField(
        max_length=10, choices=MessageState.choices, default=MessageState.PENDING
    )
    # Attempts started so far; a delivery task carries the number of the one it makes,
    # so a duplicated or late task finds it taken and does nothing.
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # A task for the next attempt is on its way (queued at the commit, or a countdown);
    # the sweep (services.messages_due_queue) queues the others when they are due.
    queued = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="webhook_message_due",
                condition=models.Q(state="pending"),
            ),
            models.Index(fields=["created_at"], name="webhook_message_created"),
        ]

    def __str__(self) -> str:
        return f"event {self.event_id} to {self.webhook_id} ({self.state})"


class WebhookDelivery(models.Model):
    """One attempt to deliver one message: what the receiver answered, or what went wrong."""

    id = models.BigAutoField(primary_key=True)
    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    message = models.ForeignKey(WebhookMessage, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.BigIntegerField()
    attempt = models.PositiveIntegerField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")
    duration_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["webhook", "-id"], name="webhook_delivery_recent"),
            models.Index(fields=["created_at"], name="webhook_delivery_created"),
        ]

    def __str__(self) -> str:
        return f"event {self.event_id} attempt {self.attempt}: {self.status_code or self.error}"
