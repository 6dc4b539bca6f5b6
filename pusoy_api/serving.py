"""Each kind of request on the server model that fits it, in one process on one port.

Django's ASGI handler runs a request's sync code on a thread of its own (one started and
joined per request) and hops between it and the event loop for every sync middleware
and for the view; a plain read or write pays several ms for that on this project's
machines (docs/performance.md, "One port, two server models"). A request that waits
(`?wait=` long-polls, `events/stream`) needs the event loop: it must hold no thread.

So the ASGI application the web server runs (`pusoy_api.asgi.application`) looks at each
request once and sends it on:

- waits and streams to Django's ASGI handler, as before;
- everything else to Django's WSGI handler, run whole on a pool thread (one hop from
  the event loop there and one back with the complete answer), as a threaded WSGI
  server would run it.

Which way a request goes decides only what it costs, never what it answers: every view
works under both handlers (an async view under WSGI runs in its own short-lived loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import io
import queue
import sys
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
WsgiApp = Callable[..., Iterable[bytes]]

# The paths whose GET may wait: the moves' and the feed's long-polls (with `wait`), and
# the feed's stream (always).
STREAM_SUFFIX = "/events/stream"
WAIT_SUFFIXES = ("/moves", "/events")
# In the environ of every request run here: the server in front of this WSGI handler
# streams (its streams go to the event loop), which a bare WSGI server does not
# (webclient.views.index tells the page which feed to use).
STREAMS = "pusoy.streams"


def waits(scope: Scope) -> bool:
    """Whether this request may be held open: it goes to the event loop."""
    if scope["method"] != "GET":
        return False
    path: str = scope["path"]
    if path.endswith(STREAM_SUFFIX):
        return True
    if not path.endswith(WAIT_SUFFIXES) or b"wait" not in scope["query_string"]:
        return False
    # Any `wait` but an explicit zero (an invalid one too: the view answers its 400).
    query = scope["query_string"].decode("latin1")
    return any(k == "wait" and v not in ("", "0") for k, v in parse_qsl(query, True))


class ByKind:
    """ASGI: waits and streams to `waiting`, every other request to `plain`."""

    def __init__(self, waiting: App, plain: App) -> None:
        self.waiting = waiting
        self.plain = plain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not waits(scope):
            await self.plain(scope, receive, send)
        else:
            await self.waiting(scope, receive, send)


class WsgiInThread:
    """ASGI over a WSGI application: the request's body read on the event loop, the
    application run whole on a pool thread, the answer sent in one piece.

    Only for answers that end (not streams: those go to the ASGI handler), so holding
    the body in memory is what a threaded WSGI server's buffered write does too."""

    def __init__(self, app: WsgiApp, threads: int) -> None:
        self.app = app
        self.pool = ThreadPool(threads, name="pusoy-web")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        environ = build_environ(scope, bytes(body))
        # A fresh context each request: nothing a request sets leaks into the next one
        # that the same thread serves.
        context = contextvars.Context()
        status, headers, content = await self.pool.run(context.run, self.run, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def run(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None):
            started[:] = [status, headers]
            return chunks.append

        chunks: list[bytes] = []
        iterable = self.app(environ, start_response)
        try:
            chunks.extend(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        status, headers = started
        return (
            int(status[:3]),
            [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in headers],
            b"".join(chunks),
        )


class ThreadPool:
    """Threads, started as needed up to `threads`, that each run a call for the event
    loop that asked and hand it the outcome.

    What `loop.run_in_executor` does, with less of the event loop's time per call (the
    loop is the one thread every request passes through): a queue put there and one
    `call_soon_threadsafe` back, where `run_in_executor` makes a concurrent.futures
    Future (a Condition, its lock) and chains an asyncio Future to it, copying its
    state across (docs/performance.md, "The frame's cost per request")."""

    def __init__(self, threads: int, name: str) -> None:
        self.size = threads
        self.name = name
        self.jobs: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self.idle = threading.Semaphore(0)
        self.threads: list[threading.Thread] = []
        self.lock = threading.Lock()

    def run(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """`fn(*args)` on a pool thread; await the answer for its result or exception."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.jobs.put((loop, future, fn, args))
        if not self.idle.acquire(blocking=False):
            self._grow()
        return future

    def _grow(self) -> None:
        with self.lock:
            if len(self.threads) < self.size:
                # Daemon: the server waits for the requests in flight before it exits.
                thread = threading.Thread(
                    target=self._serve, name=f"{self.name}_{len(self.threads)}", daemon=True
                )
                thread.start()
                self.threads.append(thread)

    def _serve(self) -> None:
        while True:
            loop, future, fn, args = self.jobs.get()
            try:
                outcome, failed = fn(*args), False
            except BaseException as exc:  # the awaiting request gets it, as it would inline
                outcome, failed = exc, True
            # A loop already closed has nobody waiting for this answer any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, future, outcome, failed)
            del loop, future, fn, args, outcome  # hold no request while idle
            self.idle.release()


def _settle(future: asyncio.Future[Any], outcome: Any, failed: bool) -> None:
    if future.cancelled():
        return
    if failed:
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


async def lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def build_environ(scope: Scope, body: bytes) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an ASGI HTTP request."""
    script_name: str = scope.get("root_path", "")
    path: str = scope["path"]
    if script_name and path.startswith(script_name):
        path = path[len(script_name) :]
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name.encode("utf8").decode("latin1"),
        "PATH_INFO": path.encode("utf8").decode("latin1"),
        "QUERY_STRING": scope["query_string"].decode("latin1"),
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1] or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        STREAMS: True,
    }
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for raw_name, raw_value in scope.get("headers", ()):
        name = raw_name.decode("latin1").upper().replace("-", "_")
        if name not in ("CONTENT_LENGTH", "CONTENT_TYPE"):
            name = "HTTP_" + name
        value = raw_value.decode("latin1")
        environ[name] = f"{environ[name]},{value}" if name in environ else value
    return environ
