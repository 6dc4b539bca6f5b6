"""The Web Push provider, for real, against a local push service (receiver.py) that
checks the VAPID JWT and decrypts the body from the RFCs: what it answers becomes the
outcome the tasks act on."""

from __future__ import annotations

import threading

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from push.providers.base import DeviceTarget, Outcome, PushMessage
from push.providers.webpush import (
    WebPushConfig,
    WebPushProvider,
    b64url_encode,
    retry_after_seconds,
    topic,
)

from .receiver import Receiver, Subscription

MESSAGE = PushMessage(
    title="Your turn",
    body="It's your turn in game 1a2b3c4d.",
    data={"kind": "your_turn", "game": "1a2b3c4d-0000-0000-0000-000000000000", "event": "7"},
    collapse_id="game-1a2b3c4d-0000-0000-0000-000000000000",
    ttl_seconds=600,
)


def raw_key() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    private = b64url_encode(key.private_numbers().private_value.to_bytes(32, "big"))
    public = b64url_encode(
        key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )
    return private, public


@pytest.fixture
def keys():
    return raw_key()


@pytest.fixture
def receiver(keys):
    made = Receiver(vapid_public_key=keys[1])
    yield made
    made.close()


@pytest.fixture
def provider(keys):
    made = WebPushProvider(
        WebPushConfig(private_key=keys[0], subject="mailto:ops@example.com", timeout=2.0)
    )
    yield made
    made.close()


def target(sub: Subscription) -> DeviceTarget:
    keys = sub.as_json()["keys"]
    return DeviceTarget("webpush", endpoint=sub.endpoint, p256dh=keys["p256dh"], auth=keys["auth"])


def test_a_push_arrives_signed_encrypted_and_collapsible(receiver, provider, keys):
    sub = receiver.subscribe()
    result = provider.send(target(sub), MESSAGE)
    assert result.outcome is Outcome.SENT
    assert result.status == 201
    [push] = receiver.received(sub)
    assert push.payload == {"title": MESSAGE.title, "body": MESSAGE.body, "data": MESSAGE.data}
    assert push.claims["aud"] == receiver.origin
    assert push.headers["TTL"] == "600"
    assert push.headers["Urgency"] == "high"
    assert push.headers["Topic"] == topic(MESSAGE.collapse_id)
    assert provider.public_key == keys[1]
    assert receiver.refusals == []


def test_one_games_pushes_share_a_topic_and_two_games_do_not():
    one = topic("game-1a2b3c4d-0000-0000-0000-000000000000")
    assert one == topic("game-1a2b3c4d-0000-0000-0000-000000000000")
    assert one != topic("game-1a2b3c4d-0000-0000-0000-000000000001")
    assert len(one) <= 32
    assert all(c.isalnum() or c in "-_" for c in one)
    assert topic("short-id") == "short-id"


def test_each_push_has_its_own_sender_key_and_salt(receiver, provider):
    sub = receiver.subscribe()
    first = provider.encrypt(target(sub), b"same")
    second = provider.encrypt(target(sub), b"same")
    assert first[:16] != second[:16]
    assert first[21:86] != second[21:86]


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_service_forgot_is_gone(receiver, provider, status):
    sub = receiver.subscribe()
    receiver.always(sub, status)
    result = provider.send(target(sub), MESSAGE)
    assert (result.outcome, result.status) == (Outcome.GONE, status)


def test_429_is_retried_after_the_services_retry_after(receiver, provider):
    sub = receiver.subscribe()
    receiver.answer(sub, (429, {"Retry-After": "7"}))
    result = provider.send(target(sub), MESSAGE)
    assert (result.outcome, result.status, result.retry_after) == (Outcome.RETRY, 429, 7.0)


def test_5xx_is_retried_and_a_4xx_is_not(receiver, provider):
    sub = receiver.subscribe()
    receiver.answer(sub, (503, {}), (413, {}))
    assert provider.send(target(sub), MESSAGE).outcome is Outcome.RETRY
    assert provider.send(target(sub), MESSAGE).outcome is Outcome.FAILED


def test_a_service_that_hangs_is_a_retry_after_the_timeout(receiver, provider):
    sub = receiver.subscribe()
    receiver.always(sub, 0)
    try:
        result = provider.send(target(sub), MESSAGE)
    finally:
        receiver.release.set()
    assert result.outcome is Outcome.RETRY
    assert result.reason.startswith("timeout")


def test_a_service_that_is_not_there_is_a_retry(provider):
    gone = DeviceTarget(
        "webpush",
        endpoint="http://127.0.0.1:9/push/x",
        p256dh=b64url_encode(b"\x04" + bytes(64)),
        auth=b64url_encode(bytes(16)),
    )
    assert provider.send(gone, MESSAGE).outcome in (Outcome.RETRY, Outcome.GONE)


def test_keys_that_are_no_keys_make_the_subscription_gone(receiver, provider):
    sub = receiver.subscribe()
    bad = DeviceTarget("webpush", endpoint=sub.endpoint, p256dh="AAAA", auth="AAAA")
    assert provider.send(bad, MESSAGE).outcome is Outcome.GONE
    assert receiver.arrivals == []


def test_a_key_the_service_does_not_know_is_refused(receiver):
    stranger = WebPushProvider(
        WebPushConfig(private_key=raw_key()[0], subject="mailto:ops@example.com", timeout=2.0)
    )
    sub = receiver.subscribe()
    result = stranger.send(target(sub), MESSAGE)
    stranger.close()
    assert result.outcome is Outcome.FAILED
    assert result.status == 400
    assert "another key" in receiver.refusals[0]


def test_a_pem_key_works_as_the_raw_one(receiver, keys):
    number = int.from_bytes(
        __import__("base64").urlsafe_b64decode(keys[0] + "=" * (-len(keys[0]) % 4)), "big"
    )
    pem = (
        ec.derive_private_key(number, ec.SECP256R1())
        .private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        .decode()
    )
    provider = WebPushProvider(WebPushConfig(private_key=pem, subject="mailto:ops@example.com"))
    sub = receiver.subscribe()
    assert provider.send(target(sub), MESSAGE).outcome is Outcome.SENT
    provider.close()


def test_the_jwt_is_reused_per_origin_until_it_ages(keys):
    now = [1_000_000.0]
    provider = WebPushProvider(
        WebPushConfig(private_key=keys[0], subject="mailto:ops@example.com"),
        clock=lambda: now[0],
    )
    first = provider.authorization("https://push.example.com/a")
    assert provider.authorization("https://push.example.com/b") == first
    assert provider.authorization("https://other.example.com/a") != first
    now[0] += 3601
    assert provider.authorization("https://push.example.com/a") != first
    provider.close()


def test_retry_after_reads_seconds_and_dates():
    assert retry_after_seconds("120") == 120.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert retry_after_seconds("soon") is None
    assert retry_after_seconds(None) is None


def test_concurrent_sends_share_the_provider(receiver, provider):
    subs = [receiver.subscribe() for _ in range(8)]
    threads = [threading.Thread(target=provider.send, args=(target(s), MESSAGE)) for s in subs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(receiver.received()) == 8
