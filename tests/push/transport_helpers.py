"""What the fake APNs and FCM servers share: a throwaway CA and server certificate,
provider keys, a clock a test moves, and a hypercorn server in a thread on a free port."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import json
import re
import socket
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from hypercorn.asyncio import serve
from hypercorn.config import Config

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Clock:
    """A settable time, shared by a provider (its `clock`) and a fake (its checks)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass(frozen=True)
class Tls:
    ca_file: str  # what the provider trusts (ca_file)
    cert_file: str
    key_file: str


def _pem_key(key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def make_tls(directory: Path) -> Tls:
    """A CA and a server certificate it signed for 127.0.0.1 and localhost, with the
    extensions a strict verifier asks for (a self-signed leaf is refused by some)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "push test CA")])
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(ca_ski, critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski),
            critical=False,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    directory.mkdir(parents=True, exist_ok=True)
    paths = Tls(
        ca_file=str(directory / "ca.pem"),
        cert_file=str(directory / "server.pem"),
        key_file=str(directory / "server.key"),
    )
    Path(paths.ca_file).write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    Path(paths.cert_file).write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    Path(paths.key_file).write_bytes(_pem_key(key))
    return paths


def make_apns_key(path: Path) -> ec.EllipticCurvePublicKey:
    """A .p8 as Apple hands it out (a PKCS#8 P-256 key); the public half is the fake's."""
    key = ec.generate_private_key(ec.SECP256R1())
    path.write_bytes(_pem_key(key))
    return key.public_key()


def make_service_account(
    path: Path, *, token_uri: str, project_id: str = "pusoy-test"
) -> rsa.RSAPublicKey:
    """A service-account JSON file as the Google Cloud console downloads it."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    info = {
        "type": "service_account",
        "project_id": project_id,
        "private_key_id": "0123456789abcdef0123456789abcdef01234567",
        "private_key": _pem_key(key).decode(),
        "client_email": f"push@{project_id}.iam.gserviceaccount.com",
        "client_id": "100000000000000000001",
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": token_uri,
        "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
        "universe_domain": "googleapis.com",
    }
    path.write_text(json.dumps(info))
    return key.public_key()


async def lifespan(receive: Receive, send: Send) -> None:
    """Hypercorn waits for the app to say it started before it serves."""
    while True:
        event = await receive()
        if event["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif event["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        event = await receive()
        if event["type"] == "http.disconnect":
            break
        chunks.append(event.get("body", b""))
        if not event.get("more_body"):
            break
    return b"".join(chunks)


async def respond(
    send: Send, status: int, body: object, headers: dict[str, str] | None = None
) -> None:
    data = json.dumps(body).encode() if body is not None else b""
    raw = [(b"content-type", b"application/json")]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": data})


class ServerThread:
    """Serves an ASGI app with hypercorn over TLS on 127.0.0.1, in a thread with its own
    event loop; `stop` releases any request left hanging and shuts the server down."""

    def __init__(
        self,
        app: Callable[..., Awaitable[None]],
        tls: Tls,
        *,
        h2_only: bool,
        requests_per_connection: int = 1000,
    ) -> None:
        self.app = app
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        self.port = listener.getsockname()[1]
        config = Config()
        # The socket is hypercorn's from here on (it closes it).
        config.bind = [f"fd://{listener.detach()}"]
        config.certfile = tls.cert_file
        config.keyfile = tls.key_file
        config.alpn_protocols = ["h2"] if h2_only else ["h2", "http/1.1"]
        config.graceful_timeout = 0.5
        # After this many requests hypercorn closes a connection with a graceful GOAWAY,
        # as Apple's and Google's front ends rotate theirs.
        config.keep_alive_max_requests = requests_per_connection
        config.accesslog = None
        config.errorlog = None
        self._config = config
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fake-push-server", daemon=True)

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.stopping = asyncio.Event()
        self._ready.set()
        self.loop.run_until_complete(
            serve(self.app, self._config, shutdown_trigger=self.stopping.wait)
        )
        self.loop.close()

    def start(self) -> ServerThread:
        self._thread.start()
        self._ready.wait()
        return self

    def stop(self) -> None:
        if not self._thread.is_alive():
            return
        self.loop.call_soon_threadsafe(self.stopping.set)
        self._thread.join(timeout=10)


@dataclass
class Received:
    """One request as a fake server read it."""

    path: str
    headers: dict[str, str]
    body: bytes
    client: tuple[str, int]  # the connection it came on
    http_version: str = ""
    claims: dict[str, Any] = field(default_factory=dict)  # the verified token's, if any
    status: int = 0
    reason: str = ""

    @property
    def json(self) -> Any:
        return json.loads(self.body)


AnswerT = TypeVar("AnswerT")


class FakeServer(Generic[AnswerT]):
    """What a fake provider does besides checking: runs, records, answers as scripted.
    A subclass (a dataclass) has `tls`, `answers`, `received` and `_lock`, and `app`."""

    h2_only: ClassVar[bool] = False
    tls: Tls
    answers: deque[AnswerT]
    received: list[Received]
    _lock: threading.Lock
    server: ServerThread

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError

    def start(self, *, requests_per_connection: int = 1000) -> Any:
        self.server = ServerThread(
            self.app,
            self.tls,
            h2_only=self.h2_only,
            requests_per_connection=requests_per_connection,
        ).start()
        return self

    def stop(self) -> None:
        self.server.stop()

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def connections(self) -> set[tuple[str, int]]:
        return {r.client for r in self.received}

    def answer(self, *answers: AnswerT) -> None:
        """The answers to give, in order, to the next requests that pass the checks."""
        with self._lock:
            self.answers.extend(answers)

    def next_answer(self, default: AnswerT) -> AnswerT:
        with self._lock:
            return self.answers.popleft() if self.answers else default

    def record(self, received: Received) -> None:
        with self._lock:
            self.received.append(received)


def send_from_threads(provider: Any, target: Any, message: Any, *, threads: int = 8) -> list:
    """Five sends from each of `threads` threads through one provider, as a threaded
    worker would; their results."""
    results: list = []

    def send_some() -> None:
        results.extend(provider.send(target, message) for _ in range(5))

    workers = [threading.Thread(target=send_some) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return results


# A card as the engine writes one ("9H", "10S", "AS").
CARD = re.compile(r"\b(?:[2-9]|10|[TJQKA])[CDHS]\b")


def assert_kept_private(caplog: Any, received: list[Received], token: str, message: Any) -> None:
    """No card in anything the provider received; in the logs, no device token, no
    title or body, and none of the data in our own lines."""
    for request in received:
        assert not CARD.search(request.body.decode() + " ".join(request.headers.values()))
    logged = caplog.text
    ours = " ".join(r.getMessage() for r in caplog.records if r.name.startswith("push."))
    assert token not in logged
    assert message.title not in logged
    assert message.body not in logged
    for value in message.data.values():
        assert value not in ours
