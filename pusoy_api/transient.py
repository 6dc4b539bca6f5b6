"""Database trouble worth a task's retry (a failover, a dropped connection): every app's
Celery tasks retry these with backoff (`autoretry_for=TRANSIENT`); anything else is a bug
and should surface."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

TRANSIENT: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
