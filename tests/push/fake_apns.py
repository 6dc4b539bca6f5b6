"""A local APNs: the provider API of Apple's documentation ("Sending notification
requests to APNs"), checking what Apple checks, answering what a test tells it to.

It verifies the provider token (ES256 signature with the team's key, `kid`, `iss`, an
`iat` no older than an hour and not replaced within 20 minutes), the path and its device
token, `apns-topic`, `apns-push-type`, `apns-priority`, `apns-expiration`,
`apns-collapse-id` (64 bytes at most) and the payload (JSON with an `aps` dictionary,
4 KB at most). A request that passes gets the next scripted answer, else 200."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import uuid
from collections import deque
from dataclasses import dataclass, field

import jwt
from cryptography.hazmat.primitives.asymmetric import ec

from .transport_helpers import (
    Clock,
    FakeServer,
    Receive,
    Received,
    Scope,
    Send,
    Tls,
    lifespan,
    read_body,
    respond,
)

DEVICE_TOKEN = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Answer:
    status: int = 200
    reason: str = ""
    retry_after: str | None = None
    hang: bool = False  # never answers (until the server stops)


@dataclass
class FakeApns(FakeServer[Answer]):
    key: ec.EllipticCurvePublicKey
    key_id: str
    team_id: str
    topic: str
    tls: Tls
    clock: Clock
    answers: deque[Answer] = field(default_factory=deque)
    received: list[Received] = field(default_factory=list)
    tokens_seen: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    h2_only = True  # Apple speaks HTTP/2 only

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        body = await read_body(receive)
        received = Received(
            path=scope["path"],
            headers=headers,
            body=body,
            client=tuple(scope["client"]),
            http_version=scope["http_version"],
        )
        status, reason = self.check(scope, headers, body, received)
        extra: dict[str, str] = {}
        if status == 200:
            answer = self.next_answer(Answer())
            if answer.hang:
                self.record(received)
                await asyncio.sleep(3600)
                return
            status, reason = answer.status, answer.reason
            if answer.retry_after is not None:
                extra["retry-after"] = answer.retry_after
        received.status, received.reason = status, reason
        self.record(received)
        apns_id = headers.get("apns-id") or str(uuid.uuid4())
        await respond(
            send,
            status,
            {"reason": reason} if status != 200 else None,
            {"apns-id": apns_id, **extra},
        )

    def check(
        self, scope: Scope, headers: dict[str, str], body: bytes, received: Received
    ) -> tuple[int, str]:
        if scope["method"] != "POST":
            return 405, "MethodNotAllowed"
        if scope["http_version"] != "2":
            return 400, "BadRequest"  # Apple speaks HTTP/2 only
        auth = headers.get("authorization", "")
        if not auth.startswith("bearer "):
            return 403, "MissingProviderToken"
        token = auth.removeprefix("bearer ")
        try:
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(
                token,
                self.key,
                algorithms=["ES256"],
                # Apple judges the age by `iat` against its own clock (the fake's).
                options={"verify_iat": False, "require": ["iat", "iss"]},
            )
        except jwt.PyJWTError:
            return 403, "InvalidProviderToken"
        received.claims = claims
        if header.get("kid") != self.key_id or claims["iss"] != self.team_id:
            return 403, "InvalidProviderToken"
        age = self.clock() - claims["iat"]
        if age > 3600 or age < -60:
            return 403, "ExpiredProviderToken"
        with self._lock:
            if token not in self.tokens_seen:
                if self.tokens_seen and age_of(self.tokens_seen[-1], self.clock()) < 20 * 60:
                    return 429, "TooManyProviderTokenUpdates"
                self.tokens_seen.append(token)
        if not scope["path"].startswith("/3/device/"):
            return 404, "BadPath"
        if not DEVICE_TOKEN.fullmatch(scope["path"].removeprefix("/3/device/")):
            return 400, "BadDeviceToken"
        if "apns-topic" not in headers:
            return 400, "MissingTopic"
        if headers["apns-topic"] != self.topic:
            return 400, "TopicDisallowed"
        if headers.get("apns-push-type") != "alert":
            return 400, "InvalidPushType"
        if headers.get("apns-priority", "10") not in ("5", "10"):
            return 400, "BadPriority"
        if not headers.get("apns-expiration", "0").isdigit():
            return 400, "BadExpirationDate"
        if len(headers.get("apns-collapse-id", "").encode()) > 64:
            return 400, "BadCollapseId"
        if len(body) > 4096:
            return 413, "PayloadTooLarge"
        try:
            payload = json.loads(body)
        except ValueError:
            return 400, "BadPayload"
        if not isinstance(payload, dict) or not isinstance(payload.get("aps"), dict):
            return 400, "PayloadEmpty"
        return 200, ""


def age_of(token: str, now: float) -> float:
    return now - jwt.decode(token, options={"verify_signature": False})["iat"]
