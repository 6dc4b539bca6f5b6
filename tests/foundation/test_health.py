"""GET /healthz: 200 when the database and broker answer, 503 naming what is down."""

from __future__ import annotations

import pytest

from pusoy_api import health
from tests.celery_worker import TEST_BROKER_URL, broker_reachable

pytestmark = pytest.mark.django_db


def test_healthy_in_process_mode(client, settings):
    settings.CELERY_BROKER_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "broker": "in-process"}}


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
    assert response.json()["checks"] == {"database": "ok", "broker": "ok"}


def test_unreachable_broker_gives_503_naming_it(client, broker_url):
    broker_url("redis://127.0.0.1:1/0")  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"] == {"database": "ok", "broker": "down"}
    assert body["error"]["code"] == "service_unavailable"
    assert "broker" in body["error"]["message"]
    assert set(body["error"]["details"]) == {"broker"}


def test_unreachable_database_gives_503_naming_it(client, monkeypatch, settings):
    settings.CELERY_BROKER_URL = ""

    def broken_cursor(*args, **kwargs):
        raise health.connection.OperationalError("connection refused")

    monkeypatch.setattr(health.connection, "cursor", broken_cursor, raising=False)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "down"
    assert set(response.json()["error"]["details"]) == {"database"}
