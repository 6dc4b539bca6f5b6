"""Firebase Cloud Messaging, HTTP v1: an OAuth2 access token from the service account
(google-auth's JWT-bearer grant), one `messages:send` per device, and what Google's
answer means for the device."""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import google.auth.exceptions
import google.auth.transport
import httpx
from google.oauth2 import service_account

from . import _http
from .base import DeviceTarget, Outcome, PushMessage, SendResult

logger = logging.getLogger(__name__)

FCM_URL = "https://fcm.googleapis.com"
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"

# FcmError codes (google.firebase.fcm.v1.FcmError) that mean the token is dead.
GONE_CODES = frozenset({"UNREGISTERED"})
# A 401 that a new access token does not cure: the APNs credential uploaded to
# Firebase is wrong, so iOS sends through FCM fail until someone fixes it.
FAILED_401_CODES = frozenset({"THIRD_PARTY_AUTH_ERROR"})


@dataclass(frozen=True)
class FcmConfig:
    service_account_path: str  # the Google service-account JSON file
    project_id: str | None = None  # defaults to the file's project_id
    base_url: str | None = None  # overrides https://fcm.googleapis.com (tests)
    token_url: str | None = None  # overrides the file's token_uri (tests)
    timeout: float = 10.0
    ca_file: str | None = None


class _AuthResponse(google.auth.transport.Response):
    def __init__(self, response: httpx.Response) -> None:
        self._response = response

    @property
    def status(self) -> int:
        return self._response.status_code

    @property
    def headers(self) -> Mapping[str, str]:
        return self._response.headers

    @property
    def data(self) -> bytes:
        return self._response.content


class _AuthRequest(google.auth.transport.Request):
    """google-auth's token exchange through our httpx client, so it trusts `ca_file`
    and keeps its connection alive (google-auth's own transports need `requests`)."""

    def __init__(self, client: _http.Client) -> None:
        self._client = client

    def __call__(
        self,
        url: str,
        method: str = "GET",
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> _AuthResponse:
        try:
            response = self._client.request(
                method, url, headers=dict(headers or {}), content=body, timeout=timeout
            )
        except httpx.HTTPError as exc:
            raise google.auth.exceptions.TransportError(type(exc).__name__) from exc
        return _AuthResponse(response)


class FcmProvider:
    """Satisfies `push.providers.base.Provider`. One client and one access token per
    instance, shared by threads."""

    platform = "fcm"

    def __init__(self, config: FcmConfig) -> None:
        self.config = config
        info = json.loads(Path(config.service_account_path).read_text())
        if config.token_url:
            info = {**info, "token_uri": config.token_url}
        self._credentials = service_account.Credentials.from_service_account_info(
            info, scopes=[SCOPE]
        )
        project_id = config.project_id or info.get("project_id")
        if not project_id:
            raise ValueError("no FCM project id: not configured and not in the credentials")
        base_url = (config.base_url or FCM_URL).rstrip("/")
        self._send_url = f"{base_url}/v1/projects/{project_id}/messages:send"
        self._client = _http.Client(timeout=config.timeout, ca_file=config.ca_file)
        self._auth_request = _AuthRequest(self._client)
        self._token_lock = threading.Lock()

    def access_token(self) -> str:
        """The bearer token, fetched again when google-auth says it is near expiry
        (within a few minutes of it). Raises google.auth's errors."""
        with self._token_lock:
            if not self._credentials.valid:
                self._credentials.refresh(self._auth_request)
            token = self._credentials.token
            assert isinstance(token, str)
            return token

    def _token_refused(self, token: str) -> None:
        # As for APNs: only the refused token is dropped, so concurrent refusals of the
        # same token cause one exchange.
        with self._token_lock:
            if self._credentials.token == token:
                self._credentials.token = None

    def send(self, target: DeviceTarget, message: PushMessage) -> SendResult:
        try:
            token = self.access_token()
        except google.auth.exceptions.GoogleAuthError as exc:
            result = _auth_failure(exc)
        else:
            result = self._client.post(
                self._send_url,
                headers={
                    "authorization": f"Bearer {token}",
                    "content-type": "application/json; charset=UTF-8",
                },
                content=json.dumps(request_body(target, message)).encode(),
                judge=functools.partial(self._result, token=token),
            )
        _http.log_result(logger, self.platform, target.token, result)
        return result

    def _result(self, response: httpx.Response, token: str) -> SendResult:
        status = response.status_code
        if status == 200:
            name = _json_field(response, "name")
            return SendResult(Outcome.SENT, status=status, extra={"message_id": name})
        code, token_named = error_code(response)
        wait = _http.retry_after(response.headers.get("retry-after"), now=time.time())
        if status == 404 or code in GONE_CODES or (code == "INVALID_ARGUMENT" and token_named):
            return SendResult(Outcome.GONE, status=status, reason=code)
        if status == 401 and code not in FAILED_401_CODES:
            self._token_refused(token)
            return SendResult(Outcome.RETRY, status, code, wait)
        if status == 429 or status >= 500:
            return SendResult(Outcome.RETRY, status, code, wait)
        return SendResult(Outcome.FAILED, status=status, reason=code)

    def close(self) -> None:
        self._client.close()


def request_body(target: DeviceTarget, message: PushMessage) -> dict[str, object]:
    """The v1 `Message`: the notification both platforms show, the data as strings (FCM
    refuses any other type), and the collapse id for Android and for iOS through FCM."""
    body: dict[str, object] = {
        "token": target.token,
        "notification": {"title": message.title, "body": message.body},
        "data": {str(key): str(value) for key, value in message.data.items()},
        "android": {
            "collapse_key": message.collapse_id,
            "ttl": f"{max(0, message.ttl_seconds)}s",
        },
        "apns": {"headers": {"apns-collapse-id": message.collapse_id}},
    }
    return {"message": body}


def error_code(response: httpx.Response) -> tuple[str, bool]:
    """The most precise code in a v1 error (the FcmError's `errorCode`, else the
    `status`), and whether a field violation or the message names the token."""
    try:
        body = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return f"http_{response.status_code}", False
    code = error.get("status") if isinstance(error.get("status"), str) else ""
    token_named = "registration token" in str(error.get("message", "")).lower()
    details = error.get("details")
    for detail in details if isinstance(details, list) else []:
        if not isinstance(detail, dict):
            continue
        if str(detail.get("@type", "")).endswith("FcmError") and detail.get("errorCode"):
            code = str(detail["errorCode"])
        for violation in detail.get("fieldViolations") or []:
            if isinstance(violation, dict) and violation.get("field") == "message.token":
                token_named = True
    return code or f"http_{response.status_code}", token_named


def _json_field(response: httpx.Response, name: str) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    value = body.get(name) if isinstance(body, dict) else None
    return value if isinstance(value, str) else ""


def _auth_failure(exc: google.auth.exceptions.GoogleAuthError) -> SendResult:
    """The token exchange failed: a network failure or an answer google-auth calls
    retryable (5xx, 429) is worth another try; a refused credential is not."""
    if isinstance(exc, google.auth.exceptions.TransportError) or getattr(exc, "retryable", False):
        return SendResult(Outcome.RETRY, reason="oauth_unavailable")
    return SendResult(Outcome.FAILED, reason="oauth_refused")
