"""What a response may not hold: another player's cards while their deal is on."""

from __future__ import annotations

import re
from typing import Any

from games.models import Deal

CARD = re.compile(r"^[2-9TJQKA][CSHD]$")
# Keys whose values name cards by rule (or dealt face up), not hidden in a hand.
PUBLIC_BY_RULE = {"required_card", "rules", "opening_card", "face_up_card"}


def cards_in(body: Any, key: str | None = None) -> set[str]:
    """Every card string in a JSON body, except rule-given ones."""
    if key in PUBLIC_BY_RULE:
        return set()
    if isinstance(body, dict):
        return set().union(*(cards_in(v, k) for k, v in body.items())) if body else set()
    if isinstance(body, list):
        return set().union(*(cards_in(v, key) for v in body)) if body else set()
    if isinstance(body, str) and CARD.match(body):
        return {body}
    return set()


def others_cards(game_id: str, seat: int) -> set[str]:
    deal = Deal.objects.filter(game_id=game_id).order_by("-number").first()
    hands = deal.snapshot["state"]["hands"]
    return {card for other, hand in enumerate(hands) if other != seat for card in hand}


def everything_a_player_can_ask(client, game_id: str) -> list[Any]:
    base = f"/api/v1/games/{game_id}"
    paths = [
        f"{base}/state",
        base,
        "/api/v1/games",
        "/api/v1/games?mine=true",
        "/api/v1/games?my_turn=true",
        f"{base}/moves",
        f"{base}/moves?deal=1",
        f"{base}/deals/1/record",
        f"{base}/deals/1/replay",
        f"{base}/deals/1/replay?at=0",
    ]
    return [client.get(path).json() for path in paths]
