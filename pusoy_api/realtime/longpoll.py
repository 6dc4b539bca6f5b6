"""Waiting for moves: what `GET games/{id}/moves?since=SEQ&wait=SECONDS` waits on
(see docs/long-polling.md). The view (`games.apis.play.MovesApi`, an async DRF view) reads and
renders; this module only decides when to read again.

A waiting request holds no database connection and runs no thread (Django still parks an
idle per-request thread for it: see the design note). One `LISTEN pusoy_moves`
connection per event loop (so per web process) fans the notifications that
`pusoy_api.realtime.notify.notify_keys` sends at commit out to the asyncio waiters of
their keys, so a change made in any process on any machine wakes them. A key names what
a waiter waits on: `game:<uuid>` (a game's moves, sent by every write on the game) or
`player:<id>` (a player's event feed, `notifications`); one notification carries the keys
of one commit, space-separated. The answer the waiters of a key are then given is read
once for all the waiters woken together (not once each). The listener reconnects on
failure (waking every waiter), and every few seconds the process re-reads a small
version of each key it has waiters for (`PROBES`: a game's last seq, a player's last
event id), as a safety net; on SQLite (the no-config dev mode), which has no NOTIFY,
every half second.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
import weakref
from collections import defaultdict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

import environ
from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.db import DatabaseError, connections

from pusoy_api.realtime.notify import NOTIFY_CHANNEL

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Each process re-reads the last seq of every game it has waiters for this often, even
# without a notification: the safety net for a notification lost with its connection.
RECHECK_SECONDS = 5.0
# While the LISTEN connection is down (and on SQLite, which has no NOTIFY), this often.
POLL_SECONDS = 1.0
SQLITE_POLL_SECONDS = 0.5
# The LISTEN connection proves it is alive this often (a dead TCP peer is otherwise silent).
HEALTH_CHECK_SECONDS = 30.0
# How long a request waits for the LISTEN connection of its process to be up.
READY_TIMEOUT = 2.0


# --- Reads on the request's thread, giving its connection back ------------------------


def release_connections() -> None:
    """Return this thread's database connections to the pool (or close them) now,
    rather than at the end of the request: the request may now wait for 30 seconds.
    Inside an atomic block (a test's transaction) the connection is left alone."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def _read_released(read: Callable[[], T]) -> T:
    try:
        return read()
    finally:
        release_connections()


# What the re-check reads for a key, by the key's kind (the part before the colon): a
# small value that changes whenever the waiters of the key have news.
# Each app registers the kinds it owns from its AppConfig.ready.
PROBES: dict[str, Callable[[str], Hashable]] = {}


def register_probe(kind: str, probe: Callable[[str], Hashable]) -> None:
    """Let waiters on keys `<kind>:...` be re-checked (the app that owns the kind does this)."""
    PROBES[kind] = probe


def _probe_released(key: str) -> Hashable:
    kind, _, rest = key.partition(":")
    probe = PROBES.get(kind)
    if probe is None:
        return None  # nobody registered this kind: its waiters rely on notifications
    try:
        return probe(rest)
    finally:
        connections.close_all()


def _read_closed(read: Callable[[], T]) -> T:
    try:
        return read()
    finally:
        connections.close_all()


# thread_sensitive: the request's own thread, as Django runs sync views under ASGI (and
# the test client's thread under WSGI, so tests see their own transaction).
read_on_request_thread = sync_to_async(_read_released, thread_sensitive=True)
# For the hub's own re-checks, which belong to no request: any pool thread.
probe_any_thread = sync_to_async(_probe_released, thread_sensitive=False)
# For a stream's reads (an event-stream response outlives its request's thread): any pool
# thread, the connection closed (given back to the pool) after each read.
read_any_thread = sync_to_async(_read_closed, thread_sensitive=False)

# A history body read after a notification serves the waiters woken with it for this long.
SHARE_SECONDS = 0.5


def release_request_thread() -> None:
    """Let the idle thread Django's ASGI handler keeps for this request's sync code
    (asgiref's ThreadSensitiveContext executor) end now instead of when the request
    does. For an event stream, which runs for minutes on the event loop once its sync
    work (auth, middleware) is done: called when its body starts. Should sync code of
    the request run again (Django's `request_finished` when the stream ends), asgiref
    starts a new thread for it then. A no-op outside such a context (WSGI, tests)."""
    context = SyncToAsync.thread_sensitive_context.get(None)
    if context is None:
        return
    executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    if executor is not None:
        executor.shutdown(wait=False)


# --- Waiters and the LISTEN connection ----------------------------------------------------


class _Waiter:
    """One waiting request: woken by a NOTIFY for its key, a changed last seq seen by
    the re-check, or the listener's reconnection (notifications may have been lost)."""

    __slots__ = ("ended", "event")

    def __init__(self) -> None:
        self.event = asyncio.Event()
        # Set by `end_waits`: answer now, as at the deadline; a stream ends.
        self.ended = False

    def wake(self) -> None:
        self.event.set()

    def end(self) -> None:
        self.ended = True
        self.event.set()

    async def wait(self, timeout: float) -> bool:
        """True when woken, False when `timeout` seconds passed first."""
        try:
            async with asyncio.timeout(timeout):
                await self.event.wait()
        except TimeoutError:
            return False
        self.event.clear()
        return True


def _uses_postgres() -> bool:
    return connections["default"].vendor == "postgresql"


def _listen_params() -> dict[str, Any]:
    """psycopg connection arguments for the LISTEN connection: LISTEN_DATABASE_URL when
    set (a direct line past a transaction-mode pooler), else DATABASES["default"]."""
    s = connections["default"].settings_dict
    if settings.LISTEN_DATABASE_URL:
        s = environ.Env.db_url_config(settings.LISTEN_DATABASE_URL)
    params: dict[str, Any] = {"dbname": s.get("NAME") or "postgres"}
    for key, name in (("USER", "user"), ("PASSWORD", "password"), ("HOST", "host")):
        if s.get(key):
            params[name] = s[key]
    if s.get("PORT"):
        params["port"] = str(s["PORT"])
    django_only = {
        "pool",
        "isolation_level",
        "server_side_binding",
        "assume_role",
        "prepare_threshold",
    }
    params.update({k: v for k, v in s.get("OPTIONS", {}).items() if k not in django_only})
    params.setdefault("application_name", "pusoy-longpoll")
    params.setdefault("connect_timeout", 5)
    params.setdefault("keepalives", 1)
    params.setdefault("keepalives_idle", 30)
    return params


class Hub:
    """Per event loop: the waiters by key, the LISTEN task, a cap on the database
    work that many waiters woken at once may do together."""

    def __init__(self) -> None:
        self.waiters: defaultdict[str, set[_Waiter]] = defaultdict(set)
        # key -> {what was asked: the answer being read, or just read}
        self.bodies: dict[str, dict[Hashable, asyncio.Future[Any]]] = {}
        self.ready = asyncio.Event()
        self.postgres = _uses_postgres()
        pool_size = getattr(settings, "DB_POOL_MAX_SIZE", 0) or 8
        # Leave half the pool to ordinary requests while a crowd of waiters re-reads.
        self.db_slots = asyncio.Semaphore(max(1, pool_size // 2))
        self.task: asyncio.Task[None] | None = None
        loop = asyncio.get_running_loop()
        # Tasks of their own (an empty context): they outlive the request that made them.
        if self.postgres:
            self.task = loop.create_task(
                self._listen(), name="pusoy-longpoll-listen", context=contextvars.Context()
            )
        self.ticker = loop.create_task(
            self._recheck(), name="pusoy-longpoll-recheck", context=contextvars.Context()
        )

    # waiters

    def subscribe(self, key: str) -> _Waiter:
        waiter = _Waiter()
        self.waiters[key].add(waiter)
        return waiter

    def unsubscribe(self, key: str, waiter: _Waiter) -> None:
        waiters = self.waiters.get(key)
        if waiters is not None:
            waiters.discard(waiter)
            if not waiters:
                del self.waiters[key]
                self.bodies.pop(key, None)

    def wake(self, key: str) -> None:
        self.bodies.pop(key, None)  # read before this commit
        for waiter in self.waiters.get(key, ()):
            waiter.wake()

    def wake_all(self) -> None:
        self.bodies.clear()
        for waiters in self.waiters.values():
            for waiter in waiters:
                waiter.wake()

    def end_all(self) -> None:
        self.bodies.clear()
        for waiters in self.waiters.values():
            for waiter in waiters:
                waiter.end()

    def recheck_after(self) -> float:
        if not self.postgres:
            return SQLITE_POLL_SECONDS
        if not self.ready.is_set():
            return POLL_SECONDS
        return RECHECK_SECONDS

    async def _recheck(self) -> None:
        """The safety net, and the only signal on SQLite: one small read per key with
        waiters (its probe); a changed value wakes that key's waiters as a notification
        would."""
        known: dict[str, Hashable] = {}
        while True:
            await asyncio.sleep(self.recheck_after())
            for key in list(self.waiters):
                try:
                    async with self.db_slots:
                        now = await probe_any_thread(key)
                except DatabaseError as exc:
                    logger.warning("long-poll re-check failed: %s", exc)
                    continue
                if known.get(key) != now:
                    known[key] = now
                    self.wake(key)
            for key in set(known) - set(self.waiters):
                del known[key]

    async def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        if self.postgres and not self.ready.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self.ready.wait()

    async def read_shared(
        self,
        key: str,
        ask: Hashable,
        read: Callable[[], T],
        *,
        run: Callable[[Callable[[], T]], Awaitable[T]] | None = None,
    ) -> T:
        """`read()` once for all the waiters of a key woken together and asking the same
        thing (`ask`): a move wakes hundreds with one query set. A read is shared until
        the next notification for the key, or SHARE_SECONDS. `run` runs the read (by
        default on the request's thread; an event stream, which has given that thread
        back, passes `read_any_thread`)."""
        loop = asyncio.get_running_loop()
        while True:
            shared = self.bodies.setdefault(key, {})
            future = shared.get(ask)
            if future is None:
                future = shared[ask] = loop.create_future()
                try:
                    async with self.db_slots:
                        body = await (run or read_on_request_thread)(read)
                except BaseException:
                    future.cancel()  # the others read for themselves
                    if shared.get(ask) is future:
                        del shared[ask]
                    raise
                future.set_result(body)
                loop.call_later(SHARE_SECONDS, self._forget, shared, ask, future)
                return body
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not future.cancelled() or (task is not None and task.cancelling()):
                    raise
                # The reader failed: try again, reading for ourselves.

    @staticmethod
    def _forget(shared: dict[Any, Any], ask: Any, future: asyncio.Future[Any]) -> None:
        if shared.get(ask) is future:
            del shared[ask]

    # the LISTEN connection

    async def _listen(self) -> None:
        import psycopg

        delay = 0.5
        while True:
            try:
                params = _listen_params()
                aconn = await psycopg.AsyncConnection.connect(autocommit=True, **params)
                async with aconn:
                    await aconn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.ready.set()
                    # Moves committed while we were not listening: everybody re-checks.
                    self.wake_all()
                    delay = 0.5
                    while True:
                        async for notify in aconn.notifies(timeout=HEALTH_CHECK_SECONDS):
                            for key in notify.payload.split():
                                self.wake(key)
                        await aconn.execute("SELECT 1")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.warning("long-poll LISTEN connection failed (%s); retrying", exc)
            finally:
                self.ready.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()
# Loops in several threads add hubs (under WSGI, one loop per waiting request) while the
# metrics and `end_waits` read them from others: a WeakKeyDictionary is iterated by a
# Python generator, which an insert from another thread would break mid-way.
_hubs_lock = threading.Lock()


def _all_hubs() -> list[tuple[asyncio.AbstractEventLoop, Hub]]:
    with _hubs_lock:
        return list(_hubs.items())


# The longest any request may be held waiting (moves and the event feed alike): short
# enough for proxies' idle timeouts, long enough to make polling rare.
MAX_WAIT_SECONDS = 30


def waiting_count() -> int:
    """Requests waiting in this process (long-polls and event streams), for the metrics."""
    return sum(len(waiters) for _, h in _all_hubs() for waiters in list(h.waiters.values()))


def end_waits() -> None:
    """Answer every wait of this process now, with what its deadline would have given it,
    and end every event stream: for a server that is stopping, whose waits would
    otherwise hold it (their threads, and the connections those hold) for up to
    MAX_WAIT_SECONDS. Safe from any thread; waits that begin after it are not ended."""
    for loop, hub_ in _all_hubs():
        with contextlib.suppress(RuntimeError):  # that loop has closed since
            loop.call_soon_threadsafe(hub_.end_all)


def hub() -> Hub:
    """The hub of the running event loop, created (and its LISTEN started) on first use."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = Hub()
        with _hubs_lock:
            _hubs[loop] = found
    return found


# --- Waiting for news ----------------------------------------------------------------------


async def wait_for_news(
    *,
    key: str,
    ask: Hashable,
    seconds: float,
    read: Callable[[], T],
    is_news: Callable[[T], bool],
    is_final: Callable[[T], bool],
) -> T:
    """`read()` at once, and again each time `key` is notified, until an answer
    `is_news`, or `is_final` (nothing more can come), or `seconds` pass; the last answer
    read. Reads run on the request's thread and give its connection back, so the
    request holds none while it waits."""
    hub_ = hub()
    # Subscribed before the first read, so a move committed after it is never missed.
    waiter = hub_.subscribe(key)
    try:
        await hub_.wait_ready()
        answer = await read_on_request_thread(read)
        if is_news(answer) or is_final(answer):
            return answer
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while (remaining := deadline - loop.time()) > 0:
            if not await waiter.wait(remaining) or waiter.ended:
                break
            answer = await hub_.read_shared(key, ask, read)
            # A game can end without a move (its last human resigns): nothing more will
            # come then, so the wait ends too.
            if is_news(answer) or is_final(answer):
                return answer
        return await hub_.read_shared(key, ask, read)
    finally:
        hub_.unsubscribe(key, waiter)
