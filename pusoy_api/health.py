"""Health checks: can this process reach its database, its Celery broker and its cache.

Two endpoints, for two readers:

- `GET /healthz`, for load balancers (and container health checks): can this instance
  serve requests. 200 `ok`; 200 `degraded` naming a broker or cache that is down (moves
  are still taken: AI turns are queued again by the sweep once the broker is back, and
  throttling fails open without the cache; both are shared by every instance, so failing
  here would take them all out of the balancer at once); 503 `service_unavailable` only
  when the database does not answer, as then no request can be served.
- `GET /healthz/full`, for monitoring and alerts: 200 only when every dependency
  answers, else 503 naming each one that is down.

Both have the same body (`status`, `checks`, and `details` or the error envelope) and
run the same probes at once, each in a thread of its own; the answer is given after at
most PROBE_DEADLINE_SECONDS whatever a driver does: a probe still running then counts as
down ("timeout"). Its thread is left to finish on its own; every probe bounds its own
waits, so it does within a few seconds.

The database probe connects on its own, outside the pool: under load every pooled
connection is busy and requests queue for the next one, and a probe queued behind them
reported a busy, healthy database as down.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from kombu import Connection

from pusoy_api.db_deadline import bounded_waits, connection_class
from pusoy_api.domain_errors import ErrorCode
from pusoy_api.errors import RETRY_AFTER_SECONDS

logger = logging.getLogger(__name__)

# The whole check answers within this (plus a thread start or two).
PROBE_DEADLINE_SECONDS = 0.8
# What each probe's own socket waits may take, so abandoned probe threads end soon.
BROKER_TIMEOUT_SECONDS = 1
CACHE_TIMEOUT_SECONDS = 0.5
DATABASE_TIMEOUT_SECONDS = 1.0

Probe = Callable[[], "str | None"]


def database_params() -> dict[str, Any]:
    """How Django connects to the database (its pool's settings aside)."""
    return connection.get_connection_params()


def check_database() -> str | None:
    """None when the database answers a query, else a short reason."""
    try:
        with bounded_waits(DATABASE_TIMEOUT_SECONDS):
            if connection.vendor == "postgresql":
                # A connection of its own for one query: never one a request is waiting for.
                with connection_class().connect(**database_params(), autocommit=True) as own:
                    own.execute("SELECT 1").fetchone()
            else:  # SQLite: a file, no pool to wait for
                with connection.cursor() as cursor:
                    cursor.execute("SELECT 1")
                    cursor.fetchone()
    except Exception as exc:  # any driver error means "down" to a health probe
        return type(exc).__name__
    finally:
        # The probe's thread ends here: close what Django opened for it.
        connection.close()
    return None


def check_broker() -> str | None:
    """None when the broker accepts a connection (or none is configured), else a reason."""
    if not settings.CELERY_BROKER_URL:
        return None  # in-process mode: no broker to reach
    try:
        # A fresh connection to the configured URL, not the app's pool: the probe must
        # see the broker as it is now and must not disturb connections in use.
        with Connection(
            settings.CELERY_BROKER_URL,
            connect_timeout=BROKER_TIMEOUT_SECONDS,
            transport_options={"socket_timeout": BROKER_TIMEOUT_SECONDS},
        ) as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_SECONDS)
    except Exception as exc:  # connection refused, DNS, auth: all "down" here
        return type(exc).__name__
    return None


def cache_url() -> str | None:
    """The Redis URL of the default cache, None when it is per-process memory."""
    cache = settings.CACHES.get("default", {})
    if "redis" not in cache.get("BACKEND", "").lower():
        return None
    location = cache.get("LOCATION")
    return location[0] if isinstance(location, list | tuple) else location


def check_cache() -> str | None:
    """None when the shared cache answers (or the cache is per-process), else a reason."""
    url = cache_url()
    if not url:
        return None
    # A client of its own with short timeouts: Django's cache client has none.
    client = redis.Redis.from_url(
        url, socket_connect_timeout=CACHE_TIMEOUT_SECONDS, socket_timeout=CACHE_TIMEOUT_SECONDS
    )
    try:
        client.ping()
    except Exception as exc:
        return type(exc).__name__
    finally:
        client.close()
    return None


def run_probes(probes: dict[str, Probe], deadline: float) -> dict[str, str | None]:
    """Every probe at once; after `deadline` seconds, those still running give "timeout"."""
    results: dict[str, str | None] = {}
    lock = threading.Lock()

    def run(name: str, probe: Probe) -> None:
        try:
            reason = probe()
        except Exception as exc:
            reason = type(exc).__name__
        with lock:
            results.setdefault(name, reason)

    threads = [
        threading.Thread(target=run, args=(name, probe), name=f"healthz-{name}", daemon=True)
        for name, probe in probes.items()
    ]
    for thread in threads:
        thread.start()
    end = time.monotonic() + deadline
    for thread in threads:
        thread.join(max(0.0, end - time.monotonic()))
    with lock:
        # A late probe finds its name taken and its answer ignored.
        for name in probes:
            results.setdefault(name, "timeout")
        return dict(results)


# What must answer for each endpoint to answer 200 (see the module's docstring).
SERVES_REQUESTS = frozenset({"database"})
EVERY_DEPENDENCY = frozenset({"database", "broker", "cache"})


def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers: 503 only when this instance cannot serve requests."""
    return health_answer(SERVES_REQUESTS)


def healthz_full(request: HttpRequest) -> JsonResponse:
    """For monitoring: 503 naming whatever is down."""
    return health_answer(EVERY_DEPENDENCY)


def health_answer(required: frozenset[str]) -> JsonResponse:
    # Looked up at call time, so tests can replace a probe.
    problems = {
        name: reason
        for name, reason in run_probes(
            {"database": check_database, "broker": check_broker, "cache": check_cache},
            PROBE_DEADLINE_SECONDS,
        ).items()
        if reason is not None
    }
    checks = {
        "database": "down" if "database" in problems else "ok",
        "broker": "down"
        if "broker" in problems
        else ("ok" if settings.CELERY_BROKER_URL else "in-process"),
        "cache": "down" if "cache" in problems else ("ok" if cache_url() else "local"),
    }
    from push.providers import registry

    # Which push platforms have credentials: none is a normal state, not a problem.
    push = {"platforms": registry.platforms()}
    if required & problems.keys():
        logger.warning("health check failed: %s", problems)
        response = JsonResponse(
            {
                "status": "down",
                "checks": checks,
                "push": push,
                "error": {
                    "code": ErrorCode.SERVICE_UNAVAILABLE.value,
                    "message": f"Unreachable: {', '.join(sorted(problems))}.",
                    "details": problems,
                },
            },
            status=503,
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if problems:
        logger.warning("health check degraded: %s", problems)
        return JsonResponse(
            {"status": "degraded", "checks": checks, "push": push, "details": problems}
        )
    return JsonResponse({"status": "ok", "checks": checks, "push": push})
