"""The requests pytest-django's live server is still serving when a test is done.

A page that long-polls (`?wait=`) leaves its last request waiting in the live server
after the browser has closed it, for up to `longpoll.MAX_WAIT_SECONDS`: a daemon thread
of the server running, per request, an event loop with its own LISTEN connection (and a
pooled connection whenever it reads). The database flush after a test then races it,
and at the end of a run PostgreSQL refuses to drop a test database that sessions still
use."""

from __future__ import annotations

import threading
import time

from pusoy_api.realtime import longpoll

# The name Python gives the threads a `socketserver.ThreadingMixIn` server starts per
# request (Django's live server keeps no list of them: they are daemon threads).
REQUEST_THREAD = "(process_request_thread)"


def request_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.endswith(REQUEST_THREAD)]


def finish_live_requests(timeout: float = 30.0) -> None:
    """End the waits of this process and wait until the live server's request threads
    are done: each gives its connection back as it ends. A request that began its wait
    after one `end_waits` is ended by the next."""
    deadline = time.monotonic() + timeout
    while (threads := request_threads()) and time.monotonic() < deadline:
        longpoll.end_waits()
        for thread in threads:
            thread.join(timeout=0.2)
    left = request_threads()
    assert not left, f"live server requests still running after {timeout} s: {left}"
