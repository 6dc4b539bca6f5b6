"""The APNs provider against a local HTTP/2 APNs (fake_apns): real TLS, real JWTs."""

from __future__ import annotations

import contextlib
import dataclasses
import email.utils
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from push.providers.apns import ApnsConfig, ApnsProvider
from push.providers.base import DeviceTarget, Outcome, PushMessage

from .fake_apns import Answer, FakeApns
from .transport_helpers import (
    Clock,
    assert_kept_private,
    make_apns_key,
    make_tls,
    send_from_threads,
)

KEY_ID = "ABC123DEFG"
TEAM_ID = "DEF123GHIJ"
TOPIC = "ph.pusoy.app"
DEVICE = DeviceTarget(platform="apns", token="a1" * 32)
MESSAGE = PushMessage(
    title="Your turn",
    body="Ana played; it is your move.",
    data={"kind": "turn", "game": "9f1c", "event": "311"},
    collapse_id="game-9f1c",
    ttl_seconds=600,
)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def apns(tmp_path: Path, clock: Clock) -> Iterator[tuple[FakeApns, ApnsConfig]]:
    tls = make_tls(tmp_path / "tls")
    public = make_apns_key(tmp_path / "AuthKey.p8")
    fake = FakeApns(key=public, key_id=KEY_ID, team_id=TEAM_ID, topic=TOPIC, tls=tls, clock=clock)
    fake.start()
    config = ApnsConfig(
        key_id=KEY_ID,
        team_id=TEAM_ID,
        key_path=str(tmp_path / "AuthKey.p8"),
        topic=TOPIC,
        base_url=fake.url,
        timeout=2.0,
        ca_file=tls.ca_file,
    )
    yield fake, config
    fake.stop()


@pytest.fixture
def fake(apns: tuple[FakeApns, ApnsConfig]) -> FakeApns:
    return apns[0]


@pytest.fixture
def provider(apns: tuple[FakeApns, ApnsConfig], clock: Clock) -> Iterator[ApnsProvider]:
    provider = ApnsProvider(apns[1], clock=clock)
    yield provider
    provider.close()


@contextlib.contextmanager
def provider_with(apns, clock: Clock, **changes) -> Iterator[ApnsProvider]:
    """A second provider on the same fake, its configuration changed as named."""
    provider = ApnsProvider(dataclasses.replace(apns[1], **changes), clock=clock)
    try:
        yield provider
    finally:
        provider.close()


def test_a_push_is_sent_over_http2_with_apples_headers_and_payload(provider, fake, clock):
    result = provider.send(DEVICE, MESSAGE)

    assert result.outcome is Outcome.SENT
    assert result.status == 200
    assert result.extra["apns_id"]
    [request] = fake.received
    assert request.http_version == "2"
    assert request.path == f"/3/device/{DEVICE.token}"
    assert request.headers["apns-topic"] == TOPIC
    assert request.headers["apns-push-type"] == "alert"
    assert request.headers["apns-priority"] == "10"
    assert request.headers["apns-collapse-id"] == "game-9f1c"
    assert int(request.headers["apns-expiration"]) == int(clock()) + 600
    assert request.claims == {"iss": TEAM_ID, "iat": int(clock())}
    assert request.json == {
        "aps": {
            "alert": {"title": "Your turn", "body": "Ana played; it is your move."},
            "sound": "default",
            "thread-id": "game-9f1c",
        },
        "kind": "turn",
        "game": "9f1c",
        "event": "311",
    }


def test_a_data_key_named_aps_cannot_replace_the_alert(provider, fake):
    message = PushMessage(title="t", body="b", data={"aps": "x", "kind": "turn"}, collapse_id="g")

    assert provider.send(DEVICE, message).outcome is Outcome.SENT
    assert fake.received[0].json["aps"]["alert"] == {"title": "t", "body": "b"}


@pytest.mark.parametrize(
    ("status", "reason", "outcome"),
    [
        (410, "Unregistered", Outcome.GONE),
        (400, "BadDeviceToken", Outcome.GONE),
        (400, "DeviceTokenNotForTopic", Outcome.GONE),
        (500, "InternalServerError", Outcome.RETRY),
        (503, "ServiceUnavailable", Outcome.RETRY),
        (429, "TooManyRequests", Outcome.RETRY),
        (400, "BadCollapseId", Outcome.FAILED),
        (403, "InvalidProviderToken", Outcome.FAILED),
        (413, "PayloadTooLarge", Outcome.FAILED),
    ],
)
def test_apples_answer_is_an_outcome_with_apples_reason(provider, fake, status, reason, outcome):
    fake.answer(Answer(status, reason))

    result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.status, result.reason) == (outcome, status, reason)


def test_a_token_apple_refuses_for_its_form_is_gone(provider, fake):
    # Not a scripted answer: the fake refuses a token that is not 64 hex digits itself.
    result = provider.send(DeviceTarget(platform="apns", token="not/a token"), MESSAGE)

    assert (result.outcome, result.status, result.reason) == (Outcome.GONE, 400, "BadDeviceToken")
    assert fake.received[0].path == "/3/device/not/a token"  # sent as not%2Fa%20token


def test_retry_after_in_seconds_is_parsed(provider, fake):
    fake.answer(Answer(429, "TooManyRequests", retry_after="120"))

    result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.retry_after) == (Outcome.RETRY, 120.0)


def test_retry_after_as_an_http_date_is_seconds_from_now(provider, fake):
    when = email.utils.formatdate(time.time() + 300, usegmt=True)
    fake.answer(Answer(503, "ServiceUnavailable", retry_after=when))

    result = provider.send(DEVICE, MESSAGE)

    assert result.outcome is Outcome.RETRY
    assert result.retry_after is not None
    assert 240 < result.retry_after <= 300


def test_no_retry_after_is_none(provider, fake):
    fake.answer(Answer(500, "InternalServerError"))

    assert provider.send(DEVICE, MESSAGE).retry_after is None


def test_the_provider_token_is_reused_for_50_minutes_then_replaced(provider, fake, clock):
    provider.send(DEVICE, MESSAGE)
    clock.advance(49 * 60)
    provider.send(DEVICE, MESSAGE)
    clock.advance(60)
    result = provider.send(DEVICE, MESSAGE)

    assert result.outcome is Outcome.SENT
    first, second, third = (r.headers["authorization"] for r in fake.received)
    assert first == second != third
    assert fake.received[2].claims["iat"] == int(clock())
    # Apple's own limits held: no token older than an hour, none replaced within 20 min.
    assert [r.status for r in fake.received] == [200, 200, 200]


def test_expired_provider_token_is_replaced_and_the_send_retried(provider, fake, clock):
    provider.send(DEVICE, MESSAGE)
    fake.answer(Answer(403, "ExpiredProviderToken"))

    refused = provider.send(DEVICE, MESSAGE)
    clock.advance(20 * 60)
    again = provider.send(DEVICE, MESSAGE)

    assert (refused.outcome, refused.status, refused.reason) == (
        Outcome.RETRY,
        403,
        "ExpiredProviderToken",
    )
    assert again.outcome is Outcome.SENT
    tokens = [r.headers["authorization"] for r in fake.received]
    assert tokens[0] == tokens[1] != tokens[2]


def test_an_expired_token_from_the_fakes_own_check_is_retried(tmp_path, fake, apns, clock):
    # A provider whose clock runs an hour behind Apple's signs tokens Apple finds too old.
    with provider_with(apns, Clock(clock() - 3700)) as provider:
        result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.reason) == (Outcome.RETRY, "ExpiredProviderToken")


def test_a_token_signed_with_another_key_fails(tmp_path, fake, apns, clock):
    other = tmp_path / "Other.p8"
    make_apns_key(other)
    with provider_with(apns, clock, key_path=str(other)) as provider:
        result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.status, result.reason) == (
        Outcome.FAILED,
        403,
        "InvalidProviderToken",
    )


def test_a_wrong_topic_fails(fake, apns, clock):
    with provider_with(apns, clock, topic="ph.other.app") as provider:
        result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.reason) == (Outcome.FAILED, "TopicDisallowed")


def test_a_hanging_server_is_a_timeout_and_a_retry(fake, apns, clock):
    fake.answer(Answer(hang=True))
    with provider_with(apns, clock, timeout=0.5) as provider:
        result = provider.send(DEVICE, MESSAGE)
        after = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.status, result.reason) == (Outcome.RETRY, None, "timeout")
    assert after.outcome is Outcome.SENT


def test_nothing_listening_is_a_retry(apns, clock):
    apns[0].stop()
    with provider_with(apns, clock) as provider:
        result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.status) == (Outcome.RETRY, None)
    assert result.reason == "ConnectError"


def test_an_untrusted_certificate_is_a_retry_not_an_exception(apns, clock):
    with provider_with(apns, clock, ca_file=None) as provider:
        result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.reason) == (Outcome.RETRY, "ConnectError")


def test_sends_share_one_connection(provider, fake):
    for _ in range(5):
        provider.send(DEVICE, MESSAGE)

    assert len(fake.received) == 5
    assert len(fake.connections) == 1


def test_a_connection_the_server_rotates_is_replaced_and_nothing_sent_twice(apns, clock):
    fake = apns[0]
    fake.stop()
    # hypercorn takes a 4th request on a connection, then closes it with a GOAWAY that
    # names that request's stream as possibly processed, and never answers it.
    fake.start(requests_per_connection=3)
    with provider_with(apns, clock, base_url=fake.url) as provider:
        results = [provider.send(DEVICE, MESSAGE) for _ in range(7)]

    # That one is a RETRY (it may have arrived: not resent), the next go on a new connection.
    assert [r.outcome for r in results] == [Outcome.SENT] * 3 + [Outcome.RETRY] + [Outcome.SENT] * 3
    assert results[3].reason == "RemoteProtocolError"
    # Seven sends, none twice (the 4th is recorded only if its handler ran before the close).
    assert len(fake.received) in (6, 7)
    assert len(fake.connections) == 2


def test_threads_share_the_provider_and_its_token(provider, fake):
    results = send_from_threads(provider, DEVICE, MESSAGE)

    assert [r.outcome for r in results] == [Outcome.SENT] * 40
    assert len({r.headers["authorization"] for r in fake.received}) == 1
    # A connection per thread at most, each kept for the sends that follow.
    assert len(fake.connections) <= 8


def test_apple_receives_nothing_but_the_message_and_logs_hold_none_of_it(provider, fake, caplog):
    # Every logger at INFO, httpx's included (its request line names the URL), and ours
    # at DEBUG. (hpack's DEBUG lines hold every header: docs/push-providers.md.)
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="push.providers")
    fake.answer(Answer(410, "Unregistered"))

    provider.send(DEVICE, MESSAGE)
    provider.send(DEVICE, MESSAGE)

    for request in fake.received:
        payload = request.json
        alert = payload.pop("aps")["alert"]
        assert alert == {"title": MESSAGE.title, "body": MESSAGE.body}
        assert payload == MESSAGE.data
    assert_kept_private(caplog, fake.received, DEVICE.token, MESSAGE)
    assert "Unregistered" in caplog.text
