"""Hint latency through the real stack: ``python -m benchmarks.load.hints``.

Starts a fresh PostgreSQL database and gunicorn + uvicorn on loopback (as
``benchmarks.load.api`` does), plays 4-human games created with ``hints: true`` in which
every seat asks ``GET games/{id}/hint`` on its turn and plays what it suggests, and
prints the hint's latency next to a ``GET state`` on the same positions. Numbers only.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from benchmarks.load import api as bench

bench.DB = "pusoy_bench_hints"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="4-human hinted games played")
    args = parser.parse_args()
    print(f"machine: {bench.machine()}", flush=True)
    try:
        bench.database_create()
        with (
            tempfile.TemporaryDirectory(prefix="pusoy-bench-") as tmp,
            bench.Server(1, 4, Path(tmp)) as server,
        ):
            hints, states, followed = [], [], 0
            started = time.perf_counter()
            for _ in range(args.games):
                players = bench.register(server.port, 4, "hint")
                game = players[0].ok(
                    "POST",
                    "/api/v1/games",
                    {"seats": [{"type": "human"}] * 4, "hints": True},
                )
                for player in players[1:]:
                    player.ok("POST", f"/api/v1/games/{game['id']}/join", {})
                turn: int | None = bench.first_turn(players, game["id"])
                while turn is not None:
                    client = players[turn]
                    status, _, elapsed = client.call("GET", f"/api/v1/games/{game['id']}/state")
                    states.append(elapsed)
                    status, hint, elapsed = client.call("GET", f"/api/v1/games/{game['id']}/hint")
                    if status != 200:
                        raise RuntimeError(f"hint refused: {status} {hint}")
                    hints.append(elapsed)
                    body = client.ok("POST", f"/api/v1/games/{game['id']}/moves", hint["move"])
                    followed += 1
                    turn = bench.next_turn(body["state"])
            seconds = time.perf_counter() - started
        print(f"\n{args.games} games, {followed} turns, every move the hint ({seconds:.0f} s)")
        print("GET hint :", bench.ms(hints))
        print("GET state:", bench.ms(states))
    finally:
        bench.database_drop()


if __name__ == "__main__":
    main()
