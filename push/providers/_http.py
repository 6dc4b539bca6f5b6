"""What the APNs and FCM modules share: their HTTP client, the Retry-After header, the
answers a send gives when no answer came, and what of a device token may be logged."""

from __future__ import annotations

import email.utils
import logging
import math
import ssl
import threading
from collections.abc import Callable
from typing import Any

import certifi
import h2.events
import httpx

from .base import Outcome, SendResult

# Connections one provider opens at most; a send beyond waits for one to come free.
MAX_CONNECTIONS = 8
# Closed when idle before a provider's load balancer would drop it under us.
KEEPALIVE_EXPIRY = 60.0


class Client:
    """Kept-alive HTTP/2 connections, each used by one thread at a time.

    httpcore's synchronous HTTP/2 picks a stream id and sends its headers without a lock,
    so two threads on one connection can send stream ids out of order, which the server
    must answer by closing the connection ("Server disconnected", seen against hypercorn
    at 8 threads). So each connection is its own httpx transport, lent to one send at a
    time and given back (the last given back is the next lent: the warmest stays warm).

    It sends through the transport, not `httpx.Client`, whose INFO log line holds each
    request's URL, and an APNs URL holds the whole device token."""

    def __init__(self, *, timeout: float, ca_file: str | None, http1: bool = True) -> None:
        """Trusts the usual CAs and, for a local server, `ca_file` too. `http1=False`
        makes a server that does not offer HTTP/2 a connection error rather than a
        downgrade (APNs speaks HTTP/2 only)."""
        self._context = ssl.create_default_context(cafile=certifi.where())
        if ca_file:
            self._context.load_verify_locations(cafile=ca_file)
        self._http1 = http1
        self.timeout = timeout
        self._lock = threading.Lock()
        self._free = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._idle: list[httpx.HTTPTransport] = []
        self._closed = False

    def _transport(self) -> httpx.HTTPTransport:
        # No proxy from the environment (a bare transport reads none) and no redirects
        # (only httpx.Client follows them): a send goes to the configured URL or nowhere.
        return httpx.HTTPTransport(
            verify=self._context,
            http1=self._http1,
            http2=True,
            limits=httpx.Limits(
                max_connections=1, max_keepalive_connections=1, keepalive_expiry=KEEPALIVE_EXPIRY
            ),
        )

    def request(
        self,
        method: str,
        url: str,
        *,
        headers: dict[str, str],
        content: bytes | None = None,
        timeout: float | None = None,
    ) -> httpx.Response:
        """The whole answer, read. Raises httpx.HTTPError (TransportError) when none came."""
        request = httpx.Request(
            method,
            url,
            headers=headers,
            content=content,
            extensions={"timeout": httpx.Timeout(timeout or self.timeout).as_dict()},
        )
        self._free.acquire()
        try:
            with self._lock:
                transport = self._idle.pop() if self._idle else self._transport()
            try:
                return self._send_resending_unprocessed(transport, request)
            finally:
                with self._lock:
                    if self._closed:
                        transport.close()
                    else:
                        self._idle.append(transport)
        finally:
            self._free.release()

    def _send_resending_unprocessed(
        self, transport: httpx.HTTPTransport, request: httpx.Request
    ) -> httpx.Response:
        streams: list[int] = []
        try:
            return self._send(transport, request, streams)
        except httpx.RemoteProtocolError as exc:
            if not unprocessed(exc, streams):
                raise
        # The server closed the connection under a request it says it did not process:
        # sent once more, on a new connection.
        return self._send(transport, request, [])

    @staticmethod
    def _send(
        transport: httpx.HTTPTransport, request: httpx.Request, streams: list[int]
    ) -> httpx.Response:
        """One attempt; `streams` gets the HTTP/2 stream id the request went out on."""

        def trace(event: str, info: dict[str, Any]) -> None:
            if event == "http2.send_request_headers.started":
                streams.append(info["stream_id"])

        request.extensions = {**request.extensions, "trace": trace}
        response = transport.handle_request(request)
        try:
            response.read()
        finally:
            response.close()
        return response

    def post(
        self,
        url: str,
        *,
        headers: dict[str, str],
        content: bytes,
        judge: Callable[[httpx.Response], SendResult],
    ) -> SendResult:
        """One send: the provider's answer as `judge` reads it, or no answer as a RETRY."""
        try:
            response = self.request("POST", url, headers=headers, content=content)
        except httpx.HTTPError as exc:
            return network_failure(exc)
        return judge(response)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for transport in idle:
            transport.close()


def unprocessed(exc: httpx.RemoteProtocolError, streams: list[int]) -> bool:
    """Whether a request the connection was closed under was, by the server's word, not
    processed: a GOAWAY (RFC 9113 6.8) names the last stream the server may have acted
    on, and ours came after it, or never went out.

    Servers send GOAWAY to rotate their connections (Apple's and Google's front ends;
    hypercorn after 1000 requests). httpcore raises it with h2's ConnectionTerminated
    event as the cause's argument; anything else is not known to be unprocessed."""
    cause = exc.__cause__ or exc.__context__
    event = cause.args[0] if cause is not None and cause.args else None
    if not isinstance(event, h2.events.ConnectionTerminated):
        return False
    last = event.last_stream_id
    return not streams or (last is not None and streams[-1] > last)


def retry_after(value: str | None, *, now: float) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP-date (RFC 9110
    10.2.3). None when absent or unreadable; a date in the past is 0."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return max(0.0, seconds) if math.isfinite(seconds) else None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now)


def network_failure(exc: httpx.HTTPError) -> SendResult:
    """No answer (a timeout, a refused or reset connection, a protocol error): worth
    another try; the reason is the exception's class, never its text (which may quote
    the request)."""
    if isinstance(exc, httpx.TimeoutException):
        return SendResult(Outcome.RETRY, reason="timeout")
    return SendResult(Outcome.RETRY, reason=type(exc).__name__)


def token_prefix(token: str) -> str:
    """Enough of a device token to tell two apart in a log line, not enough to use one."""
    return token[:8] + "..." if len(token) > 8 else token


def log_result(logger: logging.Logger, platform: str, token: str, result: SendResult) -> None:
    """One line per send that did not go through: platform, status, reason, token prefix
    (never the message: titles and bodies are the caller's to log, if anyone's)."""
    level = logging.DEBUG if result.outcome is Outcome.SENT else logging.INFO
    logger.log(
        level,
        "%s send %s status=%s reason=%s token=%s",
        platform,
        result.outcome.value,
        result.status,
        result.reason,
        token_prefix(token),
    )
