"""Every write of webhooks: subscribing, changing, unsubscribing, publishing events to the outbox,
making one delivery attempt, queueing what is due, and purging old log rows.

Publishing runs inside the transaction that created the events, so the outbox rows exist
exactly when the events do; the deliveries are queued after the commit and run on the
webhooks queue, never in the request.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
import uuid
from collections.abc import Sequence
from typing import Any

import httpx
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from notifications.types import EventPayload
from pusoy_api import metrics
from pusoy_api.absence import Absence
from pusoy_api.domain_errors import DomainError, ErrorCode

from . import addresses, queueing, schedule, signing, transport
from .models import MessageState, Webhook, WebhookDelivery, WebhookMessage, WebhookScope

logger = logging.getLogger(__name__)

# Players known to own no active webhook, and under ALL_SCOPES whether any active webhook
# takes every player's events: a write whose events go only to such players skips the read
# of webhooks (pusoy_api.absence; kept true by `webhook_saved`).
OWNERS = Absence("webhooks")
ALL_SCOPES = "*"

ERROR_MAX_LENGTH = 300


# --- Subscriptions --------------------------------------------------------------------


def webhook_create(
    *, owner: Any, url: str, events: Sequence[str], scope: str = WebhookScope.OWN
) -> Webhook:
    """A new webhook; its `secret` is readable on the returned object (and only there:
    no answer shows it again)."""
    if scope == WebhookScope.ALL and not owner.is_staff:
        raise DomainError(
            ErrorCode.WEBHOOK_SCOPE_FORBIDDEN,
            'Only staff may subscribe to every player\'s events (scope "all").',
        )
    _url_check(url)
    limit = settings.WEBHOOK_MAX_PER_PLAYER
    with transaction.atomic():
        # The owner's row serialises their creations, so two at once cannot both be the
        # last one allowed.
        get_user_model().objects.select_for_update().only("pk").get(pk=owner.pk)
        if Webhook.objects.filter(owner=owner).count() >= limit:
            raise DomainError(
                ErrorCode.WEBHOOK_LIMIT_REACHED,
                f"A player may have at most {limit} webhooks; delete one first.",
                details={"limit": limit},
            )
        return Webhook.objects.create(
            owner=owner,
            url=url,
            events=list(dict.fromkeys(events)),
            scope=scope,
            secret=signing.secret_new(),
        )


def webhook_update(
    *,
    webhook_id: uuid.UUID,
    owner: Any,
    active: bool | None = None,
    events: Sequence[str] | None = None,
) -> Webhook:
    """Change the owner's webhook: the event types it wants, and whether it is active.
    Turning a disabled webhook back on (once its receiver works again) keeps its URL and
    secret and starts its count of failed events afresh; the events published while it
    was off are not sent (the feed has them). Turning it off drops its pending
    deliveries, as being disabled does. Another player's webhook is not found."""
    if active:
        # Checked before the row is locked, since resolving the host may take a while
        # (a webhook's URL never changes; one deleted meanwhile is not found below).
        found = Webhook.objects.filter(pk=webhook_id, owner=owner, active=False)
        url = found.values_list("url", flat=True).first()
        if url is not None:
            _url_check(url)
    with transaction.atomic():
        hook = Webhook.objects.select_for_update().filter(pk=webhook_id, owner=owner).first()
        if hook is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such webhook.")
        fields: list[str] = []
        if events is not None:
            hook.events = list(dict.fromkeys(events))
            fields.append("events")
        if active and not hook.active:
            hook.active = True
            hook.disabled_at = None
            hook.disabled_reason = ""
            hook.failed_events_in_a_row = 0
            fields += ["active", "disabled_at", "disabled_reason", "failed_events_in_a_row"]
        elif active is False and hook.active:
            fields += _disable(hook, "turned off by its owner")
        if fields:
            hook.save(update_fields=fields)
    return hook


def _url_check(url: str) -> None:
    """Refuse a URL the server does not send to (422 ``webhook_url_refused``)."""
    reason = addresses.url_refusal(url)
    if reason is not None:
        raise DomainError(
            ErrorCode.WEBHOOK_URL_REFUSED,
            "The server does not send webhooks to this address.",
            details={"reason": reason},
        )


def webhook_delete(*, webhook_id: uuid.UUID, owner: Any) -> None:
    """Delete the owner's webhook with its outbox and log. Another player's is not found."""
    deleted, _ = Webhook.objects.filter(pk=webhook_id, owner=owner).delete()
    if not deleted:
        raise DomainError(ErrorCode.NOT_FOUND, "No such webhook.")


def webhooks_delete_owned(*, owner: Any) -> int:
    """Every webhook of an account being deleted goes, with its outbox and log."""
    deleted, _ = Webhook.objects.filter(owner=owner).delete()
    return deleted


# --- Publishing -----------------------------------------------------------------------


def webhook_events_publish(*, events: Sequence[EventPayload]) -> None:
    """Put each event in the outbox of every active webhook that wants it, and queue the
    deliveries for after the commit. Call it inside the transaction that created the
    events. Two queries whatever the number of events: one read of the webhooks that
    may match, one insert."""
    if not events:
        return
    recipients = {r for event in events if (r := _recipient(event)) is not None}
    known = OWNERS.lookup([ALL_SCOPES, *sorted(recipients)])
    unknown = recipients - known.none
    scope_all_unknown = ALL_SCOPES not in known.none
    if not unknown and not scope_all_unknown:
        return
    wanted = Q(owner_id__in=unknown)
    if scope_all_unknown:
        wanted |= Q(scope=WebhookScope.ALL)
    hooks = list(
        Webhook.objects.filter(active=True).filter(wanted).only("id", "owner_id", "scope", "events")
    )
    owning = {str(hook.owner_id) for hook in hooks}
    none = [owner for owner in unknown if owner not in owning]
    if scope_all_unknown and all(hook.scope != WebhookScope.ALL for hook in hooks):
        none.append(ALL_SCOPES)
    OWNERS.recorded(known, none)
    if not hooks:
        return
    now = timezone.now()
    messages = []
    for event in events:
        recipient = _recipient(event)
        body: bytes | None = None
        for hook in hooks:
            if event["type"] not in hook.events:
                continue
            if hook.scope != WebhookScope.ALL and str(hook.owner_id) != recipient:
                continue
            body = body if body is not None else signing.body_bytes(event)
            messages.append(
                WebhookMessage(
                    webhook_id=hook.id,
                    event_id=event["id"],
                    event_type=event["type"],
                    body=body,
                    queued=True,
                    next_attempt_at=now,
                    created_at=now,
                )
            )
    if not messages:
        return
    created = WebhookMessage.objects.bulk_create(messages)
    queueing.queue_deliveries_on_commit((message.pk, 1) for message in created)


def webhook_saved(sender: Any, instance: Webhook, **kwargs: Any) -> None:
    """Any saved webhook (the API, the admin) may be a new or reactivated one: its owner,
    and for one of every player's events everyone, are no longer known to have none."""
    OWNERS.changed(str(instance.owner_id))
    if instance.scope == WebhookScope.ALL:
        OWNERS.changed(ALL_SCOPES)


def _recipient(event: EventPayload) -> str | None:
    """The recipient's id as the owner ids read (players' ids are UUIDs); None for one
    that is not a player's id, which only `all` webhooks then match."""
    try:
        return str(uuid.UUID(str(event["player"])))
    except ValueError:
        return None


# --- Delivering -----------------------------------------------------------------------


def lease() -> dt.timedelta:
    """How long an attempt holds its message: the HTTP timeouts and a margin. A worker that
    dies mid-attempt leaves the message to the sweep once this has passed."""
    return dt.timedelta(
        seconds=settings.WEBHOOK_CONNECT_TIMEOUT + settings.WEBHOOK_READ_TIMEOUT + 30
    )


def _post(hook: Webhook, message: WebhookMessage) -> tuple[int | None, str]:
    """Send the message once: (status code, error), an error when nothing was answered.
    The host's addresses are checked as the connection is opened (webhooks.transport)."""
    body = bytes(message.body)
    headers = signing.headers(secret=hook.secret, body=body, event_id=message.event_id)
    client = transport.http_client()
    try:
        # Streamed and closed unread: the receiver's answer body is not wanted, and a
        # large one must not be downloaded.
        with client.stream("POST", hook.url, content=body, headers=headers) as response:
            return response.status_code, ""
    except addresses.AddressRefused as refused:
        return None, f"refused: {refused.reason}"
    except httpx.TimeoutException as exc:
        return None, f"timeout: {type(exc).__name__}"
    except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError, ValueError, OSError) as exc:
        return None, f"{type(exc).__name__}: {exc}"[:ERROR_MAX_LENGTH]


# What an attempt's result counts as in the deliveries metric.
_OBSERVED = {"delivered": "delivered", "retrying": "failed", "failed": "gave_up"}


def message_deliver(*, message_id: int, attempt: int) -> str:
    """`_message_deliver`, observed: the attempt's outcome and time in the metrics."""
    started = time.monotonic()
    outcome = _message_deliver(message_id=message_id, attempt=attempt)
    if outcome in _OBSERVED:
        metrics.webhook_delivery_observed(_OBSERVED[outcome], time.monotonic() - started)
    return outcome


def _message_deliver(*, message_id: int, attempt: int) -> str:
    """Make attempt `attempt` of a message: claim it, send it, log the attempt, then mark it
    delivered, schedule the next attempt, or give up (which may disable the webhook).
    Returns what happened: skipped, delivered, retrying or failed."""
    now = timezone.now()
    claimed = WebhookMessage.objects.filter(
        pk=message_id,
        state=MessageState.PENDING,
        attempts=attempt - 1,
        webhook__active=True,
    ).update(attempts=attempt, queued=False, next_attempt_at=now + lease())
    if not claimed:
        return "skipped"
    message = WebhookMessage.objects.select_related("webhook").get(pk=message_id)
    hook = message.webhook
    started = time.monotonic()
    status_code, error = _post(hook, message)
    duration_ms = int((time.monotonic() - started) * 1000)
    failed_at = timezone.now()
    success = status_code is not None and 200 <= status_code < 300
    with transaction.atomic():
        WebhookDelivery.objects.create(
            webhook=hook,
            message=message,
            event_id=message.event_id,
            attempt=attempt,
            status_code=status_code,
            error=error[:ERROR_MAX_LENGTH],
            duration_ms=duration_ms,
            created_at=failed_at,
        )
        if success:
            WebhookMessage.objects.filter(pk=message_id).update(
                state=MessageState.DELIVERED, next_attempt_at=None
            )
            Webhook.objects.filter(pk=hook.pk, failed_events_in_a_row__gt=0).update(
                failed_events_in_a_row=0
            )
            return "delivered"
        if not schedule.gives_up(published_at=message.created_at, failed_at=failed_at):
            delay = schedule.retry_delay(attempt)
            # A short wait is a countdown on the broker; a long one is left to the sweep.
            by_countdown = delay <= queueing.countdown_max()
            WebhookMessage.objects.filter(pk=message_id).update(
                queued=by_countdown, next_attempt_at=failed_at + dt.timedelta(seconds=delay)
            )
            if by_countdown:
                transaction.on_commit(
                    lambda: queueing.queue_delivery(message_id, attempt + 1, delay=delay)
                )
            return "retrying"
        WebhookMessage.objects.filter(pk=message_id).update(
            state=MessageState.FAILED, next_attempt_at=None
        )
        _failed_event_count(hook.pk, last=f"HTTP {status_code}" if status_code else error)
        return "failed"


def _failed_event_count(webhook_id: uuid.UUID, *, last: str) -> None:
    """One more event in a row ran out of retries; enough of them disable the webhook."""
    hook = Webhook.objects.select_for_update().get(pk=webhook_id)
    hook.failed_events_in_a_row += 1
    fields = ["failed_events_in_a_row"]
    threshold = settings.WEBHOOK_DISABLE_AFTER_FAILED_EVENTS
    if hook.active and hook.failed_events_in_a_row >= threshold:
        fields += _disable(
            hook,
            f"{hook.failed_events_in_a_row} events in a row could not be delivered (last: {last})",
        )
    hook.save(update_fields=fields)


def _disable(hook: Webhook, reason: str) -> list[str]:
    """Mark the (locked) webhook inactive and drop its pending deliveries; the fields to
    save."""
    hook.active = False
    hook.disabled_at = timezone.now()
    hook.disabled_reason = reason[:300]
    WebhookMessage.objects.filter(webhook_id=hook.pk, state=MessageState.PENDING).update(
        state=MessageState.DROPPED, next_attempt_at=None
    )
    logger.warning("webhook %s disabled: %s", hook.pk, hook.disabled_reason)
    return ["active", "disabled_at", "disabled_reason"]


SWEEP_BATCH = 500
# A message due this long without being claimed lost its task (a broker that was down at
# the commit, a killed worker): the sweep queues it again.
SWEEP_GRACE = dt.timedelta(seconds=30)


def messages_due_queue(*, now: dt.datetime | None = None) -> int:
    """Queue the next attempt of every pending message that is due and has no task on the
    way: retries longer than a countdown, attempts whose worker died (their lease ran
    out), and tasks lost by a broker (queued but not claimed a grace after they were due).
    How many were queued."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            WebhookMessage.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(state=MessageState.PENDING, webhook__active=True)
            .filter(
                Q(queued=False, next_attempt_at__lte=now)
                | Q(next_attempt_at__lte=now - SWEEP_GRACE)
            )
            .order_by("next_attempt_at")
            .values_list("pk", "attempts")[:SWEEP_BATCH]
        )
        WebhookMessage.objects.filter(pk__in=[pk for pk, _ in due]).update(
            queued=True, next_attempt_at=now
        )
        queueing.queue_deliveries_on_commit((pk, attempts + 1) for pk, attempts in due)
    return len(due)


def deliveries_purge(*, now: dt.datetime | None = None) -> int:
    """Delete delivery log rows, and finished outbox rows, older than the retention."""
    cutoff = (now or timezone.now()) - dt.timedelta(days=settings.WEBHOOK_LOG_RETENTION_DAYS)
    deleted, _ = WebhookDelivery.objects.filter(created_at__lt=cutoff).delete()
    finished, _ = (
        WebhookMessage.objects.filter(created_at__lt=cutoff)
        .exclude(state=MessageState.PENDING)
        .delete()
    )
    return deleted + finished
