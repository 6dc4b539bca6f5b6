"""A cache accessor that fails open, for rate limits.

Throttles and the login backoff keep their counters in the cache (Redis in production).
Those counters protect the service, they are not its data: while the cache is down,
refusing or failing every request would turn a cache outage into an outage of the whole
API. So every operation here that hits a cache error gives the answer that lets the
request through ("nothing recorded", "the key was free") and logs a warning, at most one
line per `WARN_EVERY` seconds per process so an outage does not flood the log.

Redis's socket timeouts (settings, CACHES) bound how long one call can wait.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

logger = logging.getLogger(__name__)

WARN_EVERY = 30.0


class RateLimitedWarning:
    """Logs the first failure, then at most one line per `every` seconds, counting the
    failures it kept quiet about."""

    def __init__(
        self,
        every: float,
        clock: Callable[[], float] = time.monotonic,
        *,
        log: logging.Logger = logger,
        consequence: str = "rate limits fail open: requests go through unthrottled",
    ) -> None:
        self.every = every
        self.clock = clock
        self.log = log
        self.consequence = consequence
        self._lock = threading.Lock()
        self._next_at = float("-inf")
        self._quiet = 0

    def __call__(self, operation: str, exc: Exception) -> None:
        with self._lock:
            now = self.clock()
            if now < self._next_at:
                self._quiet += 1
                return
            quiet, self._quiet = self._quiet, 0
            self._next_at = now + self.every
        self.log.warning(
            "cache unavailable (%s: %s: %s); %s (%d more cache errors since the last warning)",
            operation,
            type(exc).__name__,
            exc,
            self.consequence,
            quiet,
        )


warn = RateLimitedWarning(WARN_EVERY)


class FailOpenCache:
    """The few cache operations rate limits need, on the cache `alias`, never raising.

    DRF's throttles use it as their `cache` attribute (`get`, `set`). The backend is
    looked up on every call, so a changed CACHES setting (tests) is seen at once.
    """

    def __init__(self, alias: str = "default") -> None:
        self.alias = alias

    def _call(self, operation: str, fail_open: Any, call: Callable[[Any], Any]) -> Any:
        try:
            return call(caches[self.alias])
        except Exception as exc:  # any backend error: connection, timeout, protocol
            warn(operation, exc)
            return fail_open

    def get(self, key: str, default: Any = None) -> Any:
        return self._call("get", default, lambda cache: cache.get(key, default))

    def set(self, key: str, value: Any, timeout: float | None) -> None:
        self._call("set", None, lambda cache: cache.set(key, value, timeout))

    def add(self, key: str, value: Any, timeout: float | None) -> bool:
        """True if the key was free and is now set. Callers use it to claim something,
        so failing open means answering True: the caller goes ahead."""
        return self._call("add", True, lambda cache: cache.add(key, value, timeout))


class ProcessRedisCache(RedisCache):
    """Django's Redis cache with one connection pool per process.

    Django keeps a cache object per context (asgiref's Local), and each one builds its
    own client and pool. The server runs every plain request in a fresh context
    (pusoy_api.serving), so each request used to connect to Redis anew (and leave that
    connection to the garbage collector): about half a millisecond on every request
    that touches the cache. The client here is shared by every cache object of the
    process with the same servers and options (redis-py's pool is thread-safe and
    starts afresh in a forked child)."""

    _clients: dict[tuple[str, ...], Any] = {}
    _clients_lock = threading.Lock()

    @cached_property
    def _cache(self) -> Any:
        this: Any = self  # RedisCache's attributes, which django-stubs do not declare
        key = (*this._servers, repr(sorted(this._options.items())))
        with self._clients_lock:
            client = self._clients.get(key)
            if client is None:
                client = self._clients[key] = this._class(this._servers, **this._options)
        return client
