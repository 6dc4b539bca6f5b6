"""Celery tasks of the players app: the hourly purge of tokens past their idle expiry."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError


@shared_task(name="players.purge_idle_tokens", autoretry_for=(OperationalError, InterfaceError))
def purge_idle_tokens() -> int:
    """Periodic (celery beat): delete tokens unused for TOKEN_IDLE_TTL_DAYS (they no
    longer authenticate already), with their sessions, tickets and devices. How many."""
    from players.services import tokens_expired_purge

    return tokens_expired_purge()
