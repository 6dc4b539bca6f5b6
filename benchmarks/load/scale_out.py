"""Two web servers, two Celery workers and beat on one PostgreSQL and one Redis, under a
load of concurrent games for a bounded time: ``python -m benchmarks.load.scale_out``.

The web processes keep no game state, so any request may go to any server. Each game
seats two humans and two AI levels; the two humans talk to DIFFERENT servers, and each
waits for its turn by long-polling its own server, so every wake-up by the other human's
move, or by an AI move applied in a worker, crossed processes. Every player is
registered before the clock starts (a password hash is not play) and plays game after
game. At the end every game is
audited (`verify_game --all`). Prints requests by status (any 5xx is a failure),
moves per second, wake-ups, POST latency and the audit's verdict. Numbers only.

Uses the machine's PostgreSQL (a fresh database ``pusoy_bench_scale``, dropped after; or
BENCH_SCALE_DB) and Redis (database 9, a queue of its own; or BENCH_SCALE_REDIS_URL), so
that two runs can share a machine. ``--baseline DIR`` runs each model from that checkout
first (``MODEL@base``, the code before a change), then from this one.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import random
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.load import api as bench

bench.DB = os.environ.get("BENCH_SCALE_DB", "pusoy_bench_scale")
REDIS = os.environ.get("BENCH_SCALE_REDIS_URL", "redis://127.0.0.1:6379/9")


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in task.read_text().split()]
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes (those still alive)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def postgres_backends() -> list[int]:
    with bench.psycopg.connect(dbname="postgres", autocommit=True, **bench.PG) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", [bench.DB]
        ).fetchall()
    return [r[0] for r in rows]


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.status: collections.Counter[str] = collections.Counter()
        self.post_seconds: list[float] = []
        self.wakeups = 0
        self.empty_waits = 0
        self.moves = 0
        self.finished = 0

    def count(self, server: int, status: int) -> None:
        with self.lock:
            self.status[f"server {server}: {status}"] += 1


def human(
    clients: dict[int, bench.Http], seat: int, game_id: str, stop: float, tally: Tally
) -> None:
    """One human: wait for the turn by long-polling its own server, then play."""
    server, client = next(iter(clients.items()))
    rng = random.Random(f"{game_id}:{seat}")
    since = 0
    while time.monotonic() < stop:
        status, state, _ = client.call("GET", f"/api/v1/games/{game_id}/state")
        tally.count(server, status)
        if status != 200 or state["status"] != "active":
            if state and state.get("status") == "finished":
                with tally.lock:
                    tally.finished += seat == 0
            return
        deal = state["deal"]
        if deal["turn"] == state["seat"] and not deal["is_over"]:
            move = rng.choice(deal["legal_moves"])
            status, _, seconds = client.call(
                "POST", f"/api/v1/games/{game_id}/moves", {**move, "expected_seq": deal["seq"]}
            )
            tally.count(server, status)
            with tally.lock:
                if status == 201:
                    tally.moves += 1
                    tally.post_seconds.append(seconds)
            continue
        since = deal["seq"]
        path = f"/api/v1/games/{game_id}/moves?deal={deal['number']}&since={since}&wait=20"
        status, history, _ = client.call("GET", path)
        tally.count(server, status)
        with tally.lock:
            if status == 200 and history["moves"]:
                tally.wakeups += 1
            elif status == 200:
                tally.empty_waits += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games played at once")
    parser.add_argument("--seconds", type=float, default=90, help="load duration")
    parser.add_argument(
        "--servers",
        default="asgi,by-kind",
        help="web server models (benchmarks.load.api.MODELS), run one after the other on"
        f" the same machine: {', '.join(bench.MODELS)}",
    )
    bench.add_baseline_argument(
        parser, f"runs from it first, as MODEL{bench.BASE_SUFFIX}, then from this one"
    )
    args = parser.parse_args()
    models = bench.server_models(parser, args)
    print(f"machine: {bench.machine()}", flush=True)
    rates = {}
    for model in models:
        print(f"\n=== [{model}] {bench.model_described(model)}", flush=True)
        rates[model] = run(model, args.games, args.seconds)
    print("\nmoves per web CPU-second (all moves stored / CPU of both web servers):")
    first = rates[models[0]]
    for model, rate in rates.items():
        print(f"   [{model}] {rate:.1f} ({rate / first:.2f}x [{models[0]}])")


def run(model: str, games: int, seconds: float) -> float:
    """One scale-out run with web servers of `model`: its report printed; the moves per
    web CPU-second returned."""
    queue = f"scale-{secrets.token_hex(4)}"
    extra = {
        "CELERY_BROKER_URL": REDIS,
        "REDIS_URL": REDIS,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "SWEEP_INTERVAL_SECONDS": "5",
    }
    processes: list[subprocess.Popen[bytes]] = []
    try:
        env = {**bench.server_env(0, 1, 1), **extra}
        bench.database_create(env)
        with tempfile.TemporaryDirectory(prefix="pusoy-scale-") as tmp:
            logs = Path(tmp)
            celery = str(Path(sys.executable).with_name("celery"))
            worker_env = {**env, "DB_POOL_MAX_SIZE": "0", "CONN_MAX_AGE": "60"}
            for name in ("w1", "w2"):
                processes.append(
                    subprocess.Popen(
                        [
                            celery,
                            "-A",
                            "pusoy_api",
                            "worker",
                            "-Q",
                            queue,
                            "-n",
                            f"{name}@%h",
                            "--concurrency",
                            "1",
                            "--loglevel",
                            "WARNING",
                        ],
                        cwd=bench.ROOT,
                        env=worker_env,
                        start_new_session=True,
                        stdout=(logs / f"{name}.log").open("wb"),
                        stderr=subprocess.STDOUT,
                    )
                )
            processes.append(
                subprocess.Popen(
                    [
                        celery,
                        "-A",
                        "pusoy_api",
                        "beat",
                        "--loglevel",
                        "WARNING",
                        "--schedule",
                        str(logs / "beat-schedule"),
                    ],
                    cwd=bench.ROOT,
                    env=worker_env,
                    start_new_session=True,
                    stdout=(logs / "beat.log").open("wb"),
                    stderr=subprocess.STDOUT,
                )
            )
            with (
                bench.Server(1, 8, logs, extra_env=extra, model=model) as one,
                bench.Server(1, 8, logs, extra_env=extra, model=model) as two,
            ):
                ports = {1: one.port, 2: two.port}
                print(
                    f"web servers on :{one.port} and :{two.port} ({model}, 1 worker"
                    f" each), 2 Celery workers (concurrency 1) and beat; {games} games"
                    f" at once for {seconds:.0f} s",
                    flush=True,
                )
                # Each slot's two players, registered before the clock: a registration
                # costs the web a password hash (~0.2 s of CPU), which is not playing.
                pairs = [
                    (
                        bench.register(ports[1], 1, f"s{slot}a")[0],
                        bench.register(ports[2], 1, f"s{slot}b")[0],
                    )
                    for slot in range(games)
                ]
                tally = Tally()
                game_ids: list[str] = []
                stop = time.monotonic() + seconds
                threads: list[threading.Thread] = []

                def run_games(slot: int) -> None:
                    a, b = pairs[slot]
                    while time.monotonic() < stop - 5:
                        seats = [
                            {"type": "human"},
                            {"type": "ai", "level": "greedy"},
                            {"type": "human"},
                            {"type": "ai", "level": "heuristic"},
                        ]
                        # Counted like every other request: a 5xx here is a failure
                        # of the run, reported, not a thread that dies unseen.
                        status, game, _ = a.call("POST", "/api/v1/games", {"seats": seats})
                        tally.count(1, status)
                        if status != 201:
                            continue
                        status, _, _ = b.call("POST", f"/api/v1/games/{game['id']}/join", {})
                        tally.count(2, status)
                        if status != 200:
                            continue
                        with tally.lock:
                            game_ids.append(game["id"])
                        pair = [
                            threading.Thread(
                                target=human, args=({1: a}, 0, game["id"], stop, tally)
                            ),
                            threading.Thread(
                                target=human, args=({2: b}, 2, game["id"], stop, tally)
                            ),
                        ]
                        for t in pair:
                            t.start()
                        for t in pair:
                            t.join()

                web = [one.pid, two.pid]
                workers = [p.pid for p in processes]
                cpu_before = {
                    "web": cpu_seconds([d for p in web for d in descendants(p)]),
                    "celery": cpu_seconds([d for p in workers for d in descendants(p)]),
                }
                backends: set[int] = set()
                started = time.monotonic()
                for slot in range(games):
                    threads.append(threading.Thread(target=run_games, args=(slot,)))
                    threads[-1].start()
                while any(t.is_alive() for t in threads):
                    backends.update(postgres_backends())
                    time.sleep(2)
                elapsed = time.monotonic() - started
                cpu = {
                    "web": cpu_seconds([d for p in web for d in descendants(p)])
                    - cpu_before["web"],
                    "celery": cpu_seconds([d for p in workers for d in descendants(p)])
                    - cpu_before["celery"],
                    "postgres backends": cpu_seconds(sorted(backends)),
                }
            errors = sum(
                n for key, n in tally.status.items() if key.endswith(tuple("5")) or ": 5" in key
            )
            print(f"\nrequests by server and status: {dict(sorted(tally.status.items()))}")
            print(f"5xx answers: {errors}")
            print(
                f"games: {len(game_ids)} started, {tally.finished} finished;"
                f" human moves: {tally.moves} ({tally.moves / elapsed:.1f}/s) in {elapsed:.0f} s"
            )
            print(
                f"long-poll answers with news (woken across processes): {tally.wakeups};"
                f" empty (20 s passed): {tally.empty_waits}"
            )
            if tally.post_seconds:
                print("POST move:", bench.ms(tally.post_seconds))
            with bench.psycopg.connect(dbname=bench.DB, **bench.PG) as conn:
                by_actor = dict(
                    conn.execute(
                        "SELECT split_part(actor, ':', 1), count(*) FROM games_move GROUP BY 1"
                    ).fetchall()
                )
            all_moves = sum(by_actor.values())
            print(f"moves stored by actor: {by_actor}")
            web_rate = all_moves / cpu["web"] if cpu["web"] else float("nan")
            requests = sum(tally.status.values())
            print(
                f"web: {requests} requests, {requests / all_moves:.2f} per move;"
                f" {cpu['web'] / requests * 1000:.1f} ms of web CPU per request"
            )
            for part, used in cpu.items():
                rate = all_moves / used if used else float("nan")
                print(
                    f"CPU {part}: {used:.1f} s = {used / elapsed:.2f} cores;"
                    f" {rate:.0f} moves per CPU-second (all {all_moves} moves)"
                )
            audit = subprocess.run(
                [sys.executable, "manage.py", "verify_game", "--all"],
                cwd=bench.ROOT,
                env=env,
                capture_output=True,
                text=True,
            )
            bad = [
                line for line in audit.stdout.splitlines() if "deal" in line and "ok" not in line
            ]
            print(
                f"audit: exit {audit.returncode}, {audit.stdout.strip().splitlines()[-1]}"
                f"{'; problems: ' + str(bad[:5]) if bad else ''}"
            )
    finally:
        for p in processes:
            bench.stop_group(p)
        bench.database_drop()
    return web_rate


if __name__ == "__main__":
    main()
