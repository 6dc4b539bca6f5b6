"""One real server for the client tests, as a reader of the README's "Build a client"
runs it: `scripts/serve.sh` with nothing configured (SQLite, the AI seats' tasks in the
web process), so an AI reply reaches a client a moment after the move, never within it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.throwaway import LiveServer, sqlite_server


@pytest.fixture(scope="package")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    with sqlite_server(tmp_path_factory.mktemp("clients"), name="clients") as web:
        yield web


@pytest.fixture
def server_url(server: LiveServer) -> str:
    return f"http://127.0.0.1:{server.port}"
