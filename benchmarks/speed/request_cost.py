"""What a move and the common reads cost a web process.

``python -m benchmarks.speed.request_cost``.

In-process (Django's test client, no HTTP server) on a throwaway PostgreSQL test
database: the view, its queries and its rendering, without the server's own cost (for
that: ``benchmarks.load.api``). Four human players play whole games with random legal
moves; every request of the player to move is counted. Prints, per request kind, the
median CPU time of this process (``time.process_time``: what a web worker spends, less
sensitive than wall time to other load on the machine), the median wall time, and the
median number of database round trips:

- ``POST move``: a play or a pass (a deal's last moves, which score it, included);
- ``GET state``, ``GET game``: the mover's reads;
- ``GET players/me``: an authenticated read of one row.

``--redis URL`` serves the cache from that Redis (a key prefix of its own) as production
does, with ``CACHE_SHARED`` on; without it, the shared cache is the process's memory
(the benchmark is the only process). ``--no-shared-cache``: as without Redis.

Numbers only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import time
from collections import defaultdict
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=600, help="moves timed")
    parser.add_argument("--redis", default="", help="a Redis URL for the shared cache")
    parser.add_argument("--no-shared-cache", action="store_true", help="as without Redis")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pusoy_api.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import override_settings, setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    caches: dict[str, Any] = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    }
    if args.redis:
        caches = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": args.redis,
                "KEY_PREFIX": "bench-" + secrets.token_hex(4),
            }
        }
    try:
        with override_settings(CACHES=caches, CACHE_SHARED=not args.no_shared_cache):
            report(run(args.moves, random.Random(args.seed)), args)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(moves: int, rng: random.Random) -> dict[str, list[tuple[float, float, int]]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from players.models import Player
    from players.services import token_issue

    samples: dict[str, list[tuple[float, float, int]]] = defaultdict(list)

    def timed(kind: str, call) -> Any:
        with CaptureQueriesContext(connection) as captured:
            cpu, wall = time.process_time(), time.perf_counter()
            response = call()
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        assert response.status_code in (200, 201), response.content
        samples[kind].append((cpu, wall, len(captured.captured_queries)))
        return response.json()

    games = 0
    while len(samples["POST move"]) < moves:
        clients = []
        for i in range(4):
            player = Player.objects.create_user(username=f"b{games}x{i}")
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(player=player)}")
            clients.append(client)
        created = clients[0].post(
            "/api/v1/games", {"seats": [{"type": "human"}] * 4, "target_deals": 2}, format="json"
        )
        game_id = created.json()["id"]
        for client in clients[1:]:
            client.post(f"/api/v1/games/{game_id}/join", {}, format="json")
        games += 1
        turn = clients[0].get(f"/api/v1/games/{game_id}/state").json()["deal"]["turn"]
        path = f"/api/v1/games/{game_id}"
        while turn is not None and len(samples["POST move"]) < moves:
            client = clients[turn]
            state = timed("GET state", lambda c=client, p=path: c.get(f"{p}/state"))
            timed("GET game", lambda c=client, p=path: c.get(p))
            timed("GET players/me", lambda c=client: c.get("/api/v1/players/me"))
            deal = state["deal"]
            move = {**rng.choice(deal["legal_moves"]), "expected_seq": deal["seq"]}
            answer = timed(
                "POST move",
                lambda c=client, m=move, p=path: c.post(f"{p}/moves", m, format="json"),
            )
            after = answer["state"]
            turn = after["deal"]["turn"] if after["status"] == "active" else None
    return samples


def report(samples: dict[str, list[tuple[float, float, int]]], args: argparse.Namespace) -> None:
    cache = "Redis" if args.redis else "process memory"
    shared = "off" if args.no_shared_cache else f"on ({cache})"
    print(f"in-process, {len(samples['POST move'])} moves; shared cache {shared}")
    print(f"{'request':<16} {'CPU p50':>9} {'wall p50':>9} {'queries p50':>12} {'n':>6}")
    for kind, rows in samples.items():
        cpu = statistics.median(r[0] for r in rows) * 1000
        wall = statistics.median(r[1] for r in rows) * 1000
        queries = statistics.median(r[2] for r in rows)
        print(f"{kind:<16} {cpu:>7.2f}ms {wall:>7.2f}ms {queries:>12g} {len(rows):>6}")


if __name__ == "__main__":
    main()
