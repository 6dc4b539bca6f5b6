"""Reading a player's event feed through HTTP, as a client would."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient


def feed(client: APIClient, since: int = 0) -> list[dict[str, Any]]:
    """Every event after `since`, page after page (`since=last_id`)."""
    events: list[dict[str, Any]] = []
    while True:
        response = client.get(f"/api/v1/events?since={since}")
        assert response.status_code == 200, response.json()
        body = response.json()
        events += body["events"]
        if not body["events"]:
            assert body["last_id"] == since
            return events
        assert body["last_id"] == body["events"][-1]["id"]
        since = body["last_id"]


def types_of(events: list[dict[str, Any]], game_id: str | None = None) -> list[str]:
    return [e["type"] for e in events if game_id is None or e["game"] == game_id]


def cards_named(value: Any) -> set[str]:
    """Every string in a JSON value that is a card (two characters, rank and suit)."""
    ranks, suits = set("3456789TJQKA2"), set("CDHS")
    if isinstance(value, str):
        return {value} if len(value) == 2 and value[0] in ranks and value[1] in suits else set()
    if isinstance(value, dict):
        return {c for v in value.values() for c in cards_named(v)}
    if isinstance(value, list):
        return {c for v in value for c in cards_named(v)}
    return set()
