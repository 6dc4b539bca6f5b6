"""AI reply latency through the real stack: ``python -m benchmarks.load.ai_latency``.

Starts, on loopback, a fresh PostgreSQL database, gunicorn (uvicorn workers) and a Celery
worker on Redis (its own queue), then plays games of one human and three AI seats of one
level. For every human move that three AI replies follow in the same deal, it times from
sending the human's POST to the moment the client knows all three replies are applied,
learning it the way a mobile client would: ``GET moves?since=SEQ&wait=30``.

Numbers only; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from benchmarks.load.api import DB, PG, ROOT, Http, Server, admin, machine, pct, register

BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
QUEUE = f"bench-{uuid.uuid4().hex[:8]}"


class Worker:
    """A `celery worker` process (prefork, both cores) sharing the bench database."""

    def __init__(self, logdir: Path, concurrency: int) -> None:
        self.logdir, self.concurrency = logdir, concurrency
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Worker:
        env = dict(os.environ)
        env.update(
            DATABASE_URL=f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{DB}",
            DJANGO_SETTINGS_MODULE="pusoy_api.settings.base",
            SECRET_KEY="bench-worker-" + uuid.uuid4().hex * 2,
            CELERY_BROKER_URL=BROKER,
            CELERY_TASK_DEFAULT_QUEUE=QUEUE,
            DB_POOL_MAX_SIZE="0",
            CONN_MAX_AGE="600",
            LOG_LEVEL="WARNING",
        )
        log = open(self.logdir / "worker.log", "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "pusoy_api", "worker", "-Q", QUEUE,
             "--concurrency", str(self.concurrency), "--loglevel", "WARNING",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        time.sleep(3)
        if self.proc.poll() is not None:
            raise RuntimeError(f"celery worker exited; see {log.name}")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


def new_ai_game(human: Http, level: str) -> str:
    seats = [{"type": "human"}] + [{"type": "ai", "level": level}] * 3
    return human.ok("POST", "/api/v1/games", {"seats": seats, "target_deals": 50})["id"]


def ai_replies(human: Http, game_id: str, level: str, turns: int, rng: random.Random) -> list:
    """Seconds from each human POST to all three AI replies applied."""
    latencies: list[float] = []
    while len(latencies) < turns:
        state = human.ok("GET", f"/api/v1/games/{game_id}/state")
        if state["status"] != "active":
            game_id = new_ai_game(human, level)
            continue
        deal = state["deal"]
        if deal["turn"] != state["seat"]:
            human.call("GET", f"/api/v1/games/{game_id}/moves?since={deal['seq']}&wait=30")
            continue
        move = rng.choice(deal["legal_moves"])
        started = time.perf_counter()
        accepted = human.ok(
            "POST", f"/api/v1/games/{game_id}/moves", {**move, "expected_seq": deal["seq"]}
        )
        mine = accepted["move"]["seq"]
        number = accepted["move"]["deal"]
        seen = mine
        while True:
            _, history, _ = human.call("GET", f"/api/v1/games/{game_id}/moves?since={seen}&wait=30")
            if history["deal"] != number:
                break  # the deal ended during the replies: not a three-reply turn
            if history["last_seq"] >= mine + 3:
                latencies.append(time.perf_counter() - started)
                break
            seen = history["last_seq"]
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="greedy,heuristic,expert")
    parser.add_argument("--turns", type=int, default=40, help="timed human turns per level")
    parser.add_argument("--expert-turns", type=int, default=15)
    args = parser.parse_args()
    print(machine())
    admin(f"DROP DATABASE IF EXISTS {DB}")
    admin(f"CREATE DATABASE {DB}")
    logdir = Path(tempfile.mkdtemp(prefix="pusoy-ai-bench-"))
    env_db = f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{DB}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"],
        cwd=ROOT, env={**os.environ, "DATABASE_URL": env_db, "DEV_MODE": "1"}, check=True,
    )  # fmt: skip
    broker = {"CELERY_BROKER_URL": BROKER, "CELERY_TASK_DEFAULT_QUEUE": QUEUE}
    try:
        with (
            Server(workers=2, pool=8, logdir=logdir, extra_env=broker) as server,
            Worker(logdir, 2),
        ):
            (human,) = register(server.port, 1, "lat")
            rng = random.Random(1)
            print(f"\nhuman POST -> three AI replies applied (worker on Redis, {QUEUE})")
            for level in args.levels.split(","):
                turns = args.expert_turns if level == "expert" else args.turns
                values = ai_replies(human, new_ai_game(human, level), level, turns, rng)
                print(
                    f"  {level:<10} p50 {pct(values, 50) * 1000:8.1f} ms   "
                    f"p95 {pct(values, 95) * 1000:8.1f} ms   (n={len(values)})"
                )
    finally:
        admin(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


if __name__ == "__main__":
    main()
