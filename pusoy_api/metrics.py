"""The service's Prometheus metrics, and the functions the code calls to record them.

Everything here is plain prometheus-client: no HTTP, no DRF (services and tasks import
this module). The endpoint is pusoy_api.metrics_endpoint; the HTTP middleware, the
Celery signal handlers and the per-process sampler are below.

Processes: a single process (runserver, one gunicorn worker without a metrics directory,
the tests) keeps its metrics in memory. Several processes (gunicorn workers, Celery's
prefork children) write them to files in PROMETHEUS_MULTIPROC_DIR, which prometheus-client
reads when the variable is set *before it is imported*; the scraped process then sums
them all (docs/operations.md). Gauges are `livesum`: a dead process's share goes away
with its files (gunicorn's child_exit hook, Celery's worker_process_shutdown).

Label values are bounded sets only: route templates (never raw paths with ids), methods,
status codes, task names, AI levels, outcomes.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

logger = logging.getLogger(__name__)

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
# No `_created` series beside every counter and histogram: they double the output and
# no dashboard or alert here reads them.
disable_created_metrics()

# Long-poll requests wait up to 30 s: the latency buckets reach past that.
HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
AI_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10)
QUEUE_BUCKETS = (0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)

HTTP_REQUESTS = Counter(
    "pusoy_http_requests_total",
    "HTTP requests answered, by route template, method and status code.",
    ["route", "method", "status"],
)
HTTP_LATENCY = Histogram(
    "pusoy_http_request_duration_seconds",
    "Time from a request's arrival to its answer, by route template and method.",
    ["route", "method"],
    buckets=HTTP_BUCKETS,
)
MOVES = Counter(
    "pusoy_moves_total",
    "Moves committed, by who made them: human, ai (with its level) or timeout.",
    ["actor", "ai_level"],
)
AI_COMPUTE = Histogram(
    "pusoy_ai_compute_seconds",
    "Time an AI level took to choose a move.",
    ["level"],
    buckets=AI_BUCKETS,
)
CELERY_TASKS = Counter(
    "pusoy_celery_tasks_total",
    "Celery task runs ended, by task name and outcome (success, failure, retry).",
    ["task", "outcome"],
)
CELERY_QUEUE_WAIT = Histogram(
    "pusoy_celery_queue_wait_seconds",
    "Time from a task's publish to the start of its run on a worker, by task name.",
    ["task"],
    buckets=QUEUE_BUCKETS,
)
LONGPOLL_WAITERS = Gauge(
    "pusoy_longpoll_waiters",
    "Clients waiting in a long-poll right now.",
    multiprocess_mode="livesum",
)
DB_POOL_CONNECTIONS = Gauge(
    "pusoy_db_pool_connections",
    "Database pool connections: open (size), idle (available), the maximum (max).",
    ["state"],
    multiprocess_mode="livesum",
)
DB_POOL_WAITING = Gauge(
    "pusoy_db_pool_requests_waiting",
    "Requests waiting for a pooled database connection right now.",
    multiprocess_mode="livesum",
)
DB_POOL_EVENTS = Counter(
    "pusoy_db_pool_events_total",
    "Database pool events: connection requests served (requests), queued (queued), "
    "failed (errors: timeouts), connections opened (connections), lost (lost).",
    ["event"],
)
WEBHOOK_DELIVERIES = Counter(
    "pusoy_webhook_deliveries_total",
    "Webhook delivery attempts, by outcome (delivered, failed, gave_up).",
    ["outcome"],
)
WEBHOOK_DELIVERY_SECONDS = Histogram(
    "pusoy_webhook_delivery_seconds",
    "Time one webhook delivery attempt took, by outcome.",
    ["outcome"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
PUSH_SENT = Counter(
    "pusoy_push_sent_total",
    "Push attempts, by platform (apns, fcm, webpush) and outcome (sent, gone, retry, failed).",
    ["platform", "outcome"],
)
PUSH_TOKENS_REMOVED = Counter(
    "pusoy_push_tokens_removed_total",
    "Devices deleted because their provider said the token or subscription is gone.",
    ["platform"],
)
PUSH_PLATFORM_ON = Gauge(
    "pusoy_push_platform_configured",
    "1 for each push platform this deployment has credentials for, else 0.",
    ["platform"],
    multiprocess_mode="livemax",
)


# --- Recorders called by the domain code ---------------------------------------------------


def actor_labels(actor: str) -> tuple[str, str]:
    """`Move.actor` ("player", "timeout", "ai:<level>") as (actor, ai_level) labels."""
    if actor.startswith("ai:"):
        return "ai", actor.removeprefix("ai:")
    if actor == "player":
        return "human", ""
    return actor, ""


def move_committed(actor: str) -> None:
    """A move's transaction committed (called from `transaction.on_commit`)."""
    MOVES.labels(*actor_labels(actor)).inc()


@contextlib.contextmanager
def ai_compute_timer(level: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        AI_COMPUTE.labels(level).observe(time.perf_counter() - started)


WEBHOOK_OUTCOMES = frozenset({"delivered", "failed", "gave_up"})


def webhook_delivery_observed(outcome: str, seconds: float) -> None:
    """One webhook delivery attempt ended with `outcome` after `seconds`. Outcomes are a
    small fixed set: `delivered`, `failed` (to be retried), `gave_up` (the last attempt
    failed); the alert rules read `failed` and `gave_up` against the total. Called by
    the webhooks app once per attempt, whatever process runs it."""
    if outcome not in WEBHOOK_OUTCOMES:  # a label value per typo would never be seen
        logger.warning("unknown webhook delivery outcome %r counted as 'other'", outcome)
        outcome = "other"
    WEBHOOK_DELIVERIES.labels(outcome).inc()
    WEBHOOK_DELIVERY_SECONDS.labels(outcome).observe(max(0.0, seconds))


PUSH_OUTCOMES = frozenset({"sent", "gone", "retry", "failed"})


def push_sent(platform: str, outcome: str) -> None:
    """One push attempt ended with `outcome` (push.providers.base.Outcome values)."""
    if outcome not in PUSH_OUTCOMES:
        outcome = "other"
    PUSH_SENT.labels(platform, outcome).inc()


def push_token_removed(platform: str) -> None:
    PUSH_TOKENS_REMOVED.labels(platform).inc()


def push_platforms(configured: dict[str, bool]) -> None:
    """Which push platforms are on (set when a process starts)."""
    for platform, on in configured.items():
        PUSH_PLATFORM_ON.labels(platform).set(1 if on else 0)


# --- Celery signal handlers (connected in pusoy_api.celery) --------------------------------

PUBLISHED_AT_HEADER = "pusoy_published_at"
_task_started: dict[str, float] = {}


def task_published(headers: dict[str, Any]) -> None:
    headers[PUBLISHED_AT_HEADER] = time.time()


def task_started(task: Any, task_id: str | None) -> None:
    published = getattr(getattr(task, "request", None), PUBLISHED_AT_HEADER, None)
    if isinstance(published, int | float):
        CELERY_QUEUE_WAIT.labels(task.name).observe(max(0.0, time.time() - published))


def task_ended(task: Any, outcome: str) -> None:
    name = getattr(task, "name", None) or str(task)
    CELERY_TASKS.labels(name, outcome).inc()


# --- What a process holds: long-poll waiters, its database pool ------------------------------


def _longpoll_waiters() -> int:
    """The clients waiting in this process's long-poll hubs (long-polls and event streams)."""
    from pusoy_api.realtime import longpoll  # at use: a scrape-only process needs no hub

    for _ in range(3):
        try:
            return longpoll.waiting_count()
        except RuntimeError:  # a hub's loop changed its waiters while we counted
            continue
    return 0


def _db_pool() -> Any:
    """This process's psycopg pool, if Django made one (never made here for a scrape)."""
    from django.db import connections

    conn = connections["default"]
    pools = getattr(type(conn), "_connection_pools", None)
    return pools.get(conn.alias) if pools else None


_POOL_EVENTS = {
    "requests_num": "requests",
    "requests_queued": "queued",
    "requests_errors": "errors",
    "connections_num": "connections",
    "connections_lost": "lost",
}
_sample_lock = threading.Lock()


def sample_process() -> None:
    """Read this process's long-poll waiters and pool into the metrics. Called at scrape
    time by the endpoint and, with several processes, every few seconds by each one
    (`start_sampler`), so the sum over processes is at most that old."""
    with _sample_lock:
        LONGPOLL_WAITERS.set(_longpoll_waiters())
        pool = _db_pool()
        if pool is None:
            return
        # pop_stats: the counters since the last sample, turned into Prometheus counters
        # (so they add up across processes); the gauges are instant readings.
        stats = pool.pop_stats()
        for key, event in _POOL_EVENTS.items():
            if stats.get(key):
                DB_POOL_EVENTS.labels(event).inc(stats[key])
        DB_POOL_CONNECTIONS.labels("size").set(stats.get("pool_size", 0))
        DB_POOL_CONNECTIONS.labels("available").set(stats.get("pool_available", 0))
        DB_POOL_CONNECTIONS.labels("max").set(stats.get("pool_max", 0))
        DB_POOL_WAITING.set(stats.get("requests_waiting", 0))


SAMPLE_SECONDS = 2.0
_sampler: threading.Thread | None = None


def start_sampler() -> None:
    """With several processes, each writes its readings every SAMPLE_SECONDS (the
    scraped process cannot see another's hubs or pool). Idempotent."""
    global _sampler
    if not MULTIPROCESS or _sampler is not None:
        return

    def run() -> None:
        while True:
            time.sleep(SAMPLE_SECONDS)
            try:
                sample_process()
            except Exception:
                logger.exception("metrics sampler failed")

    _sampler = threading.Thread(target=run, name="pusoy-metrics-sampler", daemon=True)
    _sampler.start()
