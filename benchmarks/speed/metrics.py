"""What the metrics and request ids cost per request: ``python -m benchmarks.speed.metrics``.

Times, in this process, the work the two middlewares and a move add: reading or making
the request id, one counter and one histogram by route, and the move counter; in memory
(one process) and in PROMETHEUS_MULTIPROC_DIR files (several processes: each write goes
to a memory-mapped file), the second in a child process since prometheus-client picks
its mode at import. Then a scrape of /metrics. Numbers only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

CHILD = "BENCH_METRICS_CHILD"


def per_call_us(fn, n: int) -> float:
    fn()
    started = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - started) / n * 1e6


def measure(n: int) -> None:
    from pusoy_api import metrics, request_id

    route = "/api/v1/games/<uuid:game_id>/moves"

    def request_path() -> None:
        rid = request_id.accepted("client-supplied-id-123")
        token = request_id.request_id_var.set(rid)
        started = time.perf_counter()
        metrics.HTTP_REQUESTS.labels(route, "POST", "201").inc()
        metrics.HTTP_LATENCY.labels(route, "POST").observe(time.perf_counter() - started)
        request_id.request_id_var.reset(token)

    mode = "files (multiprocess)" if metrics.MULTIPROCESS else "memory (one process)"
    print(f"{mode}:")
    request_us = per_call_us(request_path, n)
    move_us = per_call_us(lambda: metrics.move_committed("player"), n)
    print(f"   request id + request counter + latency histogram: {request_us:.1f} us")
    print(f"   move counter:                                      {move_us:.1f} us")


def scrape(n: int) -> None:
    import django

    # Set, not defaulted: importing pusoy_api (its Celery app) defaults it to base.
    os.environ["DJANGO_SETTINGS_MODULE"] = "pusoy_api.settings.test"
    os.environ["DATABASE_URL"] = "sqlite://:memory:"
    os.environ["LOG_LEVEL"] = "WARNING"
    django.setup()
    from django.test import Client

    client = Client()
    client.get("/healthz")
    scrape_ms = per_call_us(lambda: client.get("/metrics"), n) / 1000
    print(f"   GET /metrics (in-process test client):            {scrape_ms:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    if os.environ.get(CHILD):
        measure(args.calls)
        scrape(50)
        return
    for multiprocess in (False, True):
        env = {**os.environ, CHILD: "1"}
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        with tempfile.TemporaryDirectory(prefix="pusoy-bench-metrics-") as directory:
            if multiprocess:
                env["PROMETHEUS_MULTIPROC_DIR"] = directory
            subprocess.run(
                [sys.executable, "-m", "benchmarks.speed.metrics", "--calls", str(args.calls)],
                env=env,
                check=True,
            )


if __name__ == "__main__":
    main()
