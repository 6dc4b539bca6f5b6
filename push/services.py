"""Every write of push: registering and removing devices, changing preferences,
publishing events to the outbox (inside the transaction that made them), sending one
push, queueing what is due, and purging old rows.

The outbox rows exist exactly when their events do; the sends are queued after the
commit and run on the `push` queue, never in the request (pusoy_api.task_queue).
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import uuid
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from notifications.types import EventPayload
from pusoy_api import metrics, task_queue
from pusoy_api.absence import Absence
from pusoy_api.domain_errors import DomainError, ErrorCode

from . import content, selectors, timing
from .models import Device, Outbox, OutboxState, Platform, Preferences
from .providers import registry
from .providers.base import DeviceTarget, Outcome, PushMessage, SendResult

logger = logging.getLogger(__name__)

# APNs device tokens are hex (64 characters today; Apple says not to assume the length);
# FCM registration tokens are URL-safe text with a colon. Both are opaque: only their
# alphabet and a sane length are checked.
_APNS_TOKEN = re.compile(r"^[0-9a-fA-F]{32,200}$")
_FCM_TOKEN = re.compile(r"^[A-Za-z0-9_:\-\.]{20,1024}$")
_B64URL = re.compile(r"^[A-Za-z0-9_\-]+=*$")


def _invalid(message: str, field: str) -> DomainError:
    return DomainError(ErrorCode.INVALID_DEVICE, message, details={"field": field})


def _b64url_length(value: str) -> int:
    stripped = value.rstrip("=")
    return len(stripped) * 3 // 4


def _host_allowed(host: str) -> bool:
    for allowed in settings.PUSH_WEBPUSH_HOSTS:
        if (
            allowed == "*"
            or host == allowed
            or (allowed.startswith(".") and host.endswith(allowed))
        ):
            return True
    return False


def _webpush_check(endpoint: str, p256dh: str, auth: str) -> None:
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 (a port that is no number raises here, not later)
    except ValueError:
        raise _invalid("The Web Push endpoint is not a URL.", "endpoint") from None
    if parts.scheme not in ("https", "http") or not parts.hostname or len(endpoint) > 1024:
        raise _invalid(
            "A Web Push endpoint is an https URL of at most 1024 characters.", "endpoint"
        )
    allowed = _host_allowed(parts.hostname.lower())
    if not allowed or (parts.scheme != "https" and "*" not in settings.PUSH_WEBPUSH_HOSTS):
        raise DomainError(
            ErrorCode.PUSH_ENDPOINT_REFUSED,
            "The server sends Web Push only to the browsers' push services, over https.",
            details={"host": parts.hostname},
        )
    # P-256 public key, uncompressed: 65 bytes; the auth secret: 16 bytes (RFC 8291).
    if not _B64URL.match(p256dh) or _b64url_length(p256dh) != 65 or p256dh[:1] != "B":
        raise _invalid(
            "keys.p256dh is the subscription's P-256 key (65 bytes, base64url).", "p256dh"
        )
    if not _B64URL.match(auth) or _b64url_length(auth) != 16:
        raise _invalid("keys.auth is the subscription's 16-byte secret (base64url).", "auth")


# --- Devices ----------------------------------------------------------------------------


def device_register(
    *,
    player: Any,
    auth_token: Any,
    platform: str,
    token: str = "",
    endpoint: str = "",
    p256dh: str = "",
    auth: str = "",
    locale: str = "en",
) -> Device:
    """Register where the caller's pushes go, tied to the bearer token of the request
    (logging that token out removes the device). A handle (token or endpoint) another
    player holds moves to the caller: the phone or browser changed hands. Registering
    one the caller holds already updates it (its keys, locale and token)."""
    if platform == Platform.WEBPUSH:
        _webpush_check(endpoint, p256dh, auth)
        handle = endpoint
    else:
        pattern = _APNS_TOKEN if platform == Platform.APNS else _FCM_TOKEN
        if not pattern.match(token):
            raise _invalid(f"Not an {platform.upper()} token.", "token")
        handle = token
        p256dh = auth = ""
    if not registry.available(platform):
        raise DomainError(
            ErrorCode.PUSH_UNAVAILABLE,
            f"This server has no credentials for {platform} push.",
            details={"platform": platform, "available": registry.platforms()},
        )
    limit = settings.PUSH_MAX_DEVICES_PER_PLAYER
    fields = {
        "player": player,
        "auth_token": auth_token,
        "p256dh": p256dh,
        "auth": auth,
        "locale": locale,
    }
    for _ in range(2):
        try:
            with transaction.atomic():
                # The player's row serialises their registrations (the limit holds).
                get_user_model().objects.select_for_update().only("pk").get(pk=player.pk)
                existing = (
                    Device.objects.select_for_update()
                    .filter(platform=platform, handle=handle)
                    .first()
                )
                owned = existing is not None and existing.player_id == player.pk
                if not owned and Device.objects.filter(player=player).count() >= limit:
                    raise DomainError(
                        ErrorCode.DEVICE_LIMIT_REACHED,
                        f"A player may have at most {limit} push devices; delete one first.",
                        details={"limit": limit},
                    )
                if existing is None:
                    return Device.objects.create(platform=platform, handle=handle, **fields)
                if not owned:
                    # The handle's old owner gets nothing more on it: their pending pushes go.
                    existing.outbox.all().delete()
                for name, value in fields.items():
                    setattr(existing, name, value)
                existing.save()
                return existing
        except IntegrityError:
            # A concurrent registration of the same handle won: take it over once more.
            continue
    raise DomainError(ErrorCode.INVALID_DEVICE, "The device was registered concurrently.")


def device_delete(*, device_id: uuid.UUID, player: Any) -> None:
    deleted, _ = Device.objects.filter(pk=device_id, player=player).delete()
    if not deleted:
        raise DomainError(ErrorCode.NOT_FOUND, "No such device.")


# --- Preferences ------------------------------------------------------------------------


def preferences_update(
    *,
    player: Any,
    kinds: dict[str, bool] | None = None,
    mute_games: Sequence[uuid.UUID] = (),
    unmute_games: Sequence[uuid.UUID] = (),
) -> Preferences:
    """Turn kinds on or off and mute or unmute games; what is not named stays."""
    with transaction.atomic():
        prefs, _ = Preferences.objects.select_for_update().get_or_create(player=player)
        off = set(prefs.kinds_off)
        for kind, on in (kinds or {}).items():
            (off.discard if on else off.add)(kind)
        muted = dict.fromkeys(prefs.muted_games)
        for game in mute_games:
            muted[str(game)] = None
        for game in unmute_games:
            muted.pop(str(game), None)
        if len(muted) > selectors.MUTED_GAMES_MAX:
            raise DomainError(
                ErrorCode.INVALID_INPUT,
                f"At most {selectors.MUTED_GAMES_MAX} games can be muted.",
                details={"limit": selectors.MUTED_GAMES_MAX},
            )
        prefs.kinds_off = sorted(off)
        prefs.muted_games = list(muted)
        prefs.updated_at = timezone.now()
        prefs.save()
    return prefs


# --- Publishing -------------------------------------------------------------------------

# Players known to have no push device: their events skip the read of devices
# (pusoy_api.absence; kept true by `device_saved`).
OWNERS = Absence("push-devices")


def device_saved(sender: Any, instance: Device, **kwargs: Any) -> None:
    """A saved device (registered, taken over, changed): its player may have pushes."""
    OWNERS.changed(str(instance.player_id))


def push_events_publish(*, events: Sequence[EventPayload]) -> None:
    """Put each pushed event in the outbox of every device of its recipient who wants it,
    and queue the sends for after the commit. Call it inside the transaction that made
    the events. No query when no event is of a pushed kind; otherwise one read of the
    recipients' devices (with their preferences), and one insert when any wants it."""
    wanted = [event for event in events if event["type"] in content.PUSHED_KINDS]
    if not wanted:
        return
    known = OWNERS.lookup(sorted({event["player"] for event in wanted}))
    wanted = [event for event in wanted if event["player"] not in known.none]
    if not wanted:
        return
    recipients = {event["player"] for event in wanted}
    devices = list(
        Device.objects.filter(player_id__in=recipients)
        .select_related("player__push_preferences")
        .only(
            "id",
            "player_id",
            "platform",
            "locale",
            "player__push_preferences__kinds_off",
            "player__push_preferences__muted_games",
        )
    )
    OWNERS.recorded(known, recipients - {str(device.player_id) for device in devices})
    if not devices:
        return
    by_player: dict[str, list[Device]] = {}
    for device in devices:
        by_player.setdefault(str(device.player_id), []).append(device)
    now = timezone.now()
    rows = []
    for event in wanted:
        for device in by_player.get(event["player"], []):
            prefs = getattr(device.player, "push_preferences", None)
            if prefs is not None and (
                event["type"] in prefs.kinds_off or event["game"] in prefs.muted_games
            ):
                continue
            title, body = content.render(event, device.locale)
            rows.append(
                Outbox(
                    device_id=device.pk,
                    event_id=event["id"],
                    kind=event["type"],
                    game_id=event["game"],
                    title=title,
                    body=body,
                    queued=True,
                    next_attempt_at=now,
                    created_at=now,
                )
            )
    if not rows:
        return
    created = Outbox.objects.bulk_create(rows)
    _queue_on_commit([(row.pk, 1) for row in created])


# Pushes per send task: large enough that a broker message is not most of a push's cost,
# small enough that a commit's pushes to many devices spread over the worker processes.
BATCH = 20


def _queue_on_commit(pending: list[tuple[int, int]]) -> None:
    """Queue the sends once the transaction commits, as one broker message whatever
    their number (the committing request pays for one publish)."""
    if not pending:
        return
    if len(pending) == 1:
        task_queue.enqueue_on_commit("push.send", *pending[0])
    elif len(pending) <= BATCH:
        task_queue.enqueue_on_commit("push.send_many", pending)
    else:
        task_queue.enqueue_on_commit("push.fan_out", pending)


def queue_batches(pending: list[tuple[int, int]]) -> None:
    """Queue the sends in batches of BATCH, one task each."""
    for start in range(0, len(pending), BATCH):
        task_queue.enqueue("push.send_many", pending[start : start + BATCH])


# --- Sending ----------------------------------------------------------------------------


def lease() -> dt.timedelta:
    """How long an attempt holds its row: the provider's timeout and a margin. A worker
    that dies mid-attempt leaves the row to the sweep once this has passed."""
    return dt.timedelta(seconds=settings.PUSH_TIMEOUT * 2 + 30)


def message_for(row: Outbox) -> PushMessage:
    return PushMessage(
        title=row.title,
        body=row.body,
        data={"kind": row.kind, "game": row.game_id, "event": str(row.event_id)},
        collapse_id=content.collapse_id(row.game_id),
        ttl_seconds=settings.PUSH_TTL_SECONDS,
    )


def target_for(device: Device) -> DeviceTarget:
    if device.platform == Platform.WEBPUSH:
        return DeviceTarget(
            platform=device.platform, endpoint=device.handle, p256dh=device.p256dh, auth=device.auth
        )
    return DeviceTarget(platform=device.platform, token=device.handle)


def push_send(*, outbox_id: int, attempt: int) -> str:
    """Make attempt `attempt` of one push: claim it, skip it if a newer push of the same
    game to the same device exists (the device would show only that one), send it, and
    then mark it sent, delete a gone device, schedule a retry, or give up. Returns what
    happened: skipped, superseded, sent, gone, retrying, failed."""
    now = timezone.now()
    claimed = Outbox.objects.filter(
        pk=outbox_id, state=OutboxState.PENDING, attempts=attempt - 1
    ).update(attempts=attempt, queued=False, next_attempt_at=now + lease())
    if not claimed:
        return "skipped"
    row = Outbox.objects.select_related("device").filter(pk=outbox_id).first()
    if row is None:  # its device was deleted meanwhile
        return "skipped"
    device = row.device
    newer = Outbox.objects.filter(device_id=device.pk, game_id=row.game_id, pk__gt=row.pk)
    if newer.exclude(state=OutboxState.FAILED).exists():
        Outbox.objects.filter(pk=outbox_id).update(
            state=OutboxState.SUPERSEDED, next_attempt_at=None
        )
        return "superseded"
    provider = registry.provider(device.platform)
    if provider is None:
        result = SendResult(Outcome.FAILED, reason="platform unavailable")
    else:
        try:
            result = provider.send(target_for(device), message_for(row))
        except Exception as exc:  # a provider's bug must not loop a task forever
            logger.exception("%s provider raised on push %s", device.platform, outbox_id)
            result = SendResult(Outcome.FAILED, reason=f"{type(exc).__name__}"[:200])
    return _record(row, device, attempt, result)


def _record(row: Outbox, device: Device, attempt: int, result: SendResult) -> str:
    outcome = result.outcome
    metrics.push_sent(device.platform, outcome.value)
    fields: dict[str, Any] = {"last_status": result.status, "last_reason": result.reason[:200]}
    if outcome is Outcome.SENT:
        Outbox.objects.filter(pk=row.pk).update(
            state=OutboxState.SENT, next_attempt_at=None, **fields
        )
        Device.objects.filter(pk=device.pk).update(last_sent_at=timezone.now())
        return "sent"
    if outcome is Outcome.GONE:
        # The provider will never deliver to it again: the device and its outbox go now.
        deleted, _ = Device.objects.filter(pk=device.pk).delete()
        if deleted:
            metrics.push_token_removed(device.platform)
        logger.info(
            "push device %s removed: %s said gone (%s %s)",
            device.pk,
            device.platform,
            result.status,
            result.reason,
        )
        return "gone"
    if outcome is Outcome.RETRY and attempt < settings.PUSH_MAX_ATTEMPTS:
        delay = timing.retry_delay(attempt, retry_after=result.retry_after)
        by_countdown = delay <= task_queue.countdown_max()
        failed_at = timezone.now()
        Outbox.objects.filter(pk=row.pk).update(
            queued=by_countdown,
            next_attempt_at=failed_at + dt.timedelta(seconds=delay),
            **fields,
        )
        if by_countdown:
            task_queue.enqueue("push.send", row.pk, attempt + 1, delay=delay)
        return "retrying"
    Outbox.objects.filter(pk=row.pk).update(
        state=OutboxState.FAILED, next_attempt_at=None, **fields
    )
    logger.warning(
        "push %s to %s device %s failed for good: %s %s",
        row.pk,
        device.platform,
        device.pk,
        result.status,
        result.reason,
    )
    return "failed"


SWEEP_BATCH = 500
SWEEP_GRACE = dt.timedelta(seconds=30)


def outbox_due_queue(*, now: dt.datetime | None = None) -> int:
    """Queue the next attempt of every pending push that is due and has no task on the
    way (a retry longer than a countdown, a dead worker's lease, a lost task)."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Outbox.objects.select_for_update(skip_locked=True)
            .filter(state=OutboxState.PENDING)
            .filter(
                Q(queued=False, next_attempt_at__lte=now)
                | Q(next_attempt_at__lte=now - SWEEP_GRACE)
            )
            .order_by("next_attempt_at")
            .values_list("pk", "attempts")[:SWEEP_BATCH]
        )
        Outbox.objects.filter(pk__in=[pk for pk, _ in due]).update(queued=True, next_attempt_at=now)
        _queue_on_commit([(pk, attempts + 1) for pk, attempts in due])
    return len(due)


def outbox_purge(*, now: dt.datetime | None = None) -> int:
    """Delete finished outbox rows older than PUSH_RETENTION_DAYS."""
    cutoff = (now or timezone.now()) - dt.timedelta(days=settings.PUSH_RETENTION_DAYS)
    deleted, _ = (
        Outbox.objects.filter(created_at__lt=cutoff).exclude(state=OutboxState.PENDING).delete()
    )
    return deleted


def player_push_delete(*, player_id: uuid.UUID) -> int:
    """A deleted account's devices (with their pending pushes) and preferences go. Its
    tokens going takes the devices too; this says so in one place. How many rows."""
    devices, _ = Device.objects.filter(player_id=player_id).delete()
    preferences, _ = Preferences.objects.filter(player_id=player_id).delete()
    return devices + preferences
