"""Web Push (RFC 8030) to a browser's push service: the body encrypted for the
subscription (aes128gcm, RFC 8188 and 8291, by http-ece), the request signed with the
server's VAPID key (RFC 8292, by py-vapid), sent with httpx.

Outcomes: 201 (or any 2xx) sent; 404 and 410 the subscription is gone; 429 and 5xx worth
another try (after Retry-After when the service says); a timeout or a refused connection
too; any other 4xx (a bad request, a VAPID key the service refuses, a body too large)
fails the same way again.
"""

from __future__ import annotations

import base64
import email.utils
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import http_ece
import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from .base import DeviceTarget, Outcome, PushMessage, SendResult

logger = logging.getLogger(__name__)

# A JWT is good for at most 24 h (RFC 8292); one is made per push service origin and
# reused for a while, signing being most of a push's CPU.
JWT_LIFETIME_SECONDS = 12 * 3600
JWT_REUSE_SECONDS = 3600
# Push services accept at least 4096 bytes of payload (RFC 8291 section 4).
MAX_PLAINTEXT = 3993
URGENCY_HIGH_KINDS = frozenset({"your_turn", "deadline_soon"})


def b64url_decode(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def b64url_encode(value: bytes) -> str:
    return base64.urlsafe_b64encode(value).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class WebPushConfig:
    # The VAPID private key: base64url of the raw 32 bytes, of its DER, or a PEM.
    private_key: str
    # A mailto: or https: URL the push service can reach the sender at.
    subject: str
    timeout: float = 10.0
    ca_file: str | None = None


def vapid_from_key(private_key: str) -> Vapid02:
    """The key in any of the forms WebPushConfig takes."""
    text = private_key.strip()
    if "-----BEGIN" in text:
        return Vapid02.from_pem(text.encode())
    return Vapid02.from_string(text)


def public_key_of(vapid: Vapid02) -> str:
    """The application server key browsers subscribe with (base64url, uncompressed point)."""
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url_encode(raw)


def topic(collapse_id: str) -> str:
    """The Topic header for a collapse id: at most 32 base64url characters (RFC 8030
    section 5.4), so a longer id is replaced by a digest of it, the same for the same id."""
    if len(collapse_id) <= 32 and all(c.isalnum() or c in "-_" for c in collapse_id):
        return collapse_id
    return b64url_encode(hashlib.sha256(collapse_id.encode()).digest())[:32]


def retry_after_seconds(value: str | None, *, now: float | None = None) -> float | None:
    """Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110); None if neither."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class WebPushProvider:
    platform = "webpush"

    def __init__(self, config: WebPushConfig, *, clock: Callable[[], float] = time.time) -> None:
        self.config = config
        self.vapid = vapid_from_key(config.private_key)
        self.public_key = public_key_of(self.vapid)
        self._clock = clock
        self._jwts: dict[str, tuple[float, str]] = {}
        verify: str | bool = config.ca_file or True
        self.client = httpx.Client(
            timeout=httpx.Timeout(config.timeout),
            verify=verify,
            follow_redirects=False,
            headers={"User-Agent": "pusoy-dos-push"},
        )

    def close(self) -> None:
        self.client.close()

    def _now(self) -> float:
        return float(self._clock())

    def authorization(self, endpoint: str) -> str:
        """The `Authorization: vapid t=<JWT>,k=<public key>` for the endpoint's origin."""
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        now = self._now()
        cached = self._jwts.get(audience)
        if cached is not None and now - cached[0] < JWT_REUSE_SECONDS:
            return cached[1]
        claims = {
            "aud": audience,
            "sub": self.config.subject,
            "exp": int(now) + JWT_LIFETIME_SECONDS,
        }
        header = str(self.vapid.sign(claims)["Authorization"])
        self._jwts[audience] = (now, header)
        return header

    @staticmethod
    def encrypt(target: DeviceTarget, plaintext: bytes) -> bytes:
        """The aes128gcm body for the subscription: a fresh sender key pair and salt each
        time (RFC 8291 section 3.4)."""
        sender = ec.generate_private_key(ec.SECP256R1())
        return bytes(
            http_ece.encrypt(
                plaintext,
                salt=os.urandom(16),
                private_key=sender,
                dh=b64url_decode(target.p256dh),
                auth_secret=b64url_decode(target.auth),
                version="aes128gcm",
            )
        )

    @staticmethod
    def payload(message: PushMessage) -> bytes:
        """What the service worker receives: the text to show and the names to fetch by."""
        return json.dumps(
            {"title": message.title, "body": message.body, "data": message.data},
            separators=(",", ":"),
            ensure_ascii=False,
        ).encode()

    def send(self, target: DeviceTarget, message: PushMessage) -> SendResult:
        plaintext = self.payload(message)
        if len(plaintext) > MAX_PLAINTEXT:
            return SendResult(Outcome.FAILED, reason="payload too large")
        try:
            body = self.encrypt(target, plaintext)
            headers = {
                "Authorization": self.authorization(target.endpoint),
                "Content-Encoding": "aes128gcm",
                "Content-Type": "application/octet-stream",
                "TTL": str(max(0, int(message.ttl_seconds))),
                # A newer message with the same Topic replaces an undelivered older one.
                "Topic": topic(message.collapse_id),
                "Urgency": "high" if message.data.get("kind") in URGENCY_HIGH_KINDS else "normal",
            }
        except (ValueError, TypeError, http_ece.ECEException) as exc:
            # Keys that are not keys: the subscription will never work.
            return SendResult(Outcome.GONE, reason=f"bad subscription keys: {exc}"[:200])
        try:
            response = self.client.post(target.endpoint, content=body, headers=headers)
        except httpx.TimeoutException as exc:
            return SendResult(Outcome.RETRY, reason=f"timeout: {type(exc).__name__}")
        except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
            return SendResult(Outcome.RETRY, reason=f"{type(exc).__name__}: {exc}"[:200])
        status = response.status_code
        reason = response.reason_phrase or ""
        if 200 <= status < 300:
            return SendResult(Outcome.SENT, status=status)
        if status in (404, 410):
            return SendResult(Outcome.GONE, status=status, reason=reason)
        if status == 429 or status >= 500:
            return SendResult(
                Outcome.RETRY,
                status=status,
                reason=reason,
                retry_after=retry_after_seconds(response.headers.get("Retry-After")),
            )
        logger.warning("web push refused with %s: %s", status, response.text[:200])
        return SendResult(Outcome.FAILED, status=status, reason=reason)
