"""Sending wake-ups: the keys a write changed, delivered to every web process's
`longpoll` hub by PostgreSQL NOTIFY at commit (never for a write that rolls back)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import connection

NOTIFY_CHANNEL = "pusoy_moves"

# Keys to wake, held back while a write gathers its side effects (``notifies_gathered``):
# one NOTIFY for the whole write instead of one per step.
_gathered: ContextVar[list[str] | None] = ContextVar("gathered_notify_keys", default=None)


def notify_keys(keys: Iterable[str]) -> None:
    """Wake the waiters of `keys` (`game:<uuid>`, `player:<id>`) in every web process,
    with one notification. NOTIFY is transactional in PostgreSQL: it is delivered at
    commit, and never for a write that rolls back."""
    gathered = _gathered.get()
    if gathered is not None:
        gathered.extend(keys)
        return
    payload = " ".join(keys)
    if payload and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, payload])


@contextmanager
def notifies_gathered() -> Iterator[list[str]]:
    """Within: ``notify_keys`` only gathers its keys into the list yielded. The caller
    sends them (the event feed sends them with its own NOTIFY); whatever is still in the
    list at the end is sent then. Nested: the outer gathering takes them."""
    if _gathered.get() is not None:
        yield []
        return
    keys: list[str] = []
    token = _gathered.set(keys)
    try:
        yield keys
    finally:
        _gathered.reset(token)
    notify_keys(dict.fromkeys(keys))
