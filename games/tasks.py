"""Celery tasks. Tasks are APIs: they take ids, call a service, and never hold model objects.

Every task here is idempotent: an AI move or a timeout move is applied with the deal's
`expected_seq`, so a duplicated, retried, redelivered or late task applies nothing.
"""

from __future__ import annotations

from celery import shared_task

from games import services
from games.services import invitations, retention
from pusoy_api.transient import TRANSIENT


@shared_task(name="games.ping")
def ping(payload: str = "pong") -> str:
    """Proves the round trip web -> broker -> worker -> result backend."""
    return payload


@shared_task(
    name="games.ai_move",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=30,
    retry_jitter=True,
    max_retries=8,
)
def ai_move(game_id: str, deal_number: int, seq: int) -> bool:
    """Play the AI seat whose turn follows move `seq` of the deal."""
    return services.ai_turn_play(game_id=game_id, deal_number=deal_number, expected_seq=seq)


@shared_task(
    name="games.sweep_turns",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    max_retries=3,
)
def sweep_turns() -> dict[str, int]:
    """Periodic (celery beat): re-queue AI turns that have waited too long (a lost
    message, a killed worker) and play for humans whose move deadline has passed."""
    return services.turns_sweep()


@shared_task(name="games.purge_idempotency_keys", autoretry_for=TRANSIENT, max_retries=3)
def purge_idempotency_keys() -> int:
    """Periodic (celery beat): delete stored `Idempotency-Key` answers past their
    lifetime. How many went."""
    return retention.idempotency_keys_purge()


@shared_task(name="games.expire_invitations", autoretry_for=TRANSIENT, max_retries=3)
def expire_invitations() -> int:
    """Periodic (celery beat): pending invitations past their time become expired (their
    seats were free for others from that moment already)."""
    return invitations.invitations_expire()


@shared_task(name="games.warn_deadlines", autoretry_for=TRANSIENT, max_retries=3)
def warn_deadlines() -> int:
    """Periodic (celery beat): tell each human whose turn times out soon (`deadline_soon`,
    once per turn)."""
    return services.deadline_warnings_send()
