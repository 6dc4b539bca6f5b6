"""`GET /healthz`: is the database reachable, is the Celery broker reachable."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from kombu import Connection

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 2.0


def check_database() -> str | None:
    """None when the database answers, else a short reason."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down" to a health probe
        return type(exc).__name__
    return None


def check_broker() -> str | None:
    """None when the broker accepts a connection (or none is configured), else a reason."""
    if not settings.CELERY_BROKER_URL:
        return None  # in-process mode: no broker to reach
    try:
        # A fresh connection to the configured URL, not the app's pool: the probe must
        # see the broker as it is now and must not disturb connections in use.
        with Connection(settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_SECONDS)
    except Exception as exc:  # connection refused, DNS, auth: all "down" here
        return type(exc).__name__
    return None


def healthz(request: HttpRequest) -> JsonResponse:
    problems = {
        name: reason
        for name, reason in (("database", check_database()), ("broker", check_broker()))
        if reason is not None
    }
    checks = {
        "database": "ok" if "database" not in problems else "down",
        "broker": ("in-process" if not settings.CELERY_BROKER_URL else "ok")
        if "broker" not in problems
        else "down",
    }
    if problems:
        logger.warning("health check failed: %s", problems)
        down = ", ".join(sorted(problems))
        return JsonResponse(
            {
                "status": "down",
                "checks": checks,
                "error": {
                    "code": "service_unavailable",
                    "message": f"Unreachable: {down}.",
                    "details": problems,
                },
            },
            status=503,
        )
    return JsonResponse({"status": "ok", "checks": checks})
