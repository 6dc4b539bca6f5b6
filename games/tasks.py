"""Celery tasks. Tasks are APIs: they take ids, call a service, and never hold model objects."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="games.ping")
def ping(payload: str = "pong") -> str:
    """Proves the round trip web -> broker -> worker -> result backend."""
    return payload
