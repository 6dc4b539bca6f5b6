"""Schemathesis hooks for the API run (tests/api/test_schemathesis.py loads them with
SCHEMATHESIS_HOOKS): log in as the fuzzing player, and keep long-poll waits short.

The token is fetched by logging in, and fetched again after a 401: the fuzzer also calls
`auth/logout`, which revokes the token it was sent with.
"""

from __future__ import annotations

import os
from typing import Any

import requests
import schemathesis

BASE_URL = os.environ.get("PUSOY_FUZZ_BASE_URL", "")
USERNAME = os.environ.get("PUSOY_FUZZ_USERNAME", "")
PASSWORD = os.environ.get("PUSOY_FUZZ_PASSWORD", "")
# `wait` holds a history request up to 30 s when nothing happens: as long as that is
# valid, a fuzzer that uses it spends its run waiting. Short waits test the same code.
MAX_WAIT_SECONDS = 0.2


@schemathesis.auth()
class PlayerToken:
    def get(self, case: Any, ctx: Any) -> str:
        response = requests.post(
            f"{BASE_URL}/api/v1/auth/token",
            json={"username": USERNAME, "password": PASSWORD},
            timeout=10,
        )
        response.raise_for_status()
        return response.json()["token"]

    def set(self, case: Any, data: str, ctx: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def _seconds(value: Any) -> float | None:
    """A wait as the fuzzer may write it: a number, or a number as text."""
    if isinstance(value, bool):
        return None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if 0 <= seconds <= 30 else None  # out of range: let the API refuse it


def _stream_seconds(value: Any) -> float | None:
    """A valid `max_seconds` of the event stream (0 to 3600), as a number; else None."""
    if isinstance(value, bool):
        return None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if 0 <= seconds <= 3600 else None


@schemathesis.hook
def before_call(ctx: Any, case: Any, kwargs: dict[str, Any]) -> None:
    """Every phase's requests pass here (the coverage phase skips the generation hooks)."""
    seconds = _seconds((case.query or {}).get("wait"))
    if seconds is not None and seconds > MAX_WAIT_SECONDS:
        case.query = {**case.query, "wait": MAX_WAIT_SECONDS}
    if case.path.endswith("/events/stream"):
        # The event stream lasts EVENTS_STREAM_MAX_SECONDS (minutes) unless told less:
        # a valid `max_seconds` is kept short, a missing one added (an invalid one is
        # left for the API to refuse). Its live behaviour is tested under uvicorn in
        # tests/notifications/test_stream.py.
        query = case.query or {}
        lifetime = _stream_seconds(query.get("max_seconds"))
        if "max_seconds" not in query or (lifetime is not None and lifetime > MAX_WAIT_SECONDS):
            case.query = {**query, "max_seconds": MAX_WAIT_SECONDS}
