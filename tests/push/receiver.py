"""A Web Push service on 127.0.0.1, as strict as a browser's: it checks each request's
VAPID JWT (RFC 8292: ES256 over the claims, `aud` its own origin, `exp` in the next 24 h,
a `sub`, signed by the key in `k` which must be the server's), its TTL and Topic headers,
and decrypts the aes128gcm body (RFC 8188, 8291) with the subscription's private key,
written here from the RFCs with `cryptography` rather than with the library under test.

Each subscription (`subscribe()`) is a path of its own with its own P-256 key pair and
auth secret, as a browser makes them. What a path answers is set per path: 201 (default),
404, 410, 429 with Retry-After, 500, or hang until released.
"""

from __future__ import annotations

import base64
import json
import secrets
import struct
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64d(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def b64e(value: bytes) -> str:
    return base64.urlsafe_b64encode(value).rstrip(b"=").decode()


def point(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def decrypt_aes128gcm(body: bytes, private: ec.EllipticCurvePrivateKey, auth: bytes) -> bytes:
    """RFC 8291 section 3.4 and RFC 8188 section 2, one record."""
    salt, rs, idlen = body[:16], struct.unpack("!L", body[16:20])[0], body[20]
    sender_raw = body[21 : 21 + idlen]
    records = body[21 + idlen :]
    assert idlen == 65, f"keyid is the sender's public key, 65 bytes, not {idlen}"
    assert len(records) <= rs, "one record expected"
    sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_raw)
    shared = private.exchange(ec.ECDH(), sender)
    key_info = b"WebPush: info\x00" + point(private.public_key()) + sender_raw
    ikm = _hkdf(auth, shared, key_info, 32)
    cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    padded = AESGCM(cek).decrypt(nonce, records, None)
    stripped = padded.rstrip(b"\x00")
    assert stripped.endswith(b"\x02"), "the last record ends with the 0x02 delimiter"
    return stripped[:-1]


def verify_vapid(header: str, *, audience: str, public_key: str | None) -> dict[str, Any]:
    """The JWT's claims once every RFC 8292 check passed; AssertionError otherwise."""
    scheme, _, params = header.partition(" ")
    assert scheme.lower() == "vapid", f"scheme {scheme!r}"
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    k, token = parts["k"], parts["t"]
    if public_key is not None:
        assert k == public_key, "signed with another key than the server's"
    signing_input, _, signature = token.rpartition(".")
    head = json.loads(b64d(signing_input.split(".")[0]))
    claims = json.loads(b64d(signing_input.split(".")[1]))
    assert head["alg"] == "ES256", head
    raw = b64d(signature)
    assert len(raw) == 64, "an ES256 JWS signature is r || s, 64 bytes"
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(k))
    try:
        key.verify(der, signing_input.encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("bad VAPID signature") from None
    assert claims["aud"] == audience, f"aud {claims['aud']!r} is not {audience!r}"
    now = time.time()
    assert now < claims["exp"] <= now + 86400 + 60, "exp not within the next 24 h"
    assert claims.get("sub", "").startswith(("mailto:", "https:")), "sub"
    return claims


@dataclass
class Subscription:
    path: str
    private: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str

    def as_json(self) -> dict[str, Any]:
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64e(point(self.private.public_key())), "auth": b64e(self.auth)},
        }


@dataclass
class Push:
    """One request the service accepted and decrypted."""

    path: str
    headers: dict[str, str]
    payload: dict[str, Any]
    claims: dict[str, Any]
    status: int
    arrived: float


@dataclass
class Receiver:
    vapid_public_key: str | None = None
    pushes: list[Push] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    arrivals: list[tuple[str, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.subscriptions: dict[str, Subscription] = {}
        self.answers: dict[str, list[tuple[int, dict[str, str]]]] = {}
        self.default: dict[str, tuple[int, dict[str, str]]] = {}
        self.release = threading.Event()
        self.entered = threading.Event()
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                receiver._handle(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def subscribe(self) -> Subscription:
        path = f"/push/{secrets.token_urlsafe(12)}"
        private = ec.generate_private_key(ec.SECP256R1())
        sub = Subscription(path, private, secrets.token_bytes(16), self.origin + path)
        self.subscriptions[path] = sub
        return sub

    def answer(self, sub: Subscription, *answers: tuple[int, dict[str, str]]) -> None:
        """The next answers for `sub`, in order; then its default (201)."""
        self.answers.setdefault(sub.path, []).extend(answers)

    def always(self, sub: Subscription, status: int, headers: dict[str, str] | None = None) -> None:
        self.default[sub.path] = (status, headers or {})

    def received(self, sub: Subscription | None = None) -> list[Push]:
        with self.lock:
            return [p for p in self.pushes if sub is None or p.path == sub.path]

    def wait(self, predicate, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate():
                left = deadline - time.monotonic()
                assert left > 0, f"timed out; pushes: {len(self.pushes)}, refused: {self.refusals}"
                self.changed.wait(min(left, 0.2))

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def _handle(self, request: BaseHTTPRequestHandler) -> None:
        body = request.rfile.read(int(request.headers.get("Content-Length", 0)))
        arrived = time.monotonic()
        path = request.path
        with self.changed:
            self.arrivals.append((path, arrived))
            self.changed.notify_all()
        sub = self.subscriptions.get(path)
        with self.lock:
            queued = self.answers.get(path)
            status, headers = queued.pop(0) if queued else self.default.get(path, (201, {}))
        if status == 0:  # hang: hold the request until released
            self.entered.set()
            self.release.wait(60)
            status = 201
        try:
            assert sub is not None, f"no subscription at {path}"
            claims = verify_vapid(
                request.headers.get("Authorization", ""),
                audience=self.origin,
                public_key=self.vapid_public_key,
            )
            assert request.headers.get("Content-Encoding") == "aes128gcm"
            assert request.headers.get("TTL", "").isdigit(), "TTL header"
            topic = request.headers.get("Topic", "")
            assert topic, "Topic header"
            assert len(topic) <= 32, f"Topic {topic!r}"
            assert request.headers.get("Urgency") in ("very-low", "low", "normal", "high")
            payload = json.loads(decrypt_aes128gcm(body, sub.private, sub.auth))
        except (AssertionError, KeyError, ValueError) as exc:
            with self.changed:
                self.refusals.append(f"{path}: {exc}")
                self.changed.notify_all()
            self._reply(request, 400, {})
            return
        with self.changed:
            self.pushes.append(Push(path, dict(request.headers), payload, claims, status, arrived))
            self.changed.notify_all()
        self._reply(request, status, headers)

    @staticmethod
    def _reply(request: BaseHTTPRequestHandler, status: int, headers: dict[str, str]) -> None:
        request.send_response(status)
        for name, value in headers.items():
            request.send_header(name, value)
        request.send_header("Content-Length", "0")
        request.end_headers()


def card_codes(hands: Iterable[Iterable[str]]) -> set[str]:
    return {card for hand in hands for card in hand}
