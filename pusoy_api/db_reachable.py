"""Whether this process can reach the database, and how long the pool makes a request
wait for a connection because of it.

A request waits for a pooled connection for one of two reasons. Every connection is in
use (load): then waiting a while is worth it, up to DB_POOL_TIMEOUT, before shedding the
request with a 503. Or the pool has none to give because the database is down: then
there is nothing to wait for, and the request should get its 503 after DB_DOWN_TIMEOUT.

The pool's connection class (`pusoy_api.db_deadline.BoundedConnection`) reports what it
sees: a connect that failed, or a connection that broke or stopped answering, means
down; a connect that succeeded means up. Until the first connect succeeds the database
counts as down, so a process started during an outage answers quickly too. The pools
that requests use are watched (`watch`, from the outage middleware) and their wait is
switched when the state changes.

No Django import at module level: the settings module imports the connection class.
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_reachable = False
_pools: weakref.WeakSet[Any] = weakref.WeakSet()


def is_reachable() -> bool:
    return _reachable


def _wait_for(reachable: bool) -> float:
    from django.conf import settings

    return settings.DB_POOL_TIMEOUT if reachable else settings.DB_DOWN_TIMEOUT


def _set(reachable: bool) -> None:
    global _reachable
    if _reachable is reachable:  # the usual case: no lock, nothing to do
        return
    with _lock:
        if _reachable is reachable:
            return
        _reachable = reachable
        for pool in list(_pools):
            pool.timeout = _wait_for(reachable)
    if reachable:
        logger.info("database reachable")
    else:
        logger.warning("database unreachable: requests stop waiting for the pool early")


def connected() -> None:
    _set(True)


def lost() -> None:
    _set(False)


def watch(pool: Any) -> None:
    """Make `pool`'s wait for a connection follow the database's state from now on."""
    if pool in _pools:
        return
    with _lock:
        _pools.add(pool)
        pool.timeout = _wait_for(_reachable)
