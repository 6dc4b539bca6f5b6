"""What every push provider takes and answers. Pure data: no Django, no HTTP."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Protocol


class Outcome(enum.Enum):
    SENT = "sent"
    # The provider says the token will never work again (APNs 410 / BadDeviceToken,
    # FCM UNREGISTERED, Web Push 404/410): the device is deleted and never retried.
    GONE = "gone"
    # Worth another try later (5xx, 429, a timeout, a refused connection).
    RETRY = "retry"
    # Will fail the same way again (a malformed request, bad credentials): logged, dropped.
    FAILED = "failed"


@dataclass(frozen=True)
class PushMessage:
    """What a phone shows and what the app gets. Never a card of any hand."""

    title: str
    body: str
    # Names only: kind, game id, event id, so the app fetches state itself.
    data: dict[str, str]
    # One game's pushes replace each other on the phone (apns-collapse-id, FCM
    # collapse key, Web Push Topic): at most 64 bytes, URL-safe characters only.
    collapse_id: str
    # How long the provider may hold it for an offline device.
    ttl_seconds: int = 3600


@dataclass(frozen=True)
class DeviceTarget:
    """Where one message goes. `token` is the APNs device token or the FCM
    registration token; for Web Push, `endpoint` and the subscription's keys."""

    platform: str  # "apns" | "fcm" | "webpush"
    token: str = ""
    endpoint: str = ""
    p256dh: str = ""
    auth: str = ""


@dataclass(frozen=True)
class SendResult:
    outcome: Outcome
    status: int | None = None  # the provider's HTTP status, None when none came
    reason: str = ""  # the provider's reason code or the error, for logs and metrics
    retry_after: float | None = None  # seconds, from Retry-After when the provider sent it
    extra: dict[str, str] = field(default_factory=dict)


class Provider(Protocol):
    platform: str

    def send(self, target: DeviceTarget, message: PushMessage) -> SendResult:
        """One request to the provider; never raises for what the provider answers or
        for a network failure (those are outcomes), only for a programming error."""
        ...

    def close(self) -> None:
        """Releases kept-alive connections."""
        ...
