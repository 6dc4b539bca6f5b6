"""A real HTTP receiver on 127.0.0.1 for deliveries, synthetic events, and the doc's
signature check as app developers would copy it."""

from __future__ import annotations

import itertools
import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from django.utils import timezone

DOCS = Path(__file__).resolve().parents[2] / "docs"

# Event ids are the feed's; synthetic ones are unique per test run.
_event_ids = itertools.count(int(time.time() * 1000) % 10**12)


def event_payload(player: Any, type: str = "your_turn", **data: Any) -> dict[str, Any]:
    """An EventPayload as the feed will hand it to webhooks."""
    return {
        "id": next(_event_ids),
        "type": type,
        "game": str(uuid.uuid4()),
        "created_at": timezone.now().isoformat(),
        "data": data,
        "player": str(player.pk),
    }


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    path: str


@dataclass
class Receiver:
    """Answers each POST with the next of `statuses` (then 200); `hold`, when given, is
    waited on before answering (a receiver that hangs)."""

    statuses: list[int] = field(default_factory=list)
    hold: threading.Event | None = None
    requests: list[Received] = field(default_factory=list)
    entered: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.entered.set()
                if receiver.hold is not None:
                    receiver.hold.wait(30)
                receiver.requests.append(Received(dict(self.headers), body, self.path))
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self) -> None:
        if self.hold is not None:
            self.hold.set()
        self.server.shutdown()
        self.server.server_close()


def wait_for(condition: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not true after {timeout}s: {condition}")


def doc_verify() -> Callable[..., bool]:
    """The signature check of docs/api.md, executed as written there."""
    text = (DOCS / "api.md").read_text()
    section = text[text.index("### Checking a delivery") :]
    code = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert code is not None, "no Python example under 'Checking a delivery'"
    namespace: dict[str, Any] = {}
    exec(compile(code.group(1), "docs/api.md", "exec"), namespace)
    return namespace["verify"]
