"""`GET /healthz`: can this process reach its database, its Celery broker and its cache.

- 200 `ok`: everything answers.
- 200 `degraded`: only the cache (Redis at REDIS_URL) is down. The service works without
  it (throttling fails open), so a load balancer should keep sending traffic.
- 503 `service_unavailable` (with Retry-After) naming what is down: the database or the
  broker.

The probes run at once, each in a thread of its own, and the answer is given after at
most PROBE_DEADLINE_SECONDS whatever a driver does: a probe still running then counts as
down ("timeout"). Its thread is left to finish on its own; every probe bounds its own
waits, so it does within a few seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from kombu import Connection

from pusoy_api.db_deadline import bounded_waits
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


def check_database() -> str | None:
    """None when the database answers, else a short reason."""
    try:
        with bounded_waits(DATABASE_TIMEOUT_SECONDS), connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down" to a health probe
        return type(exc).__name__
    finally:
        # The probe's thread ends here: hand its connection back to the pool.
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


def healthz(request: HttpRequest) -> JsonResponse:
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
    down = sorted(name for name in problems if name != "cache")
    if down:
        logger.warning("health check failed: %s", problems)
        response = JsonResponse(
            {
                "status": "down",
                "checks": checks,
                "error": {
                    "code": ErrorCode.SERVICE_UNAVAILABLE.value,
                    "message": f"Unreachable: {', '.join(down)}.",
                    "details": problems,
                },
            },
            status=503,
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if problems:
        logger.warning("health check degraded: %s", problems)
        return JsonResponse({"status": "degraded", "checks": checks, "details": problems})
    return JsonResponse({"status": "ok", "checks": checks})
