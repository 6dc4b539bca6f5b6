"""Fixtures for fault tests: throwaway PostgreSQL and Redis, the real web server on them,
and every process's log printed when a test fails."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.faults.helpers import need
from tests.throwaway import LiveServer, ThrowawayPostgres, postgres_bin_dir, redis_server_binary


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
