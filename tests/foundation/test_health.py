"""Health checks, never slower than their probe deadline:
- GET /healthz (load balancers): 200 while the database answers, "degraded" naming a
  broker or cache that is down; 503 only when the database does not answer. Busy is not
  down: the probe does not queue behind requests for a pooled connection.
- GET /healthz/full (monitoring): 200 only when every dependency answers, else 503
  naming each one that is down."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from pusoy_api import db_reachable, health
from tests.celery_worker import TEST_BROKER_URL, broker_reachable

pytestmark = pytest.mark.django_db

NOBODY_LISTENS = "redis://127.0.0.1:1/0"  # port 1: connection refused at once


@pytest.mark.parametrize("path", ["/healthz", "/healthz/full"])
def test_healthy_in_process_mode(client, settings, path):
    settings.CELERY_BROKER_URL = ""
    response = client.get(path)
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "broker": "in-process", "cache": "local"},
        # The test settings hold a VAPID key and no APNs or FCM credentials.
        "push": {"platforms": ["webpush"]},
    }


@pytest.fixture
def broker_url(settings):
    """Point the health check at a broker for the test's duration."""

    def use(url: str) -> None:
        settings.CELERY_BROKER_URL = url

    return use


@pytest.mark.parametrize("path", ["/healthz", "/healthz/full"])
def test_healthy_with_real_broker(client, broker_url, path):
    if not broker_reachable():
        pytest.skip("Redis not running")
    broker_url(TEST_BROKER_URL)
    response = client.get(path)
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "broker": "ok", "cache": "local"}


def test_the_balancer_check_stays_200_naming_an_unreachable_broker(client, broker_url):
    """Moves are still taken without the broker (the sweep re-queues AI turns), and every
    instance shares it: failing here would take them all out of the balancer at once."""
    broker_url(NOBODY_LISTENS)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert "Retry-After" not in response
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"] == {"database": "ok", "broker": "down", "cache": "local"}
    assert set(body["details"]) == {"broker"}


def test_the_full_check_gives_503_naming_an_unreachable_broker(client, broker_url):
    broker_url(NOBODY_LISTENS)
    response = client.get("/healthz/full")
    assert response.status_code == 503
    assert int(response["Retry-After"]) >= 1
    body = response.json()
    assert body["status"] == "down"
    assert body["checks"] == {"database": "ok", "broker": "down", "cache": "local"}
    assert body["error"]["code"] == "service_unavailable"
    assert body["error"]["message"] == "Unreachable: broker."
    assert set(body["error"]["details"]) == {"broker"}


@pytest.fixture
def database_unreachable(monkeypatch):
    """The probe's database settings point at a port where nobody listens."""
    real = connection.get_connection_params

    def nobody_listens():
        return {**real(), "host": "127.0.0.1", "port": 1}

    monkeypatch.setattr(health, "database_params", nobody_listens)
    reachable = db_reachable.is_reachable()
    yield
    # The failed connect told the process the database is down; it is not.
    if reachable:
        db_reachable.connected()


@pytest.mark.usefixtures("database_unreachable")
@pytest.mark.parametrize("path", ["/healthz", "/healthz/full"])
def test_unreachable_database_gives_503_naming_it(client, settings, path):
    settings.CELERY_BROKER_URL = ""
    response = client.get(path)
    assert response.status_code == 503
    assert int(response["Retry-After"]) >= 1
    body = response.json()
    assert body["checks"]["database"] == "down"
    assert body["error"]["message"] == "Unreachable: database."
    assert body["error"]["details"] == {"database": "OperationalError"}


@pytest.fixture
def every_pooled_connection_busy():
    """The pool lends out every connection it may open, as under load: a request wanting
    one now queues until one comes back (up to DB_POOL_TIMEOUT)."""
    pool = connection.pool
    if pool is None:
        pytest.skip("no connection pool (SQLite, or DB_POOL_MAX_SIZE=0)")
    connection.ensure_connection()  # the test's own, lent for its transaction
    held = [pool.getconn() for _ in range(pool.max_size - 1)]
    stats = pool.get_stats()
    assert (stats["pool_size"], stats.get("pool_available", 0)) == (pool.max_size, 0)
    try:
        yield
    finally:
        for conn in held:
            pool.putconn(conn)


@pytest.mark.usefixtures("every_pooled_connection_busy")
@pytest.mark.parametrize("path", ["/healthz", "/healthz/full"])
def test_a_busy_pool_is_not_a_database_down(client, settings, path):
    """Under load every pooled connection is in use and requests queue for the next one;
    a probe queued behind them counted as down (503 "timeout"), so a busy, healthy server
    could be taken out of the balancer."""
    settings.CELERY_BROKER_URL = ""
    response = client.get(path)
    assert response.status_code == 200, response.json()
    assert response.json()["checks"]["database"] == "ok"


@pytest.mark.parametrize("path", ["/healthz", "/healthz/full"])
def test_a_probe_that_hangs_counts_as_down_and_the_answer_does_not_wait(
    client, monkeypatch, settings, path
):
    """A database (or broker) that accepts connections and never answers: /healthz
    answers by its deadline, naming it, instead of waiting on the driver."""
    settings.CELERY_BROKER_URL = ""
    release = threading.Event()

    def hung_database():
        release.wait(30)
        return None  # had the check waited for this, the answer would be a late 200

    monkeypatch.setattr(health, "check_database", hung_database)
    try:
        started = time.perf_counter()
        response = client.get(path)
        elapsed = time.perf_counter() - started
    finally:
        release.set()
    assert response.status_code == 503
    assert response.json()["error"]["details"] == {"database": "timeout"}
    assert elapsed < 20, f"/healthz waited for the hung probe ({elapsed:.1f}s)"


def test_probes_run_at_once():
    """Each probe waits for the other to start: only concurrent probes both get through."""
    both_started = threading.Barrier(2)

    def meet():
        both_started.wait(timeout=20)

    assert health.run_probes({"a": meet, "b": meet}, deadline=25) == {"a": None, "b": None}


@pytest.fixture
def cache_unreachable(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": NOBODY_LISTENS,
        }
    }


@pytest.mark.usefixtures("cache_unreachable")
def test_cache_down_is_degraded_but_200(client, settings):
    settings.CELERY_BROKER_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"] == {"database": "ok", "broker": "in-process", "cache": "down"}
    assert set(body["details"]) == {"cache"}


@pytest.mark.usefixtures("cache_unreachable")
def test_the_full_check_gives_503_naming_the_cache_and_the_broker(client, broker_url):
    broker_url(NOBODY_LISTENS)
    response = client.get("/healthz/full")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"] == {"database": "ok", "broker": "down", "cache": "down"}
    assert body["error"]["message"] == "Unreachable: broker, cache."
    assert set(body["error"]["details"]) == {"broker", "cache"}


@pytest.mark.parametrize("path", ["healthz", "healthz/full"])
def test_health_checks_are_exempt_from_the_https_redirect(client, settings, path):
    """Balancers and monitors probe over plain HTTP, on the instance's own address."""
    settings.CELERY_BROKER_URL = ""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(f"/{path}").status_code == 200
