"""What a delivery carries: the body's bytes and the headers that let a receiver trust them.

`Pusoy-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`: the
timestamp is signed with the body, so a captured delivery cannot be replayed later than
the receiver's tolerance (docs/api.md shows the receiver's side). The secret is the
webhook's 64 hex characters, used as its ASCII bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Mapping
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

SIGNATURE_HEADER = "Pusoy-Signature"
EVENT_ID_HEADER = "Pusoy-Event-Id"
USER_AGENT = "Pusoy-Webhooks/1.0 (+https://github.com/pusoy-dos-api)"


def secret_new() -> str:
    """A fresh secret: 32 random bytes, as 64 hex characters."""
    return secrets.token_hex(32)


def body_bytes(payload: Mapping[str, Any]) -> bytes:
    """The event as JSON, compact, in the payload's own key order: stored once and sent
    byte for byte on every attempt."""
    return json.dumps(
        payload, cls=DjangoJSONEncoder, separators=(",", ":"), ensure_ascii=False
    ).encode()


def signature(*, secret: str, body: bytes, timestamp: int) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def headers(*, secret: str, body: bytes, event_id: int, now: float | None = None) -> dict[str, str]:
    timestamp = int(time.time() if now is None else now)
    return {
        "Content-Type": "application/json",
        EVENT_ID_HEADER: str(event_id),
        SIGNATURE_HEADER: signature(secret=secret, body=body, timestamp=timestamp),
        "User-Agent": USER_AGENT,
    }
