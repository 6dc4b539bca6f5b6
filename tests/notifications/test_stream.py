"""`GET events/stream` read by a real streaming client (httpx) from the real server
(gunicorn with the uvicorn worker, as scripts/serve.sh runs it) on PostgreSQL: events as
they commit, resumption with Last-Event-ID after a dropped connection (nothing lost,
nothing twice), tickets, keep-alives and the stream's lifetime, and a crowd of open
streams holding no database connection and no thread each."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings

from tests.faults.helpers import register
from tests.notifications.sse import StreamReader
from tests.throwaway import LiveServer, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

PG = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}
# Beside the run's own test databases, so two checkouts never share it, and one per xdist
# worker: when the module's tests are split across workers, each starts its own server
# (the module-scoped fixture), and two of them dropping one database broke each other.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
DB = f"{settings.DATABASES['default']['TEST']['NAME']}_stream{WORKER}"
POOL = 4


def _admin(sql: str) -> None:
    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        conn.execute(sql)


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    _admin(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
    _admin(f'CREATE DATABASE "{DB}"')
    live = LiveServer(
        {
            "DATABASE_URL": f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{DB}",
            "STREAM_TICKET_SECONDS": "2",
            "EVENTS_STREAM_KEEPALIVE_SECONDS": "0.5",
            "DB_POOL_MAX_SIZE": str(POOL),
        },
        name="stream",
    )
    try:
        live.start()
        yield live
    finally:
        print(f"\n===== server log =====\n{live.log()[-4000:]}")
        live.close()
        _admin(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')


def _url(server: LiveServer, query: str = "") -> str:
    return f"http://127.0.0.1:{server.port}/api/v1/events/stream{query}"


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}


def _two_player_game(server: LiveServer, a: str, b: str) -> str:
    game = server.call("POST", "/api/v1/games", {"seats": [{"type": "human"}] * 2}, token=a)
    assert game.status == 201, game
    joined = server.call("POST", f"/api/v1/games/{game.body['id']}/join", {}, token=b)
    assert joined.status == 200, joined
    return game.body["id"]


def _move(server: LiveServer, game_id: str, tokens: list[str], rng: random.Random) -> bool:
    """The player to move makes a random legal move; False once the game is over."""
    for token in tokens:
        state = server.call("GET", f"/api/v1/games/{game_id}/state", token=token).body
        if state["status"] != "active":
            return False
        if state["deal"]["turn"] == state["seat"]:
            move = rng.choice(state["deal"]["legal_moves"])
            body = {**move, "expected_seq": state["deal"]["seq"]}
            answer = server.call("POST", f"/api/v1/games/{game_id}/moves", body, token=token)
            assert answer.status == 201, answer
            return True
    raise AssertionError("nobody to move")


def _feed_ids(server: LiveServer, token: str) -> list[int]:
    ids: list[int] = []
    since = 0
    while True:
        body = server.call("GET", f"/api/v1/events?since={since}", token=token).body
        if not body["events"]:
            return ids
        ids += [e["id"] for e in body["events"]]
        since = body["last_id"]


def _started(reader: StreamReader) -> None:
    """The stream is open: its first message (the retry advice) arrived."""
    first = reader.next()
    assert first is not None, (reader.status, reader.error)
    assert first.retry is not None
    assert reader.status == 200
    assert reader.content_type.startswith("text/event-stream")


def test_events_arrive_as_they_commit_and_a_resumed_stream_loses_and_repeats_none(server):
    ana, ben = register(server, "sse_ana"), register(server, "sse_ben")
    rng = random.Random(21)
    reader = StreamReader(_url(server), _bearer(ana))
    _started(reader)
    game_id = _two_player_game(server, ana, ben)
    for _ in range(6):
        _move(server, game_id, [ana, ben], rng)
    received = reader.events(len(_feed_ids(server, ana)))
    first = received[0].json()
    assert received[0].event == "game_started"
    assert first["game"] == game_id
    assert all(m.event == m.json()["type"] and int(m.id) == m.json()["id"] for m in received)
    move = next(m.json() for m in received if m.event == "move")
    assert set(move["data"]) == {"deal", "seq", "seat", "action", "cards"}

    reader.close()  # the connection drops; the game goes on
    for _ in range(5):
        _move(server, game_id, [ana, ben], rng)
    resumed = StreamReader(_url(server), {**_bearer(ana), "Last-Event-ID": received[-1].id})
    _started(resumed)
    for _ in range(3):
        _move(server, game_id, [ana, ben], rng)
    expected = _feed_ids(server, ana)
    received += resumed.events(len(expected) - len(received))
    assert [int(m.id) for m in received] == expected
    resumed.close()


def test_a_stream_started_without_an_id_begins_after_the_connection(server):
    ana, ben = register(server, "sse_cia"), register(server, "sse_dan")
    game_id = _two_player_game(server, ana, ben)
    before = _feed_ids(server, ana)
    reader = StreamReader(_url(server, "?max_seconds=5"), _bearer(ana))
    _started(reader)
    _move(server, game_id, [ana, ben], random.Random(1))
    (event,) = reader.events(1)
    assert int(event.id) > max(before)
    assert event.event == "move"
    from_zero = StreamReader(_url(server, "?since=0&max_seconds=5"), _bearer(ana))
    _started(from_zero)
    assert [int(m.id) for m in from_zero.events(len(before))] == before
    reader.close()
    from_zero.close()


def test_a_ticket_opens_one_stream_once_and_expires(server):
    ana = register(server, "sse_eve")
    issued = server.call("POST", "/api/v1/events/ticket", token=ana)
    assert issued.status == 201, issued
    ticket = issued.body["ticket"]
    url = _url(server, f"?ticket={ticket}&max_seconds=1")
    reader = StreamReader(url, {"Accept": "text/event-stream"})
    _started(reader)
    reader.close()
    again = server.call("GET", f"/api/v1/events/stream?ticket={ticket}")
    assert (again.status, again.error_code()) == (401, "invalid_ticket")
    late = server.call("POST", "/api/v1/events/ticket", token=ana).body["ticket"]
    time.sleep(2.5)  # STREAM_TICKET_SECONDS=2 on this server
    expired = server.call("GET", f"/api/v1/events/stream?ticket={late}")
    assert (expired.status, expired.error_code()) == (401, "invalid_ticket")


def test_quiet_streams_get_keep_alives_and_end_at_their_lifetime(server):
    ana = register(server, "sse_fay")
    reader = StreamReader(_url(server, "?max_seconds=1.5"), _bearer(ana))
    _started(reader)
    comments: list[str] = []
    while (message := reader.next(timeout=15)) is not None:
        comments += message.comments
    assert "keep-alive" in comments
    assert reader.error is None  # ended by the server, cleanly
    reader.close()


def _worker(server: LiveServer) -> dict[str, Any]:
    assert server.process is not None
    master = server.process.pid
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    status = Path(f"/proc/{children[0]}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return {"threads": int(fields["Threads"]), "rss_kib": int(fields["VmRSS"].split()[0])}


def _backends() -> int:
    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [DB]
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_open_streams_hold_no_connection_and_no_thread_each(server):
    ana, ben = register(server, "sse_gus"), register(server, "sse_hal")
    game_id = _two_player_game(server, ana, ben)
    before = _worker(server)
    readers = [StreamReader(_url(server, "?max_seconds=60"), _bearer(ana)) for _ in range(40)]
    try:
        for reader in readers:
            _started(reader)
        _move(server, game_id, [ana, ben], random.Random(2))
        for reader in readers:
            assert reader.events(1)[0].event == "move"
        # Every stream is open and idle now: the pool (its size at most) and the LISTEN
        # connection are all the server holds, whatever the number of streams.
        time.sleep(0.5)
        assert _backends() <= POOL + 1
        during = _worker(server)
        assert during["threads"] - before["threads"] < 20, (before, during)
    finally:
        for reader in readers:
            reader.close()
    wait_for(lambda: _backends() <= POOL + 1, timeout=10, what="connections back")
