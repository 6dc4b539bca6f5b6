"""HTTP speed of the games API through the real stack: ``python -m benchmarks.load.api``.

Starts everything itself on loopback and stops it at the end: a fresh PostgreSQL
database (``pusoy_bench`` on 127.0.0.1:5432, user postgres, dropped afterwards) and
gunicorn on free ports, in each server model named by ``--servers`` (``MODELS``: the
served layout ``by-kind``, the one before it ``asgi``, and ``gthread`` for reference).
Prints:

1. per server model, interleaved in one loop (one client per model, sequential,
   keep-alive HTTP): POST move, GET state and GET players/me latency p50/p95, a bare
   psycopg ``INSERT`` + ``COMMIT`` on the same database between moves, the ratios of
   their p50s, and the web CPU per turn (the mover's GET state and its POST);
2. database queries per request (state, POST move, GET moves), early and late in a deal,
   counted in-process with ``CaptureQueriesContext``;
3. per server model: complete 4-player games per minute, played over HTTP by concurrent
   clients;
4. per server model that waits on an event loop: N clients waiting in
   ``GET moves?wait=30`` on one server process, then one move: time until each is woken,
   an ordinary request's latency while they wait, and the database connections and
   threads of the server meanwhile.

``--baseline DIR`` also runs each server model from another checkout (the code before a
change: ``git worktree add DIR main``), named ``MODEL@base``, interleaved with this one's
in the same run.

Numbers only: nothing here asserts a time. Options: ``--help``; the environment variable
BENCH_SETTINGS names another settings module for the server (to compare a change),
BENCH_DB another database name (two runs at once), BENCH_REDIS_URL a Redis for its cache.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import platform
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from uvicorn_worker import UvicornWorker

ROOT = Path(__file__).resolve().parents[2]
PG: dict[str, Any] = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}
# BENCH_DB: another name, so that two runs (old and new code) can share a machine.
DB = os.environ.get("BENCH_DB", "pusoy_bench")
PASSWORD = "bench-" + secrets.token_hex(8)
# A model named "MODEL@base" is served from the --baseline checkout, BASELINE, instead.
BASE_SUFFIX = "@base"
BASELINE: Path | None = None


# --- Helpers -----------------------------------------------------------------------------


def scalar(conn: psycopg.Connection[Any], sql: str, params: list[Any] | None = None) -> Any:
    """The one value a statement that always answers one row answers."""
    row = conn.execute(sql, params).fetchone()
    if row is None:
        raise RuntimeError(f"no row from {sql!r}")
    return row[0]


@contextlib.contextmanager
def celery_worker(
    queue: str, env: dict[str, str], log_path: Path, concurrency: int
) -> Iterator[None]:
    """A `celery worker` process on `queue` (its own process group), stopped on exit."""
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "pusoy_api", "worker", "-Q", queue,
             "--concurrency", str(concurrency), "--loglevel", "WARNING", "--without-gossip",
             "--without-mingle", "--without-heartbeat", "-n", f"{queue}@%h"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            time.sleep(4)
            if proc.poll() is not None:
                raise RuntimeError(f"celery worker exited; see {log.name}")
            yield
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return (
        f"p50 {pct(values, 50) * 1000:.2f} ms, p95 {pct(values, 95) * 1000:.2f} ms, "
        f"max {max(values) * 1000:.2f} ms (n={len(values)})"
    )


def stop_group(process: subprocess.Popen) -> None:
    """SIGTERM a process started with start_new_session=True and its children; SIGKILL
    what is left after 20 s."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def admin(sql: str) -> None:
    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        conn.execute(sql)


def database_create(env: dict[str, str] | None = None) -> None:
    """A new database DB (one a run left behind is dropped first), migrated with `env`
    (default: a server's, server_env)."""
    admin(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    admin(f"CREATE DATABASE {DB}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env if env is not None else server_env(0, 1, 1),
        check=True,
    )


def database_drop() -> None:
    admin(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


def db_connections(exclude: set[int]) -> dict[str, int]:
    """Connections to the bench database by state, not counting the given backends."""
    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        rows = conn.execute(
            "SELECT coalesce(state, '?'), count(*) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> ALL(%s) GROUP BY 1",
            [DB, list(exclude)],
        ).fetchall()
    return dict(rows)


def server_env(port: int, workers: int, pool: int) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"CELERY_BROKER_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DATABASE_URL"}
    }
    env.update(
        DATABASE_URL=f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{DB}",
        # BENCH_REDIS_URL: the cache in Redis, as in production (unset: per-process memory).
        REDIS_URL=os.environ.get("BENCH_REDIS_URL", ""),
        DJANGO_SETTINGS_MODULE=os.environ.get("BENCH_SETTINGS", "pusoy_api.settings.base"),
        SECRET_KEY="bench-" + secrets.token_hex(24),
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        THROTTLE_AUTH="1000000/min",
        THROTTLE_WRITES="1000000/min",
        DB_POOL_MAX_SIZE=str(pool),
        DB_POOL_TIMEOUT="30",
        LOG_LEVEL="WARNING",
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY=str(workers),
    )
    return env


class AsgiBeforeWorker(UvicornWorker):
    """uvicorn as the layout before issue 41 ran it: its pure-Python HTTP parser (h11) and
    asyncio's loop (httptools and uvloop were not installed then)."""

    CONFIG_KWARGS = {"loop": "asyncio", "http": "h11"}


@dataclass(frozen=True)
class Model:
    """A way to run the web server: gunicorn with `worker_class` (the config's own when
    None) serving `app`."""

    app: str
    worker_class: str | None
    describe: str
    waits_on_loop: bool = True


MODELS = {
    "by-kind": Model(
        "pusoy_api.asgi:application",
        None,
        "gunicorn + uvicorn workers (httptools, uvloop): plain requests on Django's WSGI"
        " handler in a thread pool, waits and streams on its ASGI handler (served today)",
    ),
    "asgi": Model(
        "pusoy_api.asgi:asgi_only",
        "benchmarks.load.api.AsgiBeforeWorker",
        "gunicorn + uvicorn workers (h11, asyncio): every request through Django's ASGI"
        " handler (the layout before issue 41)",
    ),
    "gthread": Model(
        "pusoy_api.wsgi:application",
        "gthread",
        "gunicorn gthread workers (WEB_THREADS threads), WSGI only: each wait holds a"
        " thread (for reference; not served)",
        waits_on_loop=False,
    ),
}


def add_baseline_argument(parser: argparse.ArgumentParser, order: str) -> None:
    """`--baseline DIR`, another checkout each server model also runs from, as MODEL@base
    (`server_models`); `order` tells, in the help, how its runs stand beside this one's."""
    parser.add_argument(
        "--baseline",
        type=Path,
        help=f"another checkout (the code before a change): each model {order}",
    )


def server_models(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """The server models `--servers` names, comma-separated (an unknown one is a usage
    error); with `--baseline`, each preceded by its MODEL@base, served from that checkout
    (set as BASELINE)."""
    global BASELINE
    models = args.servers.split(",")
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        parser.error(f"unknown server model(s) {unknown}; known: {', '.join(MODELS)}")
    if args.baseline is not None:
        BASELINE = args.baseline.resolve()
        models = [m for name in models for m in (name + BASE_SUFFIX, name)]
    return models


def model_described(name: str) -> str:
    """A server model's description, with the checkout it runs from for a MODEL@base."""
    model, base, _ = name.partition(BASE_SUFFIX)
    where = f" (from {BASELINE})" if base else ""
    return f"{MODELS[model].describe}{where}"


@dataclass
class Server:
    """gunicorn on loopback in one of MODELS; stopped (and its process group) on exit."""

    workers: int
    pool: int
    logdir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    # Extra environment for the server (e.g. a Celery broker for AI benchmarks).
    extra_env: dict[str, str] = field(default_factory=dict)
    model: str = "by-kind"

    @property
    def pid(self) -> int:
        """The gunicorn master's pid, once started."""
        if self.proc is None:
            raise RuntimeError("the server has not been started")
        return self.proc.pid

    def __enter__(self) -> Server:
        log = open(self.logdir / f"gunicorn-{self.port}.log", "wb")
        name, base, _ = self.model.partition(BASE_SUFFIX)
        model = MODELS[name]
        root = BASELINE if base and BASELINE is not None else ROOT
        extra_env = {**self.extra_env, "PYTHONPATH": str(root)} if base else self.extra_env
        command = [str(Path(sys.executable).with_name("gunicorn")), "-c"]
        command.append("pusoy_api/gunicorn_conf.py")
        if model.worker_class == "gthread":
            threads = self.extra_env.get("WEB_THREADS", "8")
            command += ["--worker-class", "gthread", "--threads", threads]
        elif model.worker_class:
            command += ["--worker-class", model.worker_class]
        self.proc = subprocess.Popen(
            [*command, model.app],
            cwd=root,
            env={**server_env(self.port, self.workers, self.pool), **extra_env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {log.name}")
            with contextlib.suppress(OSError):
                up = Http(self.port).call("GET", "/healthz")[0] in (200, 503)
                if up and len(self.worker_pids()) == self.workers:
                    return self
            time.sleep(0.2)
        self.__exit__()
        raise RuntimeError("gunicorn did not come up")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            stop_group(self.proc)

    def worker_pids(self) -> list[int]:
        assert self.proc is not None
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(p) for p in path.read_text().split()] if path.exists() else []

    def worker_cpu_seconds(self) -> float:
        stat = Path(f"/proc/{self.worker_pids()[0]}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def workers_cpu_seconds(self) -> float:
        """User + system CPU of all its worker processes so far."""
        total = 0
        for pid in self.worker_pids():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def worker_stats(self) -> dict[str, int]:
        """Threads and resident memory (MiB) of the first worker process."""
        status = Path(f"/proc/{self.worker_pids()[0]}/status").read_text()
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        return {
            "threads": int(fields["Threads"]),
            "rss_mib": int(fields["VmRSS"].split()[0]) // 1024,
        }


class Http:
    """One keep-alive HTTP/1.1 connection, as a mobile client would hold."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port, self.token = port, token
        self.conn: http.client.HTTPConnection | None = None
        self.last = 0.0

    @property
    def bearer(self) -> str:
        """The token of a client that has one (every registered player)."""
        if self.token is None:
            raise RuntimeError("an anonymous client has no token")
        return self.token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        """(status, JSON body, seconds from sending to the last byte)."""
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in range(2):
            # The server drops idle keep-alive connections after 5 s: reconnect first.
            if self.conn is None or time.monotonic() - self.last > 4:
                if self.conn is not None:
                    self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                started = time.perf_counter()
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                elapsed = time.perf_counter() - started
                break
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt or method != "GET":
                    raise
        self.last = time.monotonic()
        ctype = response.getheader("Content-Type", "")
        return response.status, json.loads(raw) if "json" in ctype and raw else raw, elapsed

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, data, _ = self.call(method, path, body)
        if status not in (200, 201):
            raise RuntimeError(f"{method} {path} -> {status}: {data}")
        return data


def register(port: int, n: int, prefix: str) -> list[Http]:
    clients = []
    for i in range(n):
        name = f"{prefix}{i}_{secrets.token_hex(3)}"
        body = Http(port).ok(
            "POST", "/api/v1/auth/register", {"username": name, "password": PASSWORD}
        )
        clients.append(Http(port, body["token"]))
    return clients


def new_game(players: list[Http]) -> str:
    """A 4-human game, every seat taken (so dealt); seat i is players[i]."""
    game = players[0].ok("POST", "/api/v1/games", {"seats": [{"type": "human"}] * 4})
    for player in players[1:]:
        player.ok("POST", f"/api/v1/games/{game['id']}/join", {})
    return game["id"]


def play_turn(
    players: list[Http], game_id: str, turn: int, rng: random.Random
) -> tuple[float, dict[str, Any]]:
    """The seat to play reads its state and plays a random legal move (as the API lists
    them); returns the POST's latency and the mover's state after it."""
    post_seconds, _, state = timed_turn(players, game_id, turn, rng)
    return post_seconds, state


def timed_turn(
    players: list[Http], game_id: str, turn: int, rng: random.Random
) -> tuple[float, float, dict[str, Any]]:
    """play_turn, also timing the mover's GET state: (POST seconds, GET seconds, state)."""
    client = players[turn]
    status, body, get_seconds = client.call("GET", f"/api/v1/games/{game_id}/state")
    if status != 200:
        raise RuntimeError(f"GET state -> {status}: {body}")
    state = body["deal"]
    move = rng.choice(state["legal_moves"])
    status, body, elapsed = client.call(
        "POST", f"/api/v1/games/{game_id}/moves", {**move, "expected_seq": state["seq"]}
    )
    if status != 201:
        raise RuntimeError(f"move refused: {status} {body}")
    return elapsed, get_seconds, body["state"]


def next_turn(state: dict[str, Any]) -> int | None:
    if state["status"] != "active" or state["deal"] is None or state["deal"]["is_over"]:
        return None
    return state["deal"]["turn"]


def first_turn(players: list[Http], game_id: str) -> int:
    return players[0].ok("GET", f"/api/v1/games/{game_id}/state")["deal"]["turn"]


# --- 1. Move latency next to a bare commit -----------------------------------------------------


def bench_move_latency(servers: dict[str, Server], moves: int) -> dict[str, Any]:
    """Each server model's own four players and games, their turns interleaved (one turn
    on each model in turn, a bare commit after each), so every model meets the same
    moments of a shared machine's load."""
    rng = random.Random(1)
    players = {name: register(server.port, 4, f"lat{name[:2]}") for name, server in servers.items()}
    games = dict.fromkeys(servers, "")
    turns: dict[str, int | None] = dict.fromkeys(servers)
    times: dict[str, dict[str, list[float]]] = {
        name: {"move": [], "state": [], "me": []} for name in servers
    }
    cpu = dict.fromkeys(servers, 0.0)
    commit_times: list[float] = []
    payload = json.dumps({"action": "play", "cards": ["3C", "3D", "3H"], "pad": "x" * 200})
    with psycopg.connect(dbname=DB, **PG) as bare:
        bare.execute(
            "CREATE TABLE IF NOT EXISTS bench_commit"
            " (id bigserial PRIMARY KEY, payload jsonb, created_at timestamptz DEFAULT now())"
        )
        bare.commit()
        for _ in range(5):  # warm-up: connections, caches
            bare.execute("INSERT INTO bench_commit (payload) VALUES (%s)", [payload])
            bare.commit()
        for i in range(moves + 10):
            for name, server in servers.items():
                if turns[name] is None:
                    games[name] = new_game(players[name])
                    turns[name] = first_turn(players[name], games[name])
                before = server.workers_cpu_seconds()
                post, get, state = timed_turn(players[name], games[name], turns[name] or 0, rng)
                if i >= 10:  # the first turns warm each server up
                    cpu[name] += server.workers_cpu_seconds() - before
                    times[name]["move"].append(post)
                    times[name]["state"].append(get)
                turns[name] = next_turn(state)
                started = time.perf_counter()
                bare.execute("INSERT INTO bench_commit (payload) VALUES (%s)", [payload])
                bare.commit()
                if i >= 10:
                    commit_times.append(time.perf_counter() - started)
    # The framework's floor: an authenticated GET that reads one row after the token.
    for _ in range(200):
        for name in servers:
            times[name]["me"].append(players[name][0].call("GET", "/api/v1/players/me")[2])
    commit = pct(commit_times, 50)
    return {
        "commit": commit_times,
        "models": {
            name: {
                **series,
                "ratio": pct(series["move"], 50) / commit,
                "state_ratio": pct(series["state"], 50) / commit,
                "me_ratio": pct(series["me"], 50) / commit,
                "cpu_per_turn": cpu[name] / moves,
            }
            for name, series in times.items()
        },
    }


# --- 3. Games per minute ------------------------------------------------------------------------


def bench_games_per_minute(
    server: Server, parallel: int, seconds: float, players: list[Http] | None = None
) -> dict[str, Any]:
    players = players or register(server.port, 4 * parallel, "gpm")
    finished = [0] * parallel
    moves = [0] * parallel
    errors: list[BaseException] = []
    stop_at = time.monotonic() + seconds
    started = time.monotonic()
    ends: list[float] = []

    def run(i: int) -> None:
        mine = players[4 * i : 4 * i + 4]
        rng = random.Random(100 + i)
        try:
            while time.monotonic() < stop_at and finished[i] < 500:
                game_id = new_game(mine)
                turn: int | None = first_turn(mine, game_id)
                for _ in range(2000):  # a deal is far shorter; bounded anyway
                    if turn is None:
                        break
                    _, state = play_turn(mine, game_id, turn, rng)
                    moves[i] += 1
                    turn = next_turn(state)
                finished[i] += 1
        except BaseException as exc:  # reported, not hidden
            errors.append(exc)
        finally:
            ends.append(time.monotonic())

    threads = [threading.Thread(target=run, args=(i,)) for i in range(parallel)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = max(ends) - started
    return {
        "games": sum(finished),
        "moves": sum(moves),
        "seconds": elapsed,
        "per_minute": sum(finished) / elapsed * 60,
        "errors": [repr(e) for e in errors],
    }


# --- 4. Long-poll -------------------------------------------------------------------------------


async def long_poll_request(port: int, path: str, token: str) -> tuple[int, Any, float]:
    """One raw HTTP/1.1 GET on its own connection: (status, body, time it completed)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            "Accept: application/json\r\nConnection: close\r\n\r\n".encode()
        )
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        done = time.monotonic()
        lines = head.decode("latin1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(
            int(v)
            for k, _, v in (h.partition(":") for h in lines[1:])
            if k.lower() == "content-length"
        )
        body = json.loads(await reader.readexactly(length))
        return status, body, done
    finally:
        writer.close()


async def bench_long_poll(server: Server, waiters: int) -> dict[str, Any]:
    players = await asyncio.to_thread(register, server.port, 5, "lp")
    watcher, players = players[4], players[:4]
    game_id = await asyncio.to_thread(new_game, players)
    turn = await asyncio.to_thread(first_turn, players, game_id)
    probe = players[(turn + 1) % 4]

    def ordinary_latency(n: int = 100) -> list[float]:
        return [probe.call("GET", f"/api/v1/games/{game_id}/state")[2] for _ in range(n)]

    idle = {
        "latency": await asyncio.to_thread(ordinary_latency),
        "server": server.worker_stats(),
        "db": await asyncio.to_thread(db_connections, set()),
    }
    path = f"/api/v1/games/{game_id}/moves?since=0&wait=30"
    sent = time.monotonic()
    tasks = []
    for i in range(waiters):
        tasks.append(asyncio.create_task(long_poll_request(server.port, path, watcher.bearer)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    # Every waiter has had its first answer once the worker's CPU is quiet again.
    cpu = server.worker_cpu_seconds()
    for _ in range(120):
        await asyncio.sleep(0.5)
        now = server.worker_cpu_seconds()
        busy, cpu = now - cpu, now
        if busy < 0.05:
            break
    early = [t for t in tasks if t.done()]
    settled = time.monotonic() - sent
    cpu = server.worker_cpu_seconds()
    await asyncio.sleep(5)
    quiet_cpu = (server.worker_cpu_seconds() - cpu) / 5
    waiting = {
        "cpu_share": quiet_cpu,
        "latency": await asyncio.to_thread(ordinary_latency),
        "server": server.worker_stats(),
        "db": await asyncio.to_thread(db_connections, set()),
        "answered_early": len(early),
        "settle_seconds": settled,
    }
    moved_at = time.monotonic()
    post_seconds, _ = await asyncio.to_thread(play_turn, players, game_id, turn, random.Random(5))
    results = await asyncio.wait_for(asyncio.gather(*tasks), 60)
    woken = [done - moved_at for status, body, done in results if status == 200 and body["moves"]]
    return {
        "waiters": waiters,
        "idle": idle,
        "waiting": waiting,
        "post_seconds": post_seconds,
        "woken": woken,
        "not_woken": waiters - len(woken),
        "after": server.worker_stats(),
    }


# --- 2. Queries per request (in-process) ------------------------------------------------------


def bench_query_counts() -> dict[str, dict[str, int]]:
    os.environ.update(server_env(0, 1, 4))
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from players.models import Player
    from players.services import token_issue

    clients = []
    for i in range(4):
        player = Player.objects.create_user(username=f"qc{i}_{secrets.token_hex(3)}")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(player=player)}")
        clients.append(client)
    game = clients[0].post("/api/v1/games", {"seats": [{"type": "human"}] * 4}, format="json")
    game_id = game.json()["id"]
    for client in clients[1:]:
        client.post(f"/api/v1/games/{game_id}/join", {}, format="json")
    rng = random.Random(3)

    def counted(request) -> tuple[int, Any]:
        with CaptureQueriesContext(connection) as captured:
            response = request()
        return len(captured.captured_queries), response.json()

    def one_turn() -> dict[str, int]:
        seat = clients[0].get(f"/api/v1/games/{game_id}/state").json()["deal"]["turn"]
        client = clients[seat]
        counts: dict[str, int] = {}
        counts["GET state"], state = counted(lambda: client.get(f"/api/v1/games/{game_id}/state"))
        deal = state["deal"]
        counts["GET moves (whole deal)"], _ = counted(
            lambda: client.get(f"/api/v1/games/{game_id}/moves")
        )
        counts["GET moves?since=seq-2"], _ = counted(
            lambda: client.get(f"/api/v1/games/{game_id}/moves?since={max(0, deal['seq'] - 2)}")
        )
        move = {**rng.choice(deal["legal_moves"]), "expected_seq": deal["seq"]}
        counts["POST move"], _ = counted(
            lambda: client.post(f"/api/v1/games/{game_id}/moves", move, format="json")
        )
        counts["seq"] = deal["seq"]
        return counts

    turns = [one_turn() for _ in range(30)]
    connection.close()
    return {"early": turns[2], "late": turns[-1]}


# --- Report ------------------------------------------------------------------------------------


def machine() -> str:
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = "?"
    with contextlib.suppress(OSError):
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kib / 1024 / 1024:.0f} GiB"
    with psycopg.connect(dbname="postgres", **PG) as conn:
        version = scalar(conn, "SHOW server_version")
        sync = scalar(conn, "SHOW synchronous_commit")
        fsync = scalar(conn, "SHOW fsync")
    return (
        f"{cpu}, {os.cpu_count()} CPUs, {mem} RAM; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}; PostgreSQL {version} on loopback "
        f"(fsync={fsync}, synchronous_commit={sync}); client and server on the same machine"
    )


def print_long_poll(name: str, lp: dict[str, Any]) -> None:
    print(f"\n4. [{name}] long-poll, one worker process, {lp['waiters']} clients in wait=30:")
    print(
        f"   all first answers done {lp['waiting']['settle_seconds']:.1f} s after sending;"
        f" answered before the move: {lp['waiting']['answered_early']}"
    )
    print(
        f"   worker CPU while they wait, nothing else happening:"
        f" {lp['waiting']['cpu_share'] * 100:.1f}% of a core"
    )
    print("   ordinary GET state, no waiters:   ", ms(lp["idle"]["latency"]))
    print("   ordinary GET state, while waiting:", ms(lp["waiting"]["latency"]))
    print(f"   POST move that wakes them: {lp['post_seconds'] * 1000:.1f} ms")
    if lp["woken"]:
        print("   time from sending the move until woken:", ms(lp["woken"]))
    print(f"   not woken with the move: {lp['not_woken']}")
    print(f"   DB connections by state, idle server:  {lp['idle']['db']}")
    print(f"   DB connections by state, while waiting: {lp['waiting']['db']}")
    print(f"   worker process, idle:    {lp['idle']['server']}")
    print(f"   worker process, waiting: {lp['waiting']['server']}")
    print(f"   worker process, after:   {lp['after']}", flush=True)


def print_latency(lat: dict[str, Any]) -> None:
    print("\n1. one client per server model, sequential, the models' turns interleaved:")
    print("   bare INSERT+COMMIT (psycopg):  ", ms(lat["commit"]))
    for name, series in lat["models"].items():
        print(f"   [{name}]")
        print("   POST move:                     ", ms(series["move"]))
        print("   GET state (the mover's, first):", ms(series["state"]))
        print("   for scale, GET players/me:     ", ms(series["me"]))
        print(
            f"   move p50 / commit p50 = {series['ratio']:.1f}x (goal: <= 5x);"
            f" GET players/me p50 / commit p50 = {series['me_ratio']:.1f}x,"
            f" GET state p50 / commit p50 = {series['state_ratio']:.1f}x (goal: <= 2x)"
        )
        print(
            f"   web CPU per turn (GET state + POST move): {series['cpu_per_turn'] * 1000:.1f} ms",
            flush=True,
        )


def bench_models_concurrent(models: list[str], args: argparse.Namespace, logs: Path) -> None:
    """Concurrent games on each model in turn, in ROUNDS short rounds, so that every model
    meets the same stretches of a shared machine's load."""
    rounds = 3
    totals: dict[str, dict[str, Any]] = {
        name: {"games": 0, "moves": 0, "seconds": 0.0, "errors": []} for name in models
    }
    with contextlib.ExitStack() as stack:
        servers = {
            name: stack.enter_context(Server(args.workers, args.pool, logs, model=name))
            for name in models
        }
        players = {
            name: register(server.port, 4 * args.parallel, "gpm")
            for name, server in servers.items()
        }
        for _ in range(rounds):
            for name, server in servers.items():
                gpm = bench_games_per_minute(
                    server, args.parallel, args.seconds / rounds, players[name]
                )
                for key in ("games", "moves", "seconds", "errors"):
                    totals[name][key] += gpm[key]
    print(
        f"\n3. {args.parallel} concurrent games (each move = GET state + POST move),"
        f" {rounds} rounds of {args.seconds / rounds:.0f} s per model, alternated:"
    )
    for name, total in totals.items():
        print(
            f"   [{name}] {total['games']} complete 4-player games ({total['moves']} moves)"
            f" in {total['seconds']:.1f} s = {total['games'] / total['seconds'] * 60:.1f}"
            f" games/min, {total['moves'] / total['seconds']:.0f} moves/s;"
            f" errors: {total['errors'] or 'none'}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400, help="moves timed for latency")
    parser.add_argument("--parallel", type=int, default=8, help="games played at once")
    parser.add_argument("--seconds", type=float, default=60, help="games-per-minute run time")
    parser.add_argument("--waiters", type=int, default=500, help="long-poll clients")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (1-3)")
    parser.add_argument("--pool", type=int, default=10, help="DB_POOL_MAX_SIZE per worker")
    parser.add_argument(
        "--servers",
        default="by-kind,asgi",
        help=f"server models, comma-separated, side by side in one run: {', '.join(MODELS)}",
    )
    parser.add_argument(
        "--sections", default="1,2,3,4", help="which of the numbered measures to run"
    )
    add_baseline_argument(
        parser, f"also runs from it, as MODEL{BASE_SUFFIX}, interleaved with this checkout's"
    )
    args = parser.parse_args()
    models = server_models(parser, args)
    sections = set(args.sections.split(","))

    print(f"machine: {machine()}", flush=True)
    try:
        database_create()
        with tempfile.TemporaryDirectory(prefix="pusoy-bench-") as tmp:
            logs = Path(tmp)
            print(f"\n{args.workers} worker(s) per server, DB_POOL_MAX_SIZE={args.pool}, DEBUG off")
            for name in models:
                print(f"   [{name}] {model_described(name)}", flush=True)
            if "1" in sections:
                with contextlib.ExitStack() as stack:
                    servers = {
                        name: stack.enter_context(Server(args.workers, args.pool, logs, model=name))
                        for name in models
                    }
                    print_latency(bench_move_latency(servers, args.moves))
            if "3" in sections:
                bench_models_concurrent(models, args, logs)
            for name in models if "4" in sections else []:
                if not MODELS[name.partition(BASE_SUFFIX)[0]].waits_on_loop:
                    continue
                with Server(1, args.pool, logs, model=name) as server:
                    print_long_poll(name, asyncio.run(bench_long_poll(server, args.waiters)))
        if "2" in sections:
            counts = bench_query_counts()
            print("\n2. database queries per request (in-process, CaptureQueriesContext):")
            for name in counts["early"]:
                if name != "seq":
                    print(
                        f"   {name:24} early (seq {counts['early']['seq']}):"
                        f" {counts['early'][name]:3}"
                        f"   late (seq {counts['late']['seq']}): {counts['late'][name]:3}"
                    )
    finally:
        database_drop()


if __name__ == "__main__":
    main()
