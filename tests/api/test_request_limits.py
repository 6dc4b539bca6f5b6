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
    from pusoy_api.body_limit import LimitRequestBodies

    sent: list[dict] = []
    reached = []

    async def app(scope, receive, send):
        reached.append(scope)

    async def receive():
        raise AssertionError("the body must not be read")

    async def send(message):
        sent.append(message)

    guard = LimitRequestBodies(app, limit=100)
    scope = {"type": "http", "headers": [(b"content-length", b"101")]}
    asyncio.run(guard(scope, receive, send))
    assert not reached
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"] == {
        "code": "payload_too_large",
        "message": "The body is larger than 100 bytes.",
        "details": {"limit": 100},
    }

    async def body_of_100():
        return {"type": "http.request", "body": b"x" * 100, "more_body": False}

    asyncio.run(
        guard({"type": "http", "headers": [(b"content-length", b"100")]}, body_of_100, send)
    )
    assert len(reached) == 1


# --- Through the served ASGI application (pusoy_api.asgi), as uvicorn calls it ---------------

CHUNK = 64 * 1024


class AsgiExchange:
    """One request through the served ASGI app: its body offered in `chunks` (as a
    server hands a chunked body on), what the app sent back, and how much it pulled."""

    def __init__(self, path: str, chunks: list[bytes], headers: dict[str, str]) -> None:
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"testserver")]
            + [(k.lower().encode(), v.encode()) for k, v in headers.items()],
            "client": ("127.0.0.1", 40000),
            "server": ("testserver", 80),
        }
        self.chunks = list(chunks)
        self.pulled = 0
        self.sent: list[dict] = []

    async def receive(self) -> dict:
        if not self.chunks:
            await asyncio.Event().wait()  # the client stays connected: wait to be cancelled
        chunk = self.chunks.pop(0)
        self.pulled += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": bool(self.chunks)}

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    def run(self) -> AsgiExchange:
        from pusoy_api.asgi import application

        asyncio.run(application(self.scope, self.receive, self.send))
        return self

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def headers(self) -> dict[bytes, bytes]:
        return dict(self.sent[0]["headers"])

    def json(self) -> dict:
        return json.loads(b"".join(m.get("body", b"") for m in self.sent[1:]))


def in_chunks(body: bytes) -> list[bytes]:
    return [body[i : i + CHUNK] for i in range(0, len(body), CHUNK)]


CHUNKED = {"content-type": "application/json", "transfer-encoding": "chunked"}


def test_a_chunked_body_over_the_limit_is_413_before_the_rest_is_read(settings):
    """No Content-Length to check: the bytes are counted as they come, and the answer is
    given as soon as they pass the limit; the rest is never pulled from the server."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    huge = b"[" + b" " * (20 * limit) + b"]"
    exchange = AsgiExchange("/api/v1/records/verify", in_chunks(huge), CHUNKED).run()
    assert exchange.status == 413
    assert exchange.headers[b"content-type"] == b"application/json"
    assert exchange.headers[b"connection"] == b"close"
    assert exchange.json() == {
        "error": {
            "code": "payload_too_large",
            "message": f"The body is larger than {limit} bytes.",
            "details": {"limit": limit},
        }
    }
    assert exchange.pulled <= limit + CHUNK, f"read {exchange.pulled} of {len(huge)} bytes"


def test_a_small_content_length_beside_chunked_framing_does_not_lift_the_limit(settings):
    """With both headers the server frames the body by its chunks (RFC 9112), so the
    Content-Length says nothing of its size: the bytes are counted all the same."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    huge = b"[" + b" " * (20 * limit) + b"]"
    exchange = AsgiExchange(
        "/api/v1/records/verify", in_chunks(huge), {**CHUNKED, "content-length": "5"}
    ).run()
    assert exchange.status == 413
    assert exchange.json()["error"]["details"] == {"limit": limit}
    assert exchange.pulled <= limit + CHUNK, f"read {exchange.pulled} of {len(huge)} bytes"


def test_a_chunked_body_under_the_limit_is_read_like_one_with_a_length(settings):
    # Spread over several chunks; not a record (a list), which the answer must say: a
    # body the API did not see would be verified as an empty object instead.
    body = b"[" + b" " * (3 * CHUNK) + b"1]"
    assert len(body) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    chunked = AsgiExchange("/api/v1/records/verify", in_chunks(body), CHUNKED).run()
    with_length = AsgiExchange(
        "/api/v1/records/verify",
        [body],
        {"content-type": "application/json", "content-length": str(len(body))},
    ).run()
    assert with_length.status == 400
    assert with_length.json()["error"]["code"] == "invalid_input"
    assert (chunked.status, chunked.json()) == (with_length.status, with_length.json())


def test_a_chunked_body_of_exactly_the_limit_is_taken(settings):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = b"[" + b" " * (limit - 2) + b"]"
    exchange = AsgiExchange("/api/v1/records/verify", in_chunks(body), CHUNKED).run()
    assert exchange.status == 400  # read and parsed: not a record
    assert exchange.json()["error"]["message"] == "A record is a JSON object."


def test_a_content_length_over_the_limit_is_413_with_the_limit_unread(settings):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    exchange = AsgiExchange(
        "/api/v1/records/verify",
        in_chunks(b" " * (limit + 1)),
        {"content-type": "application/json", "content-length": str(limit + 1)},
    ).run()
    assert exchange.status == 413
    assert exchange.json()["error"]["details"] == {"limit": limit}
    assert exchange.pulled == 0
