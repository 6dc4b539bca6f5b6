"""Clients with a Web Push device on a local push service (receiver.py)."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from .receiver import Receiver, Subscription


def register(client: APIClient, body: dict[str, Any]) -> Any:
    return client.post("/api/v1/devices", body, format="json")


def register_webpush(
    client: APIClient, receiver: Receiver, locale: str = "en"
) -> tuple[Subscription, dict[str, Any]]:
    """A browser of this player subscribed at the receiver; (subscription, device)."""
    sub = receiver.subscribe()
    answer = register(client, {"platform": "webpush", **sub.as_json(), "locale": locale})
    assert answer.status_code == 201, answer.json()
    return sub, answer.json()


def devices(client: APIClient) -> list[dict[str, Any]]:
    answer = client.get("/api/v1/devices")
    assert answer.status_code == 200, answer.json()
    return answer.json()["results"]
