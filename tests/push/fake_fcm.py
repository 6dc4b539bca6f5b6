"""A local FCM: Google's OAuth2 token endpoint for service accounts and the HTTP v1
`messages:send`, checking what Google checks, answering what a test tells it to.

The token endpoint takes the JWT-bearer grant (RFC 7523): the assertion must be RS256,
signed by the service account's key (`kid` its key id), issued by its email, for
Google's token endpoint, with the FCM scope and at most an hour's life. `messages:send` takes only a
bearer token it issued that has not expired or been revoked, the configured project,
and a v1 `Message` of the shape FCM documents (string data, a `<seconds>s` ttl)."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import time
import urllib.parse
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from .transport_helpers import (
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

GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
# The audience Google requires of an assertion: its token endpoint, whichever URL the
# grant is posted to (google-auth always writes this one).
AUDIENCE = "https://oauth2.googleapis.com/token"
TTL = re.compile(r"\d+(\.\d{1,9})?s")
FCM_ERROR = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"

STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}


@dataclass(frozen=True)
class Answer:
    status: int = 200
    error_code: str = ""  # the FcmError errorCode: UNREGISTERED, SENDER_ID_MISMATCH, ...
    retry_after: str | None = None
    token_field: bool = False  # a BadRequest field violation naming message.token
    hang: bool = False


def fcm_error(status: int, code: str = "", message: str = "", violation: bool = False) -> dict:
    details: list[dict[str, Any]] = []
    if code:
        details.append({"@type": FCM_ERROR, "errorCode": code})
    if violation:
        details.append(
            {
                "@type": BAD_REQUEST,
                "fieldViolations": [
                    {"field": "message.token", "description": "Invalid registration token"}
                ],
            }
        )
    return {
        "error": {
            "code": status,
            "message": message or STATUS_NAMES.get(status, "error").lower(),
            "status": STATUS_NAMES.get(status, "UNKNOWN"),
            "details": details,
        }
    }


@dataclass
class FakeFcm(FakeServer[Answer]):
    key: rsa.RSAPublicKey
    key_id: str
    client_email: str
    project_id: str
    tls: Tls
    token_lifetime: int = 3600  # expires_in of the access tokens it issues
    answers: deque[Answer] = field(default_factory=deque)
    token_answers: deque[int] = field(default_factory=deque)  # statuses for /token
    received: list[Received] = field(default_factory=list)
    grants: list[dict[str, Any]] = field(default_factory=list)  # the assertions' claims
    access_tokens: dict[str, float] = field(default_factory=dict)  # token: expiry
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def token_url(self) -> str:
        return self.server.url + "/token"

    def revoke_access_tokens(self) -> None:
        with self._lock:
            self.access_tokens.clear()

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        body = await read_body(receive)
        if scope["path"] == "/token":
            status, answer = self.token(scope, headers, body)
            await respond(send, status, answer)
            return
        received = Received(
            scope["path"], headers, body, tuple(scope["client"]), scope["http_version"]
        )
        status, answer, extra = self.messages_send(scope, headers, body)
        received.status = status
        self.record(received)
        if status == 0:  # hang
            await asyncio.sleep(3600)
            return
        await respond(send, status, answer, extra)

    def token(self, scope: Scope, headers: dict[str, str], body: bytes) -> tuple[int, dict]:
        with self._lock:
            scripted = self.token_answers.popleft() if self.token_answers else 200
        if scripted != 200:
            return scripted, {"error": "internal_failure"}
        if scope["method"] != "POST":
            return 405, {"error": "invalid_request"}
        if not headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
            return 400, {"error": "invalid_request"}
        form = dict(urllib.parse.parse_qsl(body.decode()))
        if form.get("grant_type") != GRANT_TYPE:
            return 400, {"error": "unsupported_grant_type"}
        assertion = form.get("assertion", "")
        try:
            header = jwt.get_unverified_header(assertion)
            claims = jwt.decode(
                assertion,
                self.key,
                algorithms=["RS256"],
                audience=AUDIENCE,
                issuer=self.client_email,
                options={"require": ["iss", "aud", "iat", "exp", "scope"]},
            )
        except jwt.PyJWTError as exc:
            return 400, {"error": "invalid_grant", "error_description": type(exc).__name__}
        if header.get("kid") != self.key_id:
            return 400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."}
        if claims["exp"] - claims["iat"] > 3600:
            return 400, {"error": "invalid_grant", "error_description": "Invalid JWT: exp"}
        if SCOPE not in claims["scope"].split():
            return 400, {"error": "invalid_scope"}
        access_token = "ya29." + secrets.token_urlsafe(32)
        with self._lock:
            self.grants.append(claims)
            self.access_tokens[access_token] = time.time() + self.token_lifetime
        return 200, {
            "access_token": access_token,
            "expires_in": self.token_lifetime,
            "token_type": "Bearer",
        }

    def messages_send(
        self, scope: Scope, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict, dict[str, str]]:
        bearer = headers.get("authorization", "").removeprefix("Bearer ")
        with self._lock:
            expiry = self.access_tokens.get(bearer)
        if expiry is None or expiry < time.time():
            return 401, fcm_error(401, message="Request had invalid authentication"), {}
        if scope["path"] != f"/v1/projects/{self.project_id}/messages:send":
            return 404, fcm_error(404, message="Requested entity was not found."), {}
        if scope["method"] != "POST":
            return 405, fcm_error(405), {}
        problem = message_problem(body)
        if problem:
            return 400, fcm_error(400, message=problem), {}
        answer = self.next_answer(Answer())
        if answer.hang:
            return 0, {}, {}
        if answer.status == 200:
            return 200, {"name": f"projects/{self.project_id}/messages/{secrets.token_hex(8)}"}, {}
        extra = {"retry-after": answer.retry_after} if answer.retry_after is not None else {}
        message = "The registration token is not a valid FCM registration token" * (
            answer.token_field
        )
        error = fcm_error(answer.status, answer.error_code, message, answer.token_field)
        return answer.status, error, extra


def message_problem(body: bytes) -> str:
    """What FCM would refuse in a v1 send request, or ''."""
    try:
        message = json.loads(body)["message"]
    except (ValueError, KeyError, TypeError):
        return "Invalid JSON payload received."
    if not isinstance(message, dict) or not isinstance(message.get("token"), str):
        return "message.token is required"
    notification = message.get("notification", {})
    if not all(isinstance(notification.get(k), str) for k in ("title", "body")):
        return "message.notification needs a title and body"
    data = message.get("data", {})
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        return "message.data values must be strings"
    android = message.get("android", {})
    if "ttl" in android and not TTL.fullmatch(str(android["ttl"])):
        return "message.android.ttl is not a duration"
    apns_headers = message.get("apns", {}).get("headers", {})
    if not all(isinstance(v, str) for v in apns_headers.values()):
        return "message.apns.headers values must be strings"
    return ""
