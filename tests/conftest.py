"""Shared fixtures: API clients, and a real Celery worker process on the Redis broker;
the Hypothesis profiles."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.test import override_settings
from hypothesis import settings as hypothesis_settings

REQUIRE_SERVICES = os.environ.get("PUSOY_REQUIRE_SERVICES") == "1"

# Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (.ci/run sets "ci"). A test's own
# @settings win over the profile for what they name (most name max_examples and
# deadline, so they run as many examples under both); the profile decides the rest.
# Loaded here, before any test module is imported: a settings object takes its unnamed
# values from the profile loaded when it is created.
hypothesis_settings.register_profile(
    "ci",
    # The same examples on every run, so a red build is a real failure that replays,
    # never a flake from a lucky draw (derandomize keeps no example database).
    derandomize=True,
    max_examples=200,
    # Shared CI machines are slow at random moments; speed has benchmarks of its own.
    deadline=None,
    # A failure prints the blob that reproduces it with @reproduce_failure.
    print_blob=True,
)
hypothesis_settings.register_profile(
    "dev",
    # Quick local runs; failures are kept in .hypothesis/ and replayed first next time.
    max_examples=50,
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_collection_modifyitems(config, items):
    """On a machine without PostgreSQL the suite runs on SQLite; what needs Postgres
    is skipped, saying so (CI sets PUSOY_REQUIRE_SERVICES=1, which forces Postgres)."""
    # Without the Django plugin (`-p no:django`, pure engine and AI tests) there are no
    # settings and nothing here to skip.
    if not settings.configured or settings.USING_POSTGRES:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (tests are running on SQLite)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def shared_cache():
    """CACHE_SHARED on (the token and absence caches work only then), over an empty cache:
    the per-process cache stands in for Redis, the test being the only process."""
    from django.core.cache import cache

    cache.clear()
    with override_settings(CACHE_SHARED=True):
        yield
    cache.clear()


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """A real `celery worker` subprocess on Redis, sharing this run's test database,
    started once per test session."""
    from tests.celery_worker import CeleryWorker, broker_reachable

    if not broker_reachable():
        if REQUIRE_SERVICES:
            pytest.fail("Redis broker unreachable and PUSOY_REQUIRE_SERVICES=1")
        pytest.skip("Redis broker unreachable: start redis-server to run worker tests")
    worker = CeleryWorker()
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()


@pytest.fixture
def celery_worker(celery_worker_process):
    """Tasks of this test go through the real worker; other tests keep running tasks
    in-process. Tests that use it must be `transaction=True` so their rows are
    committed and visible to the worker's own database connection."""
    celery_worker_process.route_tasks_here()
    try:
        yield celery_worker_process
    finally:
        celery_worker_process.route_tasks_in_process()


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server, whose last requests (a long-poll a page left waiting)
    are finished before it stops: else they hold their connections while the test
    database is dropped, and PostgreSQL refuses to drop it."""
    from tests.live_requests import finish_live_requests

    yield live_server
    finish_live_requests()
