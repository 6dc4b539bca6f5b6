"""The web server's application sends waits and streams to Django's ASGI handler and every
other request to its WSGI handler on a pool thread (pusoy_api.serving). Which way a
request goes changes what it costs, never what it answers; the live-server tests
(tests/api/test_long_poll.py, tests/notifications/test_stream.py, tests/faults) run the
whole stack this way."""

from __future__ import annotations

import asyncio
import contextvars
import threading

import pytest

from pusoy_api.serving import ByKind, ThreadPool, WsgiInThread, waits


def http_scope(method: str, path: str, query: bytes = b"", headers=()) -> dict:
    return {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "headers": list(headers),
        "scheme": "http",
        "http_version": "1.1",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.2", 50000),
    }


GAME = "/api/v1/games/0b7e8a6c-0000-4000-8000-000000000001"


@pytest.mark.parametrize(
    ("method", "path", "query", "expected"),
    [
        ("GET", f"{GAME}/moves", b"since=3&wait=30", True),
        ("GET", f"{GAME}/moves", b"wait=0.5", True),
        ("GET", "/api/v1/events", b"since=9&wait=20", True),
        ("GET", "/api/v1/events/stream", b"", True),
        # An invalid wait goes where a wait would: the view answers its 400 either way.
        ("GET", f"{GAME}/moves", b"wait=nan", True),
        ("GET", f"{GAME}/moves", b"since=3", False),
        ("GET", f"{GAME}/moves", b"since=3&wait=0", False),
        ("GET", f"{GAME}/moves", b"wait=", False),
        ("GET", "/api/v1/events", b"since=9", False),
        ("POST", f"{GAME}/moves", b"wait=30", False),
        ("GET", f"{GAME}/state", b"wait=30", False),
        ("GET", "/api/v1/players/me", b"", False),
        ("GET", "/healthz", b"", False),
    ],
)
def test_only_waits_and_streams_go_to_the_event_loop(method, path, query, expected):
    assert waits(http_scope(method, path, query)) is expected


class Recorder:
    def __init__(self, name: str) -> None:
        self.name = name
        self.calls: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        self.calls.append(scope.get("path", scope["type"]))


def test_by_kind_routes_http_by_kind_and_everything_else_to_the_asgi_handler():
    waiting, plain = Recorder("waiting"), Recorder("plain")
    app = ByKind(waiting=waiting, plain=plain)

    async def nothing():
        return {}

    async def drop(message):
        return None

    for scope in (
        http_scope("GET", "/api/v1/events/stream"),
        http_scope("GET", "/api/v1/players/me"),
        {"type": "lifespan"},
    ):
        asyncio.run(app(scope, nothing, drop))
    assert waiting.calls == ["/api/v1/events/stream", "lifespan"]
    assert plain.calls == ["/api/v1/players/me"]


def exchange(app, scope, chunks: list[bytes]) -> list[dict]:
    sent: list[dict] = []
    pending = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]

    async def receive():
        return pending.pop(0)

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


MARK: contextvars.ContextVar[str] = contextvars.ContextVar("mark", default="unset")


def test_a_plain_request_runs_whole_on_a_pool_thread_with_a_complete_environ():
    seen: list[dict] = []
    closed: list[bool] = []

    class Body(list):
        def close(self) -> None:
            closed.append(True)

    def wsgi(environ, start_response):
        seen.append(
            {
                **{k.upper(): v for k, v in environ.items() if not k.startswith("wsgi.")},
                "body": environ["wsgi.input"].read(),
                "thread": threading.current_thread().name,
                "mark": MARK.get(),
            }
        )
        MARK.set("set by a request")
        start_response("201 Created", [("Content-Type", "application/json"), ("X-One", "1")])
        return Body([b'{"a":', b" 1}"])

    app = WsgiInThread(wsgi, threads=2)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", b"8"),
        (b"authorization", b"Bearer t"),
        (b"x-forwarded-for", b"10.0.0.1"),
        (b"x-forwarded-for", b"10.0.0.2"),
    ]
    scope = http_scope("POST", "/api/v1/games", b"a=1&b=%C3%A9", headers)
    for _ in range(2):
        sent = exchange(app, scope, [b'{"x":', b"1}"])
    assert sent == [
        {
            "type": "http.response.start",
            "status": 201,
            "headers": [(b"content-type", b"application/json"), (b"x-one", b"1")],
        },
        {"type": "http.response.body", "body": b'{"a": 1}'},
    ]
    environ = seen[0]
    assert environ["REQUEST_METHOD"] == "POST"
    assert environ["PATH_INFO"] == "/api/v1/games"
    assert environ["QUERY_STRING"] == "a=1&b=%C3%A9"
    assert environ["CONTENT_TYPE"] == "application/json"
    assert environ["CONTENT_LENGTH"] == "8"
    assert environ["HTTP_AUTHORIZATION"] == "Bearer t"
    assert environ["HTTP_X_FORWARDED_FOR"] == "10.0.0.1,10.0.0.2"
    assert environ["REMOTE_ADDR"] == "127.0.0.2"
    assert (environ["SERVER_NAME"], environ["SERVER_PORT"]) == ("127.0.0.1", "8000")
    assert environ["body"] == b'{"x":1}'
    assert environ["PUSOY.STREAMS"] is True
    assert environ["thread"].startswith("pusoy-web")
    # Nothing a request set is seen by the next one the same thread serves.
    assert [s["mark"] for s in seen] == ["unset", "unset"]
    assert closed == [True, True]


def test_a_client_gone_before_its_body_came_runs_nothing():
    ran: list[bool] = []

    def wsgi(environ, start_response):
        ran.append(True)
        start_response("200 OK", [])
        return [b""]

    sent: list[dict] = []

    async def receive():
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(WsgiInThread(wsgi, threads=1)(http_scope("POST", "/x"), receive, send))
    assert ran == []
    assert sent == []


def test_the_served_application_is_routed_by_kind():
    from pusoy_api import asgi

    routed = asgi.application.app
    assert isinstance(routed, ByKind)
    assert isinstance(routed.plain, WsgiInThread)
    assert routed.waiting is asgi.django_application
    assert asgi.asgi_only.app is asgi.django_application


def test_the_pool_answers_each_call_with_its_result_or_its_exception():
    pool = ThreadPool(2, name="test-pool")

    def work(n: int) -> tuple[int, str]:
        if n == 3:
            raise ValueError("three")
        return n * n, threading.current_thread().name

    async def main():
        futures = [pool.run(work, n) for n in range(6)]
        return await asyncio.gather(*futures, return_exceptions=True)

    outcomes = asyncio.run(main())
    assert [o if isinstance(o, ValueError) else o[0] for o in outcomes[:3]] == [0, 1, 4]
    assert isinstance(outcomes[3], ValueError)
    assert [o[0] for o in outcomes[4:]] == [16, 25]
    assert {o[1] for o in outcomes if not isinstance(o, ValueError)} <= {
        "test-pool_0",
        "test-pool_1",
    }
    # Threads are started as needed, never more than asked for, and serve loop after loop.
    assert len(pool.threads) <= 2
    assert asyncio.run(main())[0][0] == 0
    assert len(pool.threads) <= 2


def test_an_application_error_reaches_the_server_as_it_would_inline():
    def wsgi(environ, start_response):
        raise RuntimeError("bug")

    with pytest.raises(RuntimeError, match="bug"):
        exchange(WsgiInThread(wsgi, threads=1), http_scope("GET", "/x"), [b""])
