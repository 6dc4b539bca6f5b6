"""Celery tasks. Tasks are APIs: they take ids, call a service, and never hold model objects."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="games.ping")
def ping(payload: str = "pong") -> str:
    """Proves the round trip web -> broker -> worker -> result backend."""
    return payload


@shared_task(name="games.ai_move")
def ai_move(game_id: str, deal_number: int, seq: int) -> bool:
    """Placeholder until the AI flow lands: plays the AI seat's move now."""
    from games import services

    return services.ai_turn_play(game_id=game_id, deal_number=deal_number, expected_seq=seq)
