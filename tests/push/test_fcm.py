"""The FCM provider against a local FCM (fake_fcm): real TLS, a real OAuth2 JWT-bearer
exchange through google-auth, real HTTP v1 sends."""

from __future__ import annotations

import contextlib
import dataclasses
import email.utils
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from push.providers.base import DeviceTarget, Outcome, PushMessage
from push.providers.fcm import FcmConfig, FcmProvider

from .fake_fcm import Answer, FakeFcm
from .transport_helpers import (
    assert_kept_private,
    make_service_account,
    make_tls,
    send_from_threads,
)

PROJECT = "pusoy-test"
DEVICE = DeviceTarget(platform="fcm", token="fMx3:APA91b" + "x" * 140)
MESSAGE = PushMessage(
    title="Your turn",
    body="Ana played; it is your move.",
    data={"kind": "turn", "game": "9f1c", "event": "311"},
    collapse_id="game-9f1c",
    ttl_seconds=600,
)


@pytest.fixture
def fcm(tmp_path: Path) -> Iterator[tuple[FakeFcm, FcmConfig]]:
    tls = make_tls(tmp_path / "tls")
    credentials = tmp_path / "service-account.json"
    # The file names Google's token URL; the provider is pointed at the fake's.
    public = make_service_account(
        credentials, token_uri="https://oauth2.googleapis.com/token", project_id=PROJECT
    )
    fake = FakeFcm(
        key=public,
        key_id="0123456789abcdef0123456789abcdef01234567",
        client_email=f"push@{PROJECT}.iam.gserviceaccount.com",
        project_id=PROJECT,
        tls=tls,
    ).start()
    config = FcmConfig(
        service_account_path=str(credentials),
        base_url=fake.url,
        token_url=fake.token_url,
        timeout=2.0,
        ca_file=tls.ca_file,
    )
    yield fake, config
    fake.stop()


@pytest.fixture
def fake(fcm: tuple[FakeFcm, FcmConfig]) -> FakeFcm:
    return fcm[0]


@pytest.fixture
def provider(fcm: tuple[FakeFcm, FcmConfig]) -> Iterator[FcmProvider]:
    provider = FcmProvider(fcm[1])
    yield provider
    provider.close()


@contextlib.contextmanager
def provider_with(fcm, **changes) -> Iterator[FcmProvider]:
    """A second provider on the same fake, its configuration changed as named."""
    provider = FcmProvider(dataclasses.replace(fcm[1], **changes))
    try:
        yield provider
    finally:
        provider.close()


def test_a_push_is_one_v1_send_after_one_token_exchange(provider, fake):
    result = provider.send(DEVICE, MESSAGE)

    assert result.outcome is Outcome.SENT
    assert result.status == 200
    assert result.extra["message_id"].startswith(f"projects/{PROJECT}/messages/")
    [grant] = fake.grants
    assert grant["iss"] == f"push@{PROJECT}.iam.gserviceaccount.com"
    assert grant["aud"] == "https://oauth2.googleapis.com/token"
    assert grant["scope"] == "https://www.googleapis.com/auth/firebase.messaging"
    [request] = fake.received
    assert request.path == f"/v1/projects/{PROJECT}/messages:send"
    assert request.json == {
        "message": {
            "token": DEVICE.token,
            "notification": {"title": "Your turn", "body": "Ana played; it is your move."},
            "data": {"kind": "turn", "game": "9f1c", "event": "311"},
            "android": {"collapse_key": "game-9f1c", "ttl": "600s"},
            "apns": {"headers": {"apns-collapse-id": "game-9f1c"}},
        }
    }


def test_the_project_id_may_be_configured_over_the_files(fcm):
    with provider_with(fcm, project_id="another-project") as provider:
        result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.status) == (Outcome.GONE, 404)
    assert fcm[0].received[0].path == "/v1/projects/another-project/messages:send"


@pytest.mark.parametrize(
    ("answer", "outcome", "reason"),
    [
        (Answer(404, "UNREGISTERED"), Outcome.GONE, "UNREGISTERED"),
        (Answer(400, "INVALID_ARGUMENT", token_field=True), Outcome.GONE, "INVALID_ARGUMENT"),
        (Answer(400, "INVALID_ARGUMENT"), Outcome.FAILED, "INVALID_ARGUMENT"),
        (Answer(403, "SENDER_ID_MISMATCH"), Outcome.FAILED, "SENDER_ID_MISMATCH"),
        (Answer(400, "SENDER_ID_MISMATCH"), Outcome.FAILED, "SENDER_ID_MISMATCH"),
        (Answer(401, "THIRD_PARTY_AUTH_ERROR"), Outcome.FAILED, "THIRD_PARTY_AUTH_ERROR"),
        (Answer(429, "QUOTA_EXCEEDED"), Outcome.RETRY, "QUOTA_EXCEEDED"),
        (Answer(500, "INTERNAL"), Outcome.RETRY, "INTERNAL"),
        (Answer(503, "UNAVAILABLE"), Outcome.RETRY, "UNAVAILABLE"),
        (Answer(503), Outcome.RETRY, "UNAVAILABLE"),
    ],
)
def test_googles_answer_is_an_outcome_with_its_error_code(provider, fake, answer, outcome, reason):
    fake.answer(answer)

    result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.status, result.reason) == (outcome, answer.status, reason)


def test_retry_after_in_seconds_is_parsed(provider, fake):
    fake.answer(Answer(429, "QUOTA_EXCEEDED", retry_after="30"))

    result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.retry_after) == (Outcome.RETRY, 30.0)


def test_retry_after_as_an_http_date_is_seconds_from_now(provider, fake):
    when = email.utils.formatdate(time.time() + 120, usegmt=True)
    fake.answer(Answer(503, "UNAVAILABLE", retry_after=when))

    result = provider.send(DEVICE, MESSAGE)

    assert result.outcome is Outcome.RETRY
    assert result.retry_after is not None
    assert 60 < result.retry_after <= 120


def test_the_access_token_is_reused_until_near_its_expiry(provider, fake):
    for _ in range(3):
        provider.send(DEVICE, MESSAGE)

    assert len(fake.grants) == 1
    assert len({r.headers["authorization"] for r in fake.received}) == 1


def test_a_token_about_to_expire_is_exchanged_again(fcm):
    fake = fcm[0]
    # google-auth refreshes a token within minutes of its expiry: one good for 60 s is
    # never used twice.
    fake.token_lifetime = 60
    with provider_with(fcm) as provider:
        results = [provider.send(DEVICE, MESSAGE) for _ in range(2)]

    assert [r.outcome for r in results] == [Outcome.SENT, Outcome.SENT]
    assert len(fake.grants) == 2


def test_a_401_drops_the_token_and_the_retry_gets_a_new_one(provider, fake):
    provider.send(DEVICE, MESSAGE)
    fake.revoke_access_tokens()

    refused = provider.send(DEVICE, MESSAGE)
    again = provider.send(DEVICE, MESSAGE)

    assert (refused.outcome, refused.status, refused.reason) == (
        Outcome.RETRY,
        401,
        "UNAUTHENTICATED",
    )
    assert again.outcome is Outcome.SENT
    assert len(fake.grants) == 2
    first, second, third = (r.headers["authorization"] for r in fake.received)
    assert first == second != third


def test_a_token_endpoint_that_refuses_the_key_fails_without_a_send(fcm, tmp_path):
    other = tmp_path / "other.json"
    make_service_account(other, token_uri="https://oauth2.googleapis.com/token")
    with provider_with(fcm, service_account_path=str(other), project_id=PROJECT) as provider:
        result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.status, result.reason) == (Outcome.FAILED, None, "oauth_refused")
    assert fcm[0].received == []


def test_a_token_endpoint_that_is_down_is_a_retry(fcm):
    fake = fcm[0]
    # google-auth itself tries a 5xx token endpoint three times (about 3 s of backoff).
    fake.token_answers.extend([503, 503, 503])
    with provider_with(fcm) as provider:
        result = provider.send(DEVICE, MESSAGE)
        after = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.reason) == (Outcome.RETRY, "oauth_unavailable")
    assert after.outcome is Outcome.SENT


def test_a_hanging_server_is_a_timeout_and_a_retry(fcm):
    fcm[0].answer(Answer(hang=True))
    with provider_with(fcm, timeout=0.5) as provider:
        result = provider.send(DEVICE, MESSAGE)
        after = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.status, result.reason) == (Outcome.RETRY, None, "timeout")
    assert after.outcome is Outcome.SENT


def test_nothing_listening_is_a_retry(fcm):
    fcm[0].stop()
    with provider_with(fcm) as provider:
        result = provider.send(DEVICE, MESSAGE)

    assert (result.outcome, result.status, result.reason) == (
        Outcome.RETRY,
        None,
        "oauth_unavailable",
    )


def test_sends_share_one_connection(provider, fake):
    for _ in range(5):
        provider.send(DEVICE, MESSAGE)

    assert len(fake.received) == 5
    assert len(fake.connections) == 1


def test_threads_share_the_provider_and_its_token(provider, fake):
    results = send_from_threads(provider, DEVICE, MESSAGE)

    assert [r.outcome for r in results] == [Outcome.SENT] * 40
    assert len(fake.grants) == 1
    assert len(fake.connections) <= 8


def test_google_receives_nothing_but_the_message_and_logs_hold_none_of_it(provider, fake, caplog):
    # Every logger at INFO, httpx's included (its request line names the URL), and ours
    # at DEBUG. (hpack's DEBUG lines hold every header: docs/push-providers.md.)
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="push.providers")
    fake.answer(Answer(404, "UNREGISTERED"))

    provider.send(DEVICE, MESSAGE)
    provider.send(DEVICE, MESSAGE)

    for request in fake.received:
        message = request.json["message"]
        assert message["notification"] == {"title": MESSAGE.title, "body": MESSAGE.body}
        assert message["data"] == MESSAGE.data
    assert_kept_private(caplog, fake.received, DEVICE.token, MESSAGE)
    assert "UNREGISTERED" in caplog.text
