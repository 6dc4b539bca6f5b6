"""Fixtures for fault tests: throwaway PostgreSQL and Redis, the real web server on them,
and every process's log printed when a test fails."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.faults.helpers import need
from tests.throwaway import (
    CeleryProcess,
    LiveServer,
    ThrowawayPostgres,
    ThrowawayRedis,
    postgres_bin_dir,
    redis_server_binary,
)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


class Logs:
    """The processes of a test module; their logs are printed when one of its tests fails."""

    def __init__(self) -> None:
        self.sources: list[tuple[str, Any]] = []

    def watch(self, name: str, source: Any) -> Any:
        self.sources.append((name, source))
        return source

    def dump(self) -> None:
        for name, source in self.sources:
            print(f"\n===== {name} log (last 8000 chars) =====\n{source.log()[-8000:]}")


@pytest.fixture(scope="module")
def logs() -> Logs:
    return Logs()


@pytest.fixture(autouse=True)
def _dump_logs_on_failure(request, logs) -> Iterator[None]:
    yield
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        logs.dump()


@pytest.fixture(scope="module")
def postgres(logs) -> Iterator[ThrowawayPostgres]:
    need(postgres_bin_dir() is not None, "PostgreSQL server binaries (initdb, pg_ctl)")
    with ThrowawayPostgres() as pg:
        print(f"\n[setup] throwaway PostgreSQL up in {pg.setup_seconds:.2f}s (initdb + start)")
        logs.watch("postgres", pg)
        yield pg


@pytest.fixture(scope="module")
def redis_binary() -> None:
    need(redis_server_binary() is not None, "redis-server")


@pytest.fixture(scope="module")
def start_server(logs) -> Iterator[Any]:
    """start_server(env) -> a LiveServer, stopped when the module is done."""
    servers: list[LiveServer] = []

    def start(env: dict[str, str], name: str = "web") -> LiveServer:
        server = logs.watch(name, LiveServer(env, name=name))
        servers.append(server)
        server.start()
        return server

    try:
        yield start
    finally:
        for server in servers:
            server.close()


@pytest.fixture
def celery_stack(postgres, redis_binary, start_server, logs) -> Any:
    """celery_stack(name, worker_env, production_like=False): a context manager giving
    (broker, server, worker): a throwaway Redis as the broker, the web server on it and
    the module's PostgreSQL, and a Celery worker with beat (`worker_env` on top of the
    server's environment), all stopped when the block ends."""

    @contextlib.contextmanager
    def stack(
        name: str, worker_env: dict[str, str], *, production_like: bool = False
    ) -> Iterator[tuple[ThrowawayRedis, LiveServer, CeleryProcess]]:
        broker = logs.watch("broker", ThrowawayRedis())
        worker = None
        try:
            broker.start()
            server = start_server(
                {"DATABASE_URL": postgres.url, "CELERY_BROKER_URL": broker.url()}, name=name
            )
            env = {
                **server.env(),
                # Prefork children keep a plain connection each (a pool does not fork).
                "DB_POOL_MAX_SIZE": "0",
                "CONN_MAX_AGE": "60",
                **worker_env,
            }
            worker = logs.watch(
                "celery", CeleryProcess(env, beat=True, production_like=production_like)
            )
            worker.start()
            yield broker, server, worker
        finally:
            if worker is not None:
                worker.close()
            broker.close()

    return stack
