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


def _latest_deal(game_id: str) -> Deal:
    return Deal.objects.filter(game_id=game_id).order_by("-number").first()


def others_cards(game_id: str, seat: int) -> set[str]:
    """The cards in other seats' hands of the current deal: none once it has ended, when
    its record shows what each seat was left holding."""
    deal = _latest_deal(game_id)
    if deal.finished_at is not None:
        return set()
    hands = deal.snapshot["state"]["hands"]
    return {card for other, hand in enumerate(hands) if other != seat for card in hand}


def cards_held(game_id: str) -> int:
    """How many cards the seats of the current deal hold, hidden or not (once it has
    ended, what the losers were left with)."""
    return sum(len(hand) for hand in _latest_deal(game_id).snapshot["state"]["hands"])


def first_deal_on(game_id: str) -> bool:
    return Deal.objects.filter(game_id=game_id, number=1, finished_at__isnull=True).exists()


def everything_a_player_can_ask(client, game_id: str) -> list[Any]:
    """Every answer about the game and its current deal. Only the current deal: an
    ended deal's cards are public, and the next deal's hands hold the same 52 cards."""
    base = f"/api/v1/games/{game_id}"
    number = _latest_deal(game_id).number
    paths = [
        f"{base}/state",
        base,
        "/api/v1/games",
        "/api/v1/games?mine=true",
        "/api/v1/games?my_turn=true",
        f"{base}/moves",
        f"{base}/moves?deal={number}",
        f"{base}/deals/{number}/record",
        f"{base}/deals/{number}/replay",
        f"{base}/deals/{number}/replay?at=0",
    ]
    return [client.get(path).json() for path in paths]
