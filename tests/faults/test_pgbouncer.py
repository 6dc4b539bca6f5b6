"""The service behind PgBouncer in transaction pooling mode (how large deployments run
Django): whole games with many repeats of each query (psycopg would prepare them),
long-poll wake-ups through the direct LISTEN connection, and every game verifying
afterwards. A throwaway PostgreSQL and PgBouncer, the real web server."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest

from tests.faults.helpers import need, register
from tests.throwaway import ROOT, LiveServer, ThrowawayPgBouncer, pgbouncer_binary

pytestmark = pytest.mark.faults

DATABASE = "pusoy"


@dataclass
class Stack:
    server: LiveServer
    bouncer: ThrowawayPgBouncer
    direct_url: str


@pytest.fixture(scope="module")
def stack(postgres, logs, start_server) -> Iterator[Stack]:
    need(pgbouncer_binary() is not None, "pgbouncer")
    with psycopg.connect(postgres.url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {DATABASE}")
    direct = postgres.url.rsplit("/", 1)[0] + f"/{DATABASE}"
    # Fewer server connections than the web process's pool: transactions must share them.
    with ThrowawayPgBouncer(postgres.port, pool_size=3) as bouncer:
        logs.watch("pgbouncer", bouncer)
        server = start_server(
            {
                "DATABASE_URL": bouncer.url(DATABASE),
                "DB_PGBOUNCER": "1",
                "LISTEN_DATABASE_URL": direct,
                "DB_POOL_MAX_SIZE": "6",
            },
            name="web-behind-pgbouncer",
        )
        yield Stack(server, bouncer, direct)


def call_ok(server, method, path, token, body=None, **kwargs):
    answer = server.call(method, path, body, token=token, **kwargs)
    assert answer.status in (200, 201), answer
    return answer.body


def test_whole_games_and_long_poll_wake_ups_through_pgbouncer(stack):
    server = stack.server
    tokens = [register(server, name) for name in ("ana", "ben")]
    rng = random.Random(4)
    game_ids = []
    moves = 0
    # Every query of a move must run many times (past psycopg's prepare threshold, were
    # it on) on few server connections. The server shuffles, and a deal can end in 5
    # moves (CI once saw 10): play games until there have been enough moves.
    while len(game_ids) < 2 or moves <= 20:
        game = call_ok(
            server, "POST", "/api/v1/games", tokens[0], {"seats": [{"type": "human"}] * 2}
        )
        call_ok(server, "POST", f"/api/v1/games/{game['id']}/join", tokens[1], {})
        game_ids.append(game["id"])
        while True:
            states = [
                call_ok(server, "GET", f"/api/v1/games/{game['id']}/state", t) for t in tokens
            ]
            if states[0]["status"] != "active":
                break
            turn = states[0]["deal"]["turn"]
            other = 1 - turn
            seq = states[0]["deal"]["seq"]
            # The seat not to play waits for the move (LISTEN, past the pooler) ...
            result = {}

            def wait(token=tokens[other], seq=seq, game_id=game["id"], out=result):
                out["body"] = call_ok(
                    server, "GET", f"/api/v1/games/{game_id}/moves?since={seq}&wait=20", token,
                    timeout=40,
                )  # fmt: skip

            waiter = threading.Thread(target=wait)
            waiter.start()
            move = rng.choice(states[turn]["deal"]["legal_moves"])
            call_ok(server, "POST", f"/api/v1/games/{game['id']}/moves", tokens[turn], move)
            waiter.join(45)
            # ... and is answered with the move (woken, or it found it already there).
            assert [m["seq"] for m in result["body"]["moves"]][:1] == [seq + 1]
            moves += 1

    audit = subprocess.run(
        [sys.executable, "manage.py", "verify_game", *game_ids],
        cwd=ROOT,
        env={**server.env(), "DATABASE_URL": stack.direct_url},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "error" not in server.log().lower().replace("error_code", ""), server.log()[-4000:]


def test_settings_refuse_pgbouncer_without_a_direct_listen_url(tmp_path):
    env = {
        **LiveServer({}).env(),
        "DATABASE_URL": "postgres://postgres@127.0.0.1:1/x",
        "DB_PGBOUNCER": "1",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "LISTEN_DATABASE_URL" in result.stderr
