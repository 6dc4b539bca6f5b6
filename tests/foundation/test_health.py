"""GET /healthz: 200 when the database and broker answer, 503 naming what is down, a
200 "degraded" when only the cache is down; never slower than its probe deadline."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError

from pusoy_api import health
from tests.celery_worker import TEST_BROKER_URL, broker_reachable

pytestmark = pytest.mark.django_db

NOBODY_LISTENS = "redis://127.0.0.1:1/0"  # port 1: connection refused at once


def test_healthy_in_process_mode(client, settings):
    settings.CELERY_BROKER_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "broker": "in-process", "cache": "local"},
    }


@pytest.fixture
def broker_url(settings):
    """Point the health check at a broker for the test's duration."""

    def use(url: str) -> None:
        settings.CELERY_BROKER_URL = url

    return use


def test_healthy_with_real_broker(client, broker_url):
    if not broker_reachable():
        pytest.skip("Redis not running")
    broker_url(TEST_BROKER_URL)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "broker": "ok", "cache": "local"}


def test_unreachable_broker_gives_503_naming_it(client, broker_url):
    broker_url(NOBODY_LISTENS)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert int(response["Retry-After"]) >= 1
    body = response.json()
    assert body["checks"] == {"database": "ok", "broker": "down", "cache": "local"}
    assert body["error"]["code"] == "service_unavailable"
    assert "broker" in body["error"]["message"]
    assert set(body["error"]["details"]) == {"broker"}


class BrokenConnection:
    """Stands in for the probe thread's database connection."""

    in_atomic_block = False

    def cursor(self):
        raise OperationalError("connection refused")

    def close(self):
        pass


def test_unreachable_database_gives_503_naming_it(client, monkeypatch, settings):
    settings.CELERY_BROKER_URL = ""
    monkeypatch.setattr(health, "connection", BrokenConnection())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "down"
    assert response.json()["error"]["details"] == {"database": "OperationalError"}


def test_a_probe_that_hangs_counts_as_down_and_the_answer_does_not_wait(
    client, monkeypatch, settings
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
        response = client.get("/healthz")
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


def test_cache_down_is_degraded_but_200(client, settings):
    settings.CELERY_BROKER_URL = ""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": NOBODY_LISTENS,
        }
    }
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"] == {"database": "ok", "broker": "in-process", "cache": "down"}
    assert set(body["details"]) == {"cache"}
