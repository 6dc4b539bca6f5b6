"""Pushes through the real stack: ``python -m benchmarks.load.push``.

Starts everything itself on loopback and stops it at the end: a fresh PostgreSQL database
(``pusoy_bench_push``, dropped afterwards), gunicorn (the uvicorn worker) with a Redis
broker, a Celery worker consuming only a push queue of its own, and a Web Push service in
this process (http.server on 127.0.0.1, answering 201). Then, over HTTP:

- 1,000 Web Push devices are registered (``--devices``): one for each of the four players
  of a latency game, and the rest spread over the four players of a fan-out game;
- latency: moves of the latency game one at a time; from the move's answer (its commit
  is just before) to the next player's push arriving at the service, p50/p95;
- throughput: moves of the fan-out game, each a push to every device of the next player;
  pushes per second from the move's answer to the last push arriving, per worker process.

Numbers only; nothing here asserts a time. The service does not decrypt (the tests do):
it reads the body and answers, as a fast push service would.
"""

from __future__ import annotations

import argparse
import base64
import os
import random
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from benchmarks.load.api import PG, ROOT, Http, Server, admin, celery_worker, machine, pct, register

DB = "pusoy_bench_push"
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/13")
QUEUE = f"bench-push-{uuid.uuid4().hex[:8]}"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def vapid_key() -> str:
    number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return b64(number.to_bytes(32, "big"))


def subscription_keys() -> dict[str, str]:
    public = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return {"p256dh": b64(public), "auth": b64(secrets.token_bytes(16))}


class PushService:
    """Answers 201 at once and notes when each path was pushed to."""

    def __init__(self) -> None:
        self.arrivals: list[tuple[str, float]] = []
        self.cond = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                now = time.perf_counter()
                with service.cond:
                    service.arrivals.append((self.path, now))
                    service.cond.notify_all()
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.request_queue_size = 256
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def wait(self, count: int, timeout: float = 300.0) -> None:
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.arrivals) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"{count - len(self.arrivals)} pushes missing")
                self.cond.wait(left)


def new_game(players: list[Http]) -> str:
    game = players[0].ok("POST", "/api/v1/games", {"seats": [{"type": "human"}] * 4})
    for player in players[1:]:
        player.ok("POST", f"/api/v1/games/{game['id']}/join", {})
    return str(game["id"])


def move(players: list[Http], game_id: str, rng: random.Random) -> int | None:
    """The seat to play plays a random legal move; the seat to play next (None: over)."""
    state = players[0].ok("GET", f"/api/v1/games/{game_id}/state")["deal"]
    turn = state["turn"]
    mine = players[turn].ok("GET", f"/api/v1/games/{game_id}/state")["deal"]
    body = players[turn].ok(
        "POST", f"/api/v1/games/{game_id}/moves", rng.choice(mine["legal_moves"])
    )
    after = body["state"]
    if after["status"] != "active" or after["deal"] is None or after["deal"]["is_over"]:
        return None
    return int(after["deal"]["turn"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=1000, help="registered devices")
    parser.add_argument("--moves", type=int, default=100, help="moves timed for latency")
    parser.add_argument("--fanout-moves", type=int, default=8, help="moves of the fan-out game")
    parser.add_argument("--concurrency", type=int, default=2, help="push worker processes")
    args = parser.parse_args()
    print(machine(), flush=True)
    admin(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    admin(f"CREATE DATABASE {DB}")
    service = PushService()
    extra = {
        "DATABASE_URL": f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{DB}",
        "CELERY_BROKER_URL": BROKER,
        "CELERY_RESULT_BACKEND": "",
        "CELERY_TASK_DEFAULT_QUEUE": QUEUE + "-default",
        "WEBHOOK_QUEUE": QUEUE + "-webhooks",
        "PUSH_QUEUE": QUEUE,
        "PUSH_VAPID_PRIVATE_KEY": vapid_key(),
        "PUSH_VAPID_SUBJECT": "mailto:bench@example.com",
        "PUSH_WEBPUSH_HOSTS": "*",
        "PUSH_MAX_DEVICES_PER_PLAYER": str(args.devices),
    }
    base_env = {
        **os.environ,
        **extra,
        "DJANGO_SETTINGS_MODULE": "pusoy_api.settings.base",
        "DEV_MODE": "1",
        "LOG_LEVEL": "WARNING",
    }
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=base_env,
            check=True,
        )
        worker_env = {**base_env, "DB_POOL_MAX_SIZE": "0", "CONN_MAX_AGE": "600"}
        with tempfile.TemporaryDirectory(prefix="pusoy-push-bench-") as tmp:
            logs = Path(tmp)
            with Server(1, 10, logs, extra_env=extra) as server:
                run(server, service, args, worker_env, logs)
    finally:
        service.server.shutdown()
        admin(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


def run(
    server: Server,
    service: PushService,
    args: argparse.Namespace,
    worker_env: dict[str, str],
    logs: Path,
) -> None:
    quick = register(server.port, 4, "pq")
    fan = register(server.port, 4, "pf")
    started = time.perf_counter()
    paths: dict[int, set[str]] = {}  # id() of a client -> its devices' paths
    owners = quick + [fan[i % 4] for i in range(args.devices - 4)]
    for client in owners:
        path = f"/push/{secrets.token_urlsafe(9)}"
        client.ok(
            "POST",
            "/api/v1/devices",
            {
                "platform": "webpush",
                "endpoint": service.origin + path,
                "keys": subscription_keys(),
            },
        )
        paths.setdefault(id(client), set()).add(path)
    took = time.perf_counter() - started
    print(f"\n{len(owners)} devices registered over HTTP in {took:.1f} s")

    rng = random.Random(7)
    with celery_worker(QUEUE, worker_env, logs / "push-worker.log", args.concurrency):
        quick_game = new_game(quick)
        # Warm-up: the worker's first tasks import, connect and open the keep-alive.
        service.wait(1, timeout=60)
        latencies: list[float] = []
        game = quick_game
        while len(latencies) < args.moves:
            before = len(service.arrivals)
            answered_turn = move(quick, game, rng)
            answered = time.perf_counter()
            if answered_turn is None:
                # The deal ended: its last pushes drain, then a new game (its first turn
                # pushed) before timing goes on.
                time.sleep(1)
                before = len(service.arrivals)
                game = new_game(quick)
                service.wait(before + 1)
                continue
            service.wait(before + 1)
            path, arrived = service.arrivals[before]
            assert path in paths[id(quick[answered_turn])]
            latencies.append(arrived - answered)
        print(
            f"\nlatency game: one device per player, {args.moves} moves, "
            f"push worker concurrency {args.concurrency}"
        )
        print(
            f"  move answered -> push received   p50 {pct(latencies, 50) * 1000:7.1f} ms   "
            f"p95 {pct(latencies, 95) * 1000:7.1f} ms"
        )

        time.sleep(1)
        before = len(service.arrivals)
        fan_game = new_game(fan)
        service.wait(before + len(paths[id(fan[0])]) - 1, timeout=300)
        time.sleep(1)
        rates: list[float] = []
        for _ in range(args.fanout_moves):
            before = len(service.arrivals)
            nxt = move(fan, fan_game, rng)
            answered = time.perf_counter()
            if nxt is None:
                break
            count = len(paths[id(fan[nxt])])
            service.wait(before + count)
            last = max(t for _, t in service.arrivals[before : before + count])
            rates.append(count / (last - answered))
        per_move = len(paths[id(fan[0])])
        print(f"\nfan-out game: ~{per_move} devices per player, {len(rates)} moves")
        print(
            f"  pushes/s, all workers            p50 {pct(rates, 50):7.0f}        "
            f"min {min(rates):7.0f}"
        )
        print(f"  pushes/s per worker process      p50 {pct(rates, 50) / args.concurrency:7.0f}")


if __name__ == "__main__":
    main()
