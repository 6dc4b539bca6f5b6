"""The logging configuration: one line per record on stderr, JSON or plain (LOG_FORMAT).

JSON (the production default) is for a log pipeline: every line is an object with the
time, level, logger, message, request id and, for errors, the traceback. Plain (the
default in development and tests) is for reading in a terminal. Both carry the request
id (pusoy_api.request_id), "-" outside a request or task.

What is logged never includes a player's cards or a token: log game ids, seats and
sequence numbers, never a deal's snapshot or an Authorization header.
"""

from __future__ import annotations

from typing import Any

FORMATS = ("json", "plain")
PLAIN = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
# The record attributes in a JSON line (renamed below to the keys log pipelines expect).
JSON_FIELDS = "%(levelname)s %(name)s %(request_id)s %(message)s"


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    formatters: dict[str, Any] = {
        "plain": {"format": PLAIN},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": JSON_FIELDS,
            "rename_fields": {"levelname": "level", "name": "logger"},
            # ISO 8601 in UTC, under "time".
            "timestamp": "time",
        },
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "pusoy_api.request_id.RequestIdFilter"}},
        "formatters": formatters,
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": log_format,
                "filters": ["request_id"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        # The HTTP/2 stack logs every header at DEBUG, and an APNs request's path holds
        # the device token; httpx logs whole URLs at INFO: none of it belongs in our logs
        # whatever LOG_LEVEL says (the push providers log status and reason themselves).
        "loggers": {
            "django.db.backends": {"level": "WARNING"},
            **{name: {"level": "WARNING"} for name in ("hpack", "h2", "httpcore", "httpx")},
        },
    }
