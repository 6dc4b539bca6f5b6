"""The event feed's stream under the real server: ``python -m benchmarks.load.events``.

Starts everything itself on loopback (as benchmarks/load/api.py does, with its own database
``pusoy_bench_events``, dropped afterwards; gunicorn with one worker, in the server
model ``--server`` names) and prints:

1. event latency: a player's SSE stream (``GET events/stream``) while four players make
   MOVES moves one after the other; for each `move` event, the time from the event's row
   being written (its ``created_at``, inside the move's transaction: an upper bound of the
   time from the commit), from sending the POST, and from the POST's answer reaching its
   client (negative when the stream is faster than the answer), to the stream client
   reading it; p50/p95/max;
2. the cost of CLIENTS concurrent streams on that worker: database connections by state
   (pg_stat_activity), threads and resident memory of the worker process, before, while
   they are open and idle, and after they close; and the time from sending one move to
   every one of those streams reading its event.

Numbers only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import queue
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.load import api
from benchmarks.load.api import Server, first_turn, machine, ms, new_game, register

api.DB = "pusoy_bench_events"  # its own database: other benchmarks may run meanwhile


class Stream:
    """One SSE client on a thread (httpx streaming): (event type, id, data, receipt time)."""

    def __init__(self, port: int, token: str) -> None:
        self.received: queue.Queue[tuple[str, int, str, float]] = queue.Queue()
        self.open = threading.Event()
        self.url = f"http://127.0.0.1:{port}/api/v1/events/stream"
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.open.wait(10)

    def _read(self) -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server stops at the end
            self._events()

    def _events(self) -> None:
        with httpx.stream("GET", self.url, headers=self.headers, timeout=None) as response:
            kind, ident = "", 0
            for line in response.iter_lines():
                now = time.time()
                if line.startswith("retry:"):
                    self.open.set()
                elif line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("id: "):
                    ident = int(line[4:])
                elif line.startswith("data: "):
                    self.received.put((kind, ident, json.loads(line[6:])["created_at"], now))


def bench_latency(server: Server, moves: int) -> dict[str, Any]:
    players = register(server.port, 4, "evlat")
    stream = Stream(server.port, players[0].bearer)
    rng = random.Random(3)
    sent: list[float] = []
    answered: list[float] = []
    game_id, turn = None, None
    while len(answered) < moves:
        if turn is None:
            game_id = new_game(players)
            turn = first_turn(players, game_id)
        client = players[turn]
        state = client.ok("GET", f"/api/v1/games/{game_id}/state")["deal"]
        move = rng.choice(state["legal_moves"])
        sent.append(time.time())
        body = client.ok(
            "POST", f"/api/v1/games/{game_id}/moves", {**move, "expected_seq": state["seq"]}
        )
        answered.append(time.time())
        after = body["state"]
        turn = (
            after["deal"]["turn"]
            if after["status"] == "active" and not after["deal"]["is_over"]
            else None
        )
    from_write: list[float] = []
    from_sent: list[float] = []
    from_answer: list[float] = []
    deadline = time.monotonic() + 30
    while len(from_write) < moves and time.monotonic() < deadline:
        kind, _, created, seen = stream.received.get(timeout=30)
        if kind != "move":
            continue
        written = dt.datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp()
        from_write.append(seen - written)
        from_sent.append(seen - sent[len(from_answer)])
        from_answer.append(seen - answered[len(from_answer)])
    return {"from_write": from_write, "from_sent": from_sent, "from_answer": from_answer}


async def open_stream(port: int, token: str, moved: asyncio.Event) -> float:
    """A raw stream connection; waits for its first `move` event: when it was read."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(
            f"GET /api/v1/events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        seen = b""
        while b"retry:" not in seen:
            seen += await reader.read(4096)
        moved.set()
        seen = b""
        while b"event: move" not in seen:
            seen = seen[-32:] + await reader.read(65536)
        return time.time()
    finally:
        writer.close()


async def bench_crowd(server: Server, clients: int) -> dict[str, Any]:
    players = await asyncio.to_thread(register, server.port, 4, "evcrowd")
    game_id = await asyncio.to_thread(new_game, players)
    turn = await asyncio.to_thread(first_turn, players, game_id)
    before = {"server": server.worker_stats(), "db": api.db_connections(set())}
    opened = [asyncio.Event() for _ in range(clients)]
    tasks = []
    for i in range(clients):
        token = players[i % 4].bearer
        tasks.append(asyncio.create_task(open_stream(server.port, token, opened[i])))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    for event in opened:
        await asyncio.wait_for(event.wait(), 120)
    await asyncio.sleep(3)  # every stream past its first read, idle
    during = {"server": server.worker_stats(), "db": api.db_connections(set())}
    client = players[turn]
    state = await asyncio.to_thread(client.ok, "GET", f"/api/v1/games/{game_id}/state")
    move = random.Random(4).choice(state["deal"]["legal_moves"])

    def post() -> tuple[float, float]:
        sent = time.time()
        client.ok(
            "POST",
            f"/api/v1/games/{game_id}/moves",
            {**move, "expected_seq": state["deal"]["seq"]},
        )
        return sent, time.time()

    sent, answered = await asyncio.to_thread(post)
    seen = await asyncio.wait_for(asyncio.gather(*tasks), 120)
    await asyncio.sleep(3)
    after = {"server": server.worker_stats(), "db": api.db_connections(set())}
    return {
        "clients": clients,
        "before": before,
        "during": during,
        "after": after,
        "post": answered - sent,
        "woken": [t - sent for t in seen],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves timed for latency")
    parser.add_argument("--clients", type=int, default=500, help="concurrent SSE clients")
    parser.add_argument("--pool", type=int, default=10, help="DB_POOL_MAX_SIZE per worker")
    parser.add_argument(
        "--server", default="by-kind", choices=list(api.MODELS), help="the web server model"
    )
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
    try:
        api.database_create()
        with tempfile.TemporaryDirectory(prefix="pusoy-bench-") as tmp:
            print(
                f"\nserver [{args.server}]: {api.MODELS[args.server].describe}; 1 worker,"
                f" DB_POOL_MAX_SIZE={args.pool}",
                flush=True,
            )
            with Server(1, args.pool, Path(tmp), model=args.server) as server:
                lat = bench_latency(server, args.moves)
                print(f"\n1. move event to an SSE client ({len(lat['from_write'])} moves):")
                print("   from the event's write (in the transaction):", ms(lat["from_write"]))
                print("   from sending the POST (the whole move):     ", ms(lat["from_sent"]))
                print("   from the POST's answer at its client:       ", ms(lat["from_answer"]))
            with Server(1, args.pool, Path(tmp), model=args.server) as server:
                crowd = asyncio.run(bench_crowd(server, args.clients))
            print(f"\n2. {crowd['clients']} concurrent SSE clients on one worker process:")
            for when in ("before", "during", "after"):
                print(
                    f"   {when:6}: worker {crowd[when]['server']},"
                    f" DB connections by state {crowd[when]['db']}"
                )
            print(f"   the move's POST (sent -> answered): {crowd['post'] * 1000:.1f} ms")
            print("   the move's POST sent -> each stream reading it:", ms(crowd["woken"]))
    finally:
        api.database_drop()


if __name__ == "__main__":
    main()
