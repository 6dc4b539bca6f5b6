"""Webhook deliveries through the real stack: ``python -m benchmarks.load.webhooks``.

Creates a fresh PostgreSQL database, starts a Celery worker on Redis consuming only a
webhooks queue of its own, and a receiver (http.server on 127.0.0.1) in this process.
Then:

- latency: events are published one at a time, each in its own transaction, as the feed
  will; the time from the commit returning to the receiver reading the request, p50/p95;
- throughput: a batch of events published in one transaction; deliveries per second from
  the commit to the last one received, for the worker's concurrency.

Numbers only; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from benchmarks.load.api import PG, ROOT, admin, celery_worker, machine, pct

DB = "pusoy_bench_webhooks"
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
QUEUE = f"bench-webhooks-{uuid.uuid4().hex[:8]}"
DATABASE_URL = f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{DB}"
ENV = {
    "DATABASE_URL": DATABASE_URL,
    "DJANGO_SETTINGS_MODULE": "pusoy_api.settings.base",
    # Development mode: the receiver is on loopback (WEBHOOK_ALLOW_PRIVATE_URLS).
    "DEV_MODE": "1",
    "CELERY_BROKER_URL": BROKER,
    "CELERY_TASK_DEFAULT_QUEUE": QUEUE + "-default",
    "WEBHOOK_QUEUE": QUEUE,
    "DB_POOL_MAX_SIZE": "0",
    "CONN_MAX_AGE": "600",
    "LOG_LEVEL": "WARNING",
}


class Receiver:
    """Answers 204 at once and notes when each event id arrived."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.cond = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                now = time.perf_counter()
                with receiver.cond:
                    receiver.arrived[self.headers["Pusoy-Event-Id"]] = now
                    receiver.cond.notify_all()
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def wait(self, event_ids: list[str], timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not all(i in self.arrived for i in event_ids):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"{sum(i not in self.arrived for i in event_ids)} missing")
                self.cond.wait(left)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200, help="events timed one by one")
    parser.add_argument("--batch", type=int, default=1000, help="events of the throughput run")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
    args = parser.parse_args()
    print(machine())
    admin(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    admin(f"CREATE DATABASE {DB}")
    os.environ.update(ENV)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=dict(os.environ), check=True
    )
    import django

    django.setup()
    from django.db import transaction
    from django.utils import timezone

    from players.models import Player
    from webhooks import services

    logdir = Path(tempfile.mkdtemp(prefix="pusoy-webhooks-bench-"))
    receiver = Receiver()
    ana = Player.objects.create_user(username="bench_ana", password=uuid.uuid4().hex)
    services.webhook_create(owner=ana, url=receiver.url, events=["move"])
    next_id = iter(range(1, 10**9))

    def event() -> dict:
        return {
            "id": next(next_id),
            "type": "move",
            "game": str(uuid.uuid4()),
            "created_at": timezone.now().isoformat(),
            "data": {"seat": 1, "action": "play", "cards": ["3C"], "seq": 7},
            "player": str(ana.pk),
        }

    try:
        with celery_worker(QUEUE, {**os.environ, **ENV}, logdir / "worker.log", args.concurrency):
            # Warm-up: the worker's first task imports and connects.
            with transaction.atomic():
                warm = [event() for _ in range(10)]
                services.webhook_events_publish(events=warm)  # type: ignore[arg-type]
            receiver.wait([str(e["id"]) for e in warm])

            latencies = []
            publish_ms = []
            for _ in range(args.events):
                payload = event()
                started = time.perf_counter()
                with transaction.atomic():
                    services.webhook_events_publish(events=[payload])  # type: ignore[list-item]
                committed = time.perf_counter()
                publish_ms.append(committed - started)
                receiver.wait([str(payload["id"])])
                latencies.append(receiver.arrived[str(payload["id"])] - committed)
            print(f"\none event at a time ({args.events}), worker concurrency {args.concurrency}")
            print(
                f"  publish + commit       p50 {pct(publish_ms, 50) * 1000:7.1f} ms   "
                f"p95 {pct(publish_ms, 95) * 1000:7.1f} ms"
            )
            print(
                f"  commit -> receiver     p50 {pct(latencies, 50) * 1000:7.1f} ms   "
                f"p95 {pct(latencies, 95) * 1000:7.1f} ms"
            )

            batch = [event() for _ in range(args.batch)]
            started = time.perf_counter()
            with transaction.atomic():
                services.webhook_events_publish(events=batch)  # type: ignore[arg-type]
            committed = time.perf_counter()
            receiver.wait([str(e["id"]) for e in batch], timeout=600)
            last = max(receiver.arrived[str(e["id"])] for e in batch)
            print(f"\n{args.batch} events in one transaction")
            print(f"  publish + commit       {(committed - started) * 1000:7.1f} ms")
            print(
                f"  commit -> last one     {last - committed:7.2f} s   "
                f"({args.batch / (last - committed):.0f} deliveries/s)"
            )
    finally:
        from django.db import connections

        connections.close_all()
        receiver.server.shutdown()
        admin(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


if __name__ == "__main__":
    main()
