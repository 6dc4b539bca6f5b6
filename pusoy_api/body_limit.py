"""The request body limit (MAX_REQUEST_BODY_BYTES), enforced in front of Django's ASGI
handler, which would otherwise take in any body whole, spooling it to a temp file,
before a view (or the JSON parser's own check) could refuse it.

- A body that announces its length (Content-Length) over the limit is answered 413
  before any of it is read.
- Any other is read here, its bytes counted as they come; once they pass the limit the
  answer is 413 and the rest is never read (the connection is closed). A chunked body
  (`Transfer-Encoding: chunked`) announces nothing, and a Content-Length beside chunked
  framing does not bound it (the chunks frame the body), so only the count holds.
- A body within the limit is handed on whole, with the Content-Length it has: DRF reads
  no body from a request without one.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pusoy_api.domain_errors import ErrorCode
from pusoy_api.errors import envelope

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class LimitRequestBodies:
    """ASGI middleware: no request body over `limit` bytes reaches `app`."""

    def __init__(self, app: App, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.refusal = json.dumps(
            envelope(
                ErrorCode.PAYLOAD_TOO_LARGE,
                f"The body is larger than {limit} bytes.",
                {"limit": limit},
            )
        ).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = announced_length(scope)
        if announced is not None and announced > self.limit:
            await self.refuse(send)
            return
        try:
            body = await self.read_within_limit(receive)
        except BodyTooLarge:
            await self.refuse(send)
            return
        if body is None:
            return  # the client went away mid-body: nobody to answer
        # A request without a body (a GET) goes on as it came.
        framed = with_length(scope, len(body)) if body else scope
        await self.app(framed, replay(body, receive), send)

    async def read_within_limit(self, receive: Receive) -> bytes | None:
        """The whole body, or None if the client disconnected. BodyTooLarge as soon as
        the bytes received pass the limit: what is still on its way is left unread."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                raise BodyTooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def refuse(self, send: Send) -> None:
        # `connection: close`: the server drops the connection after the answer rather
        # than reading (and discarding) the rest of the body to reuse it.
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(self.refusal)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": self.refusal})


class BodyTooLarge(Exception):
    pass


def announced_length(scope: Scope) -> int | None:
    """The Content-Length, None without one. (The server has refused a malformed one.)
    An upper bound at best: with chunked framing beside it, the chunks decide."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            return int(value) if value.isdigit() else None
    return None


def with_length(scope: Scope, length: int) -> Scope:
    """The scope of a request whose body is now whole: framed by its true length, no
    longer by chunks."""
    headers = [
        (name, value)
        for name, value in scope.get("headers", ())
        if name not in (b"content-length", b"transfer-encoding")
    ]
    return {**scope, "headers": [*headers, (b"content-length", str(length).encode())]}


def replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the body read here first, then whatever the server says
    (Django listens on it for the client's disconnect)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive_after_body() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return receive_after_body
