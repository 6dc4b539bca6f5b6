"""A deadline on every wait for PostgreSQL made while answering a request.

libpq has a connect timeout but nothing for a query on an open connection: when the
server hangs (a frozen host, a stalled disk, a network that drops packets), the kernel
may keep acknowledging and a query waits forever. TCP keepalives and server-side
`statement_timeout` cannot help with a server that does not run. So the pool hands out
connections of `BoundedConnection`, whose socket waits stop after the deadline of the
current context (set per request by `pusoy_api.outages.OutageMiddleware`); outside a
request (migrations, management commands, Celery tasks) waits stay unbounded.

A connection whose wait timed out is in an unknown state (a query may still be running
on the server), so it is closed at once: the pool discards it, never lends it again.
The class also reports to `pusoy_api.db_reachable` what it sees (connects that work or
fail, connections that break), which sets how long requests wait for the pool.

No Django import here: the settings module imports this for the pool's options.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import pq

from pusoy_api import db_reachable

logger = logging.getLogger(__name__)

# Seconds a single wait on the database may take in this context; None: unbounded.
_limit: ContextVar[float | None] = ContextVar("pusoy_db_wait_limit", default=None)


@contextlib.contextmanager
def bounded_waits(seconds: float | None) -> Iterator[None]:
    """Within this block (and the threads it hands work to: asgiref copies the context),
    each wait for the database on a `BoundedConnection` gives up after `seconds`."""
    token = _limit.set(seconds if seconds and seconds > 0 else None)
    try:
        yield
    finally:
        _limit.reset(token)


class DatabaseNotAnswering(psycopg.OperationalError):
    """The server did not answer within the deadline; the connection was closed.
    An OperationalError, so Django wraps it like any lost connection."""


class BoundedConnection(psycopg.Connection):
    """Also tells `db_reachable` what it sees of the database (connects, broken
    connections), so a request does not wait for the pool while it is down."""

    @classmethod
    def connect(cls, conninfo: str = "", **kwargs: Any) -> Any:
        try:
            conn = super().connect(conninfo, **kwargs)
        except psycopg.OperationalError:
            db_reachable.lost()
            raise
        db_reachable.connected()
        return conn

    def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        # The caller's own timeout (notifies(), cancel) keeps its meaning.
        limit = _limit.get() if timeout is None else None
        try:
            return super().wait(gen, interval=interval, timeout=limit or timeout)
        except pg_errors._WaitTimeout:
            if limit is None:
                raise
            # psycopg's internal timeout, documented to be converted by its caller.
            self.pgconn.finish()
            db_reachable.lost()
            raise DatabaseNotAnswering(
                f"the database did not answer within {limit:g} s; connection closed"
            ) from None
        except psycopg.OperationalError:
            if self.pgconn.status == pq.ConnStatus.BAD:  # the connection broke
                db_reachable.lost()
            raise


def connection_class() -> type[psycopg.Connection]:
    """The class for the pool: bounded where psycopg supports a wait timeout (3.3+)."""
    if "timeout" in inspect.signature(psycopg.Connection.wait).parameters:
        return BoundedConnection
    logger.warning(
        "psycopg %s has no wait timeout: queries in requests are not bounded", psycopg.__version__
    )
    return psycopg.Connection
