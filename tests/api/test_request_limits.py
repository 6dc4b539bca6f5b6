"""Odd requests get the envelope and a 4xx: deep JSON, huge bodies, unknown paths, any mode."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.test import override_settings

from games.models import Move
from tests.api.helpers import client_for, start_human_game

pytestmark = pytest.mark.django_db


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [33, 1000, 100_000])
def test_deeply_nested_json_is_400_without_login(api_client, depth):
    response = api_client.post(
        "/api/v1/records/verify", data=nested(depth), content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_request"


def test_deeply_nested_json_in_a_move_is_400_and_changes_nothing():
    game_id, clients = start_human_game(4)
    body = '{"action": "play", "cards": ' + nested(1000) + "}"
    for client in clients:
        response = client.post(
            f"/api/v1/games/{game_id}/moves", data=body, content_type="application/json"
        )
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "malformed_request"
    assert not Move.objects.exists()


def test_json_nested_as_deep_as_a_record_is_fine(api_client):
    response = api_client.post(
        "/api/v1/records/verify", data=nested(32), content_type="application/json"
    )
    assert response.status_code == 400  # a list is not a record, but it was read
    assert response.json()["error"]["code"] == "invalid_input"


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1024)
def test_a_body_over_the_limit_is_413_in_the_envelope(api_client):
    record = {"format": "pusoy-dos-record/1", "padding": "x" * 2000}
    response = api_client.post("/api/v1/records/verify", record, format="json")
    assert response.status_code == 413
    assert response.json()["error"] == {
        "code": "payload_too_large",
        "message": "The body is larger than 1024 bytes.",
        "details": {"limit": 1024},
    }


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/no-such-thing",
        "/api/v1/games/not-a-uuid",
        "/api/v1/games/00000000-0000-0000-0000-000000000000",
        "/api/v1/games/00000000-0000-0000-0000-000000000000/deals/99999999999999999999/record",
        "/api/docs/nothing-here",
    ],
)
def test_unknown_api_paths_are_json_404s_in_every_mode(debug, path):
    client = client_for("ana")
    with override_settings(DEBUG=debug):
        response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"


@override_settings(DEBUG=True, ALLOWED_HOSTS=["api.example.com"])
def test_a_bad_host_header_is_a_json_400(api_client):
    response = api_client.get("/api/v1/leaderboard", HTTP_HOST="evil.example.com")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_the_asgi_entry_refuses_an_announced_oversized_body_before_reading_it():
    from pusoy_api.asgi import RefuseOversizedBodies

    sent: list[dict] = []
    reached = []

    async def app(scope, receive, send):
        reached.append(scope)

    async def receive():
        raise AssertionError("the body must not be read")

    async def send(message):
        sent.append(message)

    guard = RefuseOversizedBodies(app, limit=100)
    scope = {"type": "http", "headers": [(b"content-length", b"101")]}
    asyncio.run(guard(scope, receive, send))
    assert not reached
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"]["code"] == "payload_too_large"
    asyncio.run(guard({"type": "http", "headers": [(b"content-length", b"100")]}, receive, send))
    assert len(reached) == 1
