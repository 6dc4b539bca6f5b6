"""The body limit on the real server (gunicorn + uvicorn), from a raw socket: a chunked
body has no Content-Length to check, so the limit must hold while the bytes arrive."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from tests.throwaway import LiveServer, sqlite_server

pytestmark = pytest.mark.slow

LIMIT = 256 * 1024  # MAX_REQUEST_BODY_BYTES's default, which the server runs with
CHUNK = 16 * 1024
PATH = "/api/v1/records/verify"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    with sqlite_server(tmp_path_factory.mktemp("limits"), name="limits") as web:
        yield web


def head(framing: str) -> bytes:
    return (
        f"POST {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"{framing}\r\n\r\n"
    ).encode()


def chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 answer with a Content-Length (all this server sends here)."""
    raw = b""
    while b"\r\n\r\n" not in raw:
        data = sock.recv(65536)
        assert data, f"connection closed before an answer: {raw!r}"
        raw += data
    top, body = raw.split(b"\r\n\r\n", 1)
    status_line, *lines = top.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines)}
    while len(body) < int(headers["content-length"]):
        data = sock.recv(65536)
        assert data, "connection closed mid-answer"
        body += data
    return int(status_line.split()[1]), headers, body


def closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:  # closed with our unread bytes still in its buffer
        return True


def connect(server: LiveServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def test_a_chunked_body_over_the_limit_is_413_while_it_is_still_being_sent(server):
    """The body never ends (no last chunk): only a server counting the bytes as they come
    can answer; one waiting for the end times out here."""
    with connect(server) as sock:
        sock.sendall(head("Transfer-Encoding: chunked") + chunk(b"["))
        sent = 1
        while sent <= LIMIT:
            sock.sendall(chunk(b" " * CHUNK))
            sent += CHUNK
        status, headers, body = read_answer(sock)
        assert status == 413
        assert headers["content-type"] == "application/json"
        assert headers["connection"] == "close"
        assert json.loads(body) == {
            "error": {
                "code": "payload_too_large",
                "message": f"The body is larger than {LIMIT} bytes.",
                "details": {"limit": LIMIT},
            }
        }
        assert closed_by_server(sock)


def test_a_length_beside_chunked_framing_is_refused_before_any_body_is_read(server):
    """Two framings at once is how requests are smuggled past a proxy: uvicorn's parser
    (httptools) refuses the request outright, as RFC 9112 (6.3) allows, before the
    application sees any of it; the small length never vouches for the chunks."""
    served = server.log().count("POST /api/v1/records/verify")
    with connect(server) as sock:
        sock.sendall(head("Content-Length: 5\r\nTransfer-Encoding: chunked") + chunk(b"["))
        status, headers, _ = read_answer(sock)
        assert status == 400
        assert headers["connection"] == "close"
        assert closed_by_server(sock)
    assert server.log().count("POST /api/v1/records/verify") == served


def test_a_chunked_body_under_the_limit_is_answered_as_with_a_length(server):
    # Not a record (a list): the answer says so only if the body was read.
    body = b"[" + b" " * (4 * CHUNK) + b"1]"
    with connect(server) as sock:
        sock.sendall(head(f"Content-Length: {len(body)}") + body)
        with_length = read_answer(sock)
    with connect(server) as sock:
        pieces = [body[i : i + CHUNK] for i in range(0, len(body), CHUNK)]
        sock.sendall(head("Transfer-Encoding: chunked"))
        for piece in pieces:
            sock.sendall(chunk(piece))
        sock.sendall(b"0\r\n\r\n")
        chunked = read_answer(sock)
    assert with_length[0] == 400
    assert json.loads(with_length[2])["error"]["message"] == "A record is a JSON object."
    assert (chunked[0], json.loads(chunked[2])) == (with_length[0], json.loads(with_length[2]))


def test_a_content_length_over_the_limit_is_413_before_the_body_is_sent(server):
    with connect(server) as sock:
        sock.sendall(head(f"Content-Length: {200 * 1024 * 1024}"))
        status, _, body = read_answer(sock)
    assert status == 413
    assert json.loads(body)["error"]["details"] == {"limit": LIMIT}
