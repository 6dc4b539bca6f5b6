"""Long-polling for `GET games/{id}/moves?since=SEQ&wait=SECONDS` (see docs/long-polling.md).

The route is an async view. It runs the ordinary DRF `MovesApi` in a thread (same auth,
validation, errors and body), gives the database connection back to the pool, and, when
nothing is newer than `since`, waits on the event loop for a PostgreSQL notification:
a waiting client holds no database connection and runs no thread (Django still parks an
idle per-request thread for it: see the design note).

One `LISTEN pusoy_moves` connection per event loop (so per web process) fans the
notifications that `games.services.side_effects.notify_waiters` sends at every commit
out to the asyncio waiters of that game, so a move made in any process on any machine wakes them; the
history they are then answered with is read once for all the waiters of the game woken
together (not once each). The listener reconnects on failure (waking every waiter), and
every few seconds the process re-reads the last seq of each game it has waiters for, as a
safety net; on SQLite (the no-config dev mode), which has no NOTIFY, every half second.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import weakref
from collections import defaultdict
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from games import selectors
from games.apis import MovesApi
from games.services import NOTIFY_CHANNEL
from pusoy_api.domain_errors import DomainError

logger = logging.getLogger(__name__)

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

_drf_moves_view = MovesApi.as_view()


# --- The sync part: the DRF view, and giving its connection back -----------------------


def _release_connections() -> None:
    """Return this thread's database connections to the pool (or close them) now,
    rather than at the end of the request: the request may now wait for 30 seconds.
    Inside an atomic block (a test's transaction) the connection is left alone."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def _run_view(request: HttpRequest, game_id: Any) -> HttpResponse:
    try:
        response = _drf_moves_view(request, game_id=game_id)
        if callable(getattr(response, "render", None)):
            response.render()
        return response
    finally:
        _release_connections()


def _latest_released(game_id: Any) -> tuple[int, int]:
    try:
        return selectors.latest_seq(game_id=game_id)
    finally:
        connections.close_all()


def _history(game_id: Any, filters: dict[str, Any]) -> dict[str, Any]:
    try:
        return MovesApi.history(game_id, filters)
    finally:
        _release_connections()


# thread_sensitive: the request's own thread, as Django runs sync views under ASGI (and
# the test client's thread under WSGI, so tests see their own transaction).
run_view = sync_to_async(_run_view, thread_sensitive=True)
history = sync_to_async(_history, thread_sensitive=True)
# For the hub's own re-checks, which belong to no request: any pool thread.
latest_any_thread = sync_to_async(_latest_released, thread_sensitive=False)

# A history body read after a notification serves the waiters woken with it for this long.
SHARE_SECONDS = 0.5


# --- Waiters and the LISTEN connection ----------------------------------------------------


class _Waiter:
    """One waiting request: woken by a NOTIFY for its game, a changed last seq seen by
    the re-check, or the listener's reconnection (notifications may have been lost)."""

    __slots__ = ("event",)

    def __init__(self) -> None:
        self.event = asyncio.Event()

    def wake(self) -> None:
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
    """psycopg connection arguments for the LISTEN connection, from DATABASES["default"]."""
    s = connections["default"].settings_dict
    params: dict[str, Any] = {"dbname": s.get("NAME") or "postgres"}
    for key, name in (("USER", "user"), ("PASSWORD", "password"), ("HOST", "host")):
        if s.get(key):
            params[name] = s[key]
    if s.get("PORT"):
        params["port"] = str(s["PORT"])
    django_only = {"pool", "isolation_level", "server_side_binding", "assume_role"}
    params.update({k: v for k, v in s.get("OPTIONS", {}).items() if k not in django_only})
    params.setdefault("application_name", "pusoy-longpoll")
    params.setdefault("connect_timeout", 5)
    params.setdefault("keepalives", 1)
    params.setdefault("keepalives_idle", 30)
    return params


class Hub:
    """Per event loop: the waiters by game id, the LISTEN task, a cap on the database
    work that many waiters woken at once may do together."""

    def __init__(self) -> None:
        self.waiters: defaultdict[str, set[_Waiter]] = defaultdict(set)
        # game id -> {(deal, since): the history body being read, or just read}
        self.bodies: dict[str, dict[tuple[Any, int], asyncio.Future[dict[str, Any]]]] = {}
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

    def subscribe(self, game_id: str) -> _Waiter:
        waiter = _Waiter()
        self.waiters[game_id].add(waiter)
        return waiter

    def unsubscribe(self, game_id: str, waiter: _Waiter) -> None:
        waiters = self.waiters.get(game_id)
        if waiters is not None:
            waiters.discard(waiter)
            if not waiters:
                del self.waiters[game_id]
                self.bodies.pop(game_id, None)

    def wake(self, game_id: str) -> None:
        self.bodies.pop(game_id, None)  # read before this commit
        for waiter in self.waiters.get(game_id, ()):
            waiter.wake()

    def wake_all(self) -> None:
        self.bodies.clear()
        for waiters in self.waiters.values():
            for waiter in waiters:
                waiter.wake()

    def recheck_after(self) -> float:
        if not self.postgres:
            return SQLITE_POLL_SECONDS
        if not self.ready.is_set():
            return POLL_SECONDS
        return RECHECK_SECONDS

    async def _recheck(self) -> None:
        """The safety net, and the only signal on SQLite: one small read per game with
        waiters; a changed (deal, seq) wakes that game's waiters as a notification would."""
        known: dict[str, tuple[int, int]] = {}
        while True:
            await asyncio.sleep(self.recheck_after())
            for game_id in list(self.waiters):
                try:
                    async with self.db_slots:
                        now = await latest_any_thread(game_id)
                except DatabaseError as exc:
                    logger.warning("long-poll re-check failed: %s", exc)
                    continue
                if known.get(game_id) != now:
                    known[game_id] = now
                    self.wake(game_id)
            for game_id in set(known) - set(self.waiters):
                del known[game_id]

    async def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        if self.postgres and not self.ready.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self.ready.wait()

    async def history(self, game_id: Any, filters: dict[str, Any]) -> dict[str, Any]:
        """The history body, read once for all the waiters of a game woken together and
        asking the same thing (deal, since): a move wakes hundreds with one query set.
        A read is shared until the next notification for the game, or SHARE_SECONDS."""
        key, ask = str(game_id), (filters.get("deal"), filters["since"])
        loop = asyncio.get_running_loop()
        while True:
            shared = self.bodies.setdefault(key, {})
            future = shared.get(ask)
            if future is None:
                future = shared[ask] = loop.create_future()
                try:
                    async with self.db_slots:
                        body = await history(game_id, filters)
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
                            self.wake(notify.payload)
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


def hub() -> Hub:
    """The hub of the running event loop, created (and its LISTEN started) on first use."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub()
    return found


# --- The view ---------------------------------------------------------------------------------


def _wait_asked(request: HttpRequest) -> bool:
    try:
        return float(request.GET.get("wait", "0")) > 0
    except ValueError:
        return False  # the DRF view answers 400


def _news(data: dict[str, Any], deal: int) -> bool:
    return bool(data["moves"]) or (data["deal"] or 0) != deal


def _answer(first: Response, body: dict[str, Any]) -> Response:
    """A fresh body, rendered and negotiated exactly as the view's first answer was."""
    response = Response(body, status=200)
    for name, value in first.items():
        if name.lower() not in {"content-type", "content-length"}:
            response[name] = value
    response.accepted_renderer = first.accepted_renderer
    response.accepted_media_type = first.accepted_media_type
    response.renderer_context = {**first.renderer_context, "response": response}
    if isinstance(first.accepted_renderer, JSONRenderer):
        response.render()  # a small JSON dump: cheaper here than a trip to a thread
    return response  # else Django renders it (browsable API) in the request's thread


async def _wait_for_news(
    request: HttpRequest, game_id: Any, hub_: Hub, waiter: _Waiter, first: Response
) -> HttpResponse:
    """Auth and validation passed with the first answer; now wait for news, then answer
    with the history read at that point."""
    params = MovesApi.FilterSerializer(data=request.GET)
    params.is_valid(raise_exception=True)  # the view validated it already
    filters = params.validated_data
    if first.data["finished"]:
        return first  # a finished deal (a past one, or the game is over): nothing will come
    deal = first.data["deal"] or 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + filters["wait"]
    try:
        while (remaining := deadline - loop.time()) > 0:
            if not await waiter.wait(remaining):
                break
            body = await hub_.history(game_id, filters)
            if _news(body, deal):
                return _answer(first, body)
        return _answer(first, await hub_.history(game_id, filters))
    except (DomainError, DatabaseError):
        # The game went away, or the database: let the view answer as it would.
        return await run_view(request, game_id)


@csrf_exempt
async def moves_view(request: HttpRequest, game_id: Any) -> HttpResponse:
    """`games/{id}/moves`: POST and plain GET go to `MovesApi` unchanged; a GET with
    `wait` > 0 and nothing newer than `since` waits here for a move."""
    if request.method != "GET" or not _wait_asked(request):
        return await run_view(request, game_id)
    hub_ = hub()
    key = str(game_id)
    # Subscribe before the first read, so a move committed after it is never missed.
    waiter = hub_.subscribe(key)
    try:
        await hub_.wait_ready()
        first = await run_view(request, game_id)
        if not isinstance(first, Response) or first.status_code != 200 or first.data["moves"]:
            return first
        return await _wait_for_news(request, game_id, hub_, waiter, first)
    finally:
        hub_.unsubscribe(key, waiter)


# drf-spectacular (and DRF's schema generator) read the endpoint from these attributes,
# so the schema still documents `MovesApi` (GET with `wait`, and POST).
moves_view.cls = MovesApi  # type: ignore[attr-defined]
moves_view.initkwargs = {}  # type: ignore[attr-defined]
