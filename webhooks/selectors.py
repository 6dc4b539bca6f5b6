"""Reads of webhooks: a player's webhooks and the delivery log of one of them."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet

from pusoy_api.domain_errors import DomainError, ErrorCode

from .models import Webhook, WebhookDelivery


def webhooks_of(*, owner: Any) -> QuerySet[Webhook]:
    """The owner's webhooks, newest first."""
    return Webhook.objects.filter(owner=owner).order_by("-created_at", "-id")


def webhook_deliveries(*, webhook_id: uuid.UUID, owner: Any) -> QuerySet[WebhookDelivery]:
    """One attempt a row, newest first. Another player's webhook is not found (its
    existence is not revealed)."""
    if not Webhook.objects.filter(pk=webhook_id, owner=owner).exists():
        raise DomainError(ErrorCode.NOT_FOUND, "No such webhook.")
    return WebhookDelivery.objects.filter(webhook_id=webhook_id).order_by("-id")
