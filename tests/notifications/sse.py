"""A Server-Sent Events client for tests: reads a stream on a thread of its own (httpx
streaming) and parses it into events and comments; closing it drops the connection."""

from __future__ import annotations

import json
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Message:
    id: str | None = None
    event: str | None = None
    data: str = ""
    retry: int | None = None
    comments: list[str] = field(default_factory=list)

    def json(self) -> Any:
        return json.loads(self.data)


class StreamReader:
    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.url, self.headers = url, headers or {}
        self.messages: queue.Queue[Message | None] = queue.Queue()
        self.status: int | None = None
        self.content_type = ""
        self.error: BaseException | None = None
        self.ended = threading.Event()
        self._client = httpx.Client(timeout=httpx.Timeout(60.0, connect=10.0))
        self._response: httpx.Response | None = None
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            with self._client.stream("GET", self.url, headers=self.headers) as response:
                self._response = response
                self.status = response.status_code
                self.content_type = response.headers.get("content-type", "")
                message = Message()
                for line in response.iter_lines():
                    if line == "":
                        self.messages.put(message)
                        message = Message()
                    elif line.startswith(":"):
                        message.comments.append(line[1:].strip())
                    else:
                        name, _, value = line.partition(":")
                        value = value.removeprefix(" ")
                        if name == "data":
                            message.data += value
                        elif name == "retry":
                            message.retry = int(value)
                        elif name in ("id", "event"):
                            setattr(message, name, value)
        except (httpx.HTTPError, RuntimeError) as exc:  # closed under it, or a real error
            self.error = exc
        finally:
            self.ended.set()
            self.messages.put(None)

    def next(self, timeout: float = 20.0) -> Message | None:
        """The next message (None: the stream ended); fails after `timeout` seconds."""
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message within {timeout} s from {self.url}") from None

    def events(self, count: int, timeout: float = 20.0) -> list[Message]:
        """The next `count` events (comments and the retry line skipped)."""
        found: list[Message] = []
        deadline = time.monotonic() + timeout
        while len(found) < count:
            message = self.next(max(0.1, deadline - time.monotonic()))
            assert message is not None, f"the stream ended after {len(found)} of {count}"
            if message.id is not None:
                found.append(message)
        return found

    def close(self) -> None:
        """Drop the connection, as a phone losing its network would."""
        if self._response is not None:
            self._response.close()
        self._client.close()
        self._thread.join(10)
