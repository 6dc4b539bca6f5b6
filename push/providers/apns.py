"""Apple Push Notification service: one HTTP/2 request per device with a token-based
(ES256 JWT) provider credential, and what Apple's answer means for the device."""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from . import _http
from .base import DeviceTarget, Outcome, PushMessage, SendResult

logger = logging.getLogger(__name__)

PRODUCTION_URL = "https://api.push.apple.com"
SANDBOX_URL = "https://api.sandbox.push.apple.com"

# Apple refuses a provider token older than an hour and one replaced more often than
# every 20 minutes (TooManyProviderTokenUpdates): each one is used for 50 minutes.
TOKEN_LIFETIME = 50 * 60

# Reasons that mean this token will never reach a device of this app again.
GONE_REASONS = frozenset({"BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered"})
# Reasons Apple gives for a refusal that passes by itself.
TRANSIENT_REASONS = frozenset({"TooManyProviderTokenUpdates", "TooManyRequests"})


@dataclass(frozen=True)
class ApnsConfig:
    key_id: str  # 10-character key id from Apple
    team_id: str  # 10-character team id
    key_path: str  # path to the .p8 ES256 private key
    topic: str  # the app's bundle id
    use_sandbox: bool = False
    base_url: str | None = None  # overrides api.push.apple.com / api.sandbox.push.apple.com
    timeout: float = 10.0
    ca_file: str | None = None  # extra CA bundle to trust (tests' local TLS server)


class ApnsProvider:
    """Satisfies `push.providers.base.Provider`. One client (so one HTTP/2 connection,
    multiplexed) and one provider token per instance, shared by threads."""

    platform = "apns"

    def __init__(self, config: ApnsConfig, *, clock: Callable[[], float] = time.time) -> None:
        self.config = config
        self._clock = clock
        key = load_pem_private_key(Path(config.key_path).read_bytes(), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise ValueError("the APNs key must be an ES256 (P-256) key, the .p8 from Apple")
        self._key = key
        self._base_url = (
            config.base_url or (SANDBOX_URL if config.use_sandbox else PRODUCTION_URL)
        ).rstrip("/")
        self._client = _http.Client(timeout=config.timeout, ca_file=config.ca_file, http1=False)
        self._token_lock = threading.Lock()
        self._token: str | None = None
        self._token_issued_at = 0.0

    def provider_token(self) -> str:
        """The JWT every request carries, made again once it is TOKEN_LIFETIME old."""
        with self._token_lock:
            now = self._clock()
            if self._token is None or now - self._token_issued_at >= TOKEN_LIFETIME:
                self._token = jwt.encode(
                    {"iss": self.config.team_id, "iat": int(now)},
                    self._key,
                    algorithm="ES256",
                    headers={"kid": self.config.key_id},
                )
                self._token_issued_at = now
            return self._token

    def _token_refused(self, token: str) -> None:
        # Only the token that was refused is dropped: of several threads refused with
        # the same one, the first makes a new token and the others use it, so Apple sees
        # one update, not one per thread.
        with self._token_lock:
            if self._token == token:
                self._token = None

    def send(self, target: DeviceTarget, message: PushMessage) -> SendResult:
        token = self.provider_token()
        headers = {
            "authorization": f"bearer {token}",
            "apns-topic": self.config.topic,
            "apns-push-type": "alert",
            "apns-priority": "10",
            "apns-expiration": str(int(self._clock()) + max(0, message.ttl_seconds)),
        }
        if message.collapse_id:
            headers["apns-collapse-id"] = message.collapse_id
        url = f"{self._base_url}/3/device/{quote(target.token, safe='')}"
        result = self._client.post(
            url,
            headers=headers,
            content=payload(message),
            judge=functools.partial(self._result, token=token),
        )
        _http.log_result(logger, self.platform, target.token, result)
        return result

    def _result(self, response: httpx.Response, token: str) -> SendResult:
        status = response.status_code
        apns_id = response.headers.get("apns-id", "")
        extra = {"apns_id": apns_id} if apns_id else {}
        if status == 200:
            return SendResult(Outcome.SENT, status=status, extra=extra)
        reason = error_reason(response)
        wait = _http.retry_after(response.headers.get("retry-after"), now=time.time())
        if status == 410 or (status == 400 and reason in GONE_REASONS):
            return SendResult(Outcome.GONE, status=status, reason=reason, extra=extra)
        if status == 403 and reason == "ExpiredProviderToken":
            self._token_refused(token)
            return SendResult(Outcome.RETRY, status, reason, wait, extra)
        if status == 429 or status >= 500 or reason in TRANSIENT_REASONS:
            return SendResult(Outcome.RETRY, status, reason, wait, extra)
        return SendResult(Outcome.FAILED, status=status, reason=reason, extra=extra)

    def close(self) -> None:
        self._client.close()


def payload(message: PushMessage) -> bytes:
    """The notification's JSON: the alert Apple shows, and the app's data beside `aps`
    (which a data key can never replace)."""
    aps: dict[str, object] = {
        "alert": {"title": message.title, "body": message.body},
        "sound": "default",
    }
    if message.collapse_id:
        aps["thread-id"] = message.collapse_id
    body: dict[str, object] = {"aps": aps}
    body.update((key, value) for key, value in message.data.items() if key != "aps")
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def error_reason(response: httpx.Response) -> str:
    """Apple's `reason` (`{"reason": "BadDeviceToken"}`), or the bare status when the
    body is not Apple's JSON (a proxy's error page)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    reason = body.get("reason") if isinstance(body, dict) else None
    return reason if isinstance(reason, str) and reason else f"http_{response.status_code}"
