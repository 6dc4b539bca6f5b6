"""Registering push devices over HTTP: one per token or subscription, moved to whoever
registered it last, gone with the bearer token it was registered with; every bad input a
4xx with its code that changes nothing."""

from __future__ import annotations

import pytest

from push.models import Device
from tests.api.helpers import client_for

from .helpers import devices, register, register_webpush
from .receiver import Receiver

pytestmark = [pytest.mark.django_db]

APNS_TOKEN = "ab" * 32
FCM_TOKEN = "dQw4w9WgXcQ:APA91bH-some_registration-token.part"
KEYS = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}


@pytest.fixture
def with_apns_and_fcm(settings, tmp_path):
    """APNs and FCM are on (their settings present): registering needs no provider."""
    key = tmp_path / "AuthKey.p8"
    key.write_text("not read until a push is sent")
    settings.PUSH_APNS_KEY_ID = "ABC123DEFG"
    settings.PUSH_APNS_TEAM_ID = "TEAM123456"
    settings.PUSH_APNS_KEY_FILE = str(key)
    settings.PUSH_APNS_TOPIC = "com.example.pusoy"
    settings.PUSH_FCM_CREDENTIALS_FILE = str(tmp_path / "service-account.json")


def test_a_browser_registers_lists_and_deletes_its_subscription(receiver):
    ana = client_for("ana")
    sub, device = register_webpush(ana, receiver, locale="fil")
    assert device["platform"] == "webpush"
    assert device["token"] == sub.endpoint
    assert device["locale"] == "fil"
    assert device["last_sent_at"] is None
    assert "keys" not in device
    assert [d["id"] for d in devices(ana)] == [device["id"]]
    assert ana.delete(f"/api/v1/devices/{device['id']}").status_code == 204
    assert devices(ana) == []
    assert ana.delete(f"/api/v1/devices/{device['id']}").json()["error"]["code"] == "not_found"


def test_registering_the_same_subscription_again_is_one_device(receiver):
    ana = client_for("ana")
    sub, device = register_webpush(ana, receiver)
    again = register(ana, {"platform": "webpush", **sub.as_json(), "locale": "fil"})
    assert again.status_code == 200
    assert again.json()["id"] == device["id"]
    assert again.json()["locale"] == "fil"
    assert Device.objects.count() == 1


def test_a_token_another_player_holds_moves_to_the_caller(with_apns_and_fcm):
    ana, ben = client_for("ana"), client_for("ben")
    first = register(ana, {"platform": "apns", "token": APNS_TOKEN})
    assert first.status_code == 201, first.json()
    moved = register(ben, {"platform": "apns", "token": APNS_TOKEN})
    assert moved.status_code == 201
    assert devices(ana) == []
    assert [d["token"] for d in devices(ben)] == [APNS_TOKEN]


def test_an_fcm_token_registers(with_apns_and_fcm):
    ana = client_for("ana")
    answer = register(ana, {"platform": "fcm", "token": FCM_TOKEN})
    assert answer.status_code == 201, answer.json()
    assert answer.json()["platform"] == "fcm"


def test_logging_out_removes_the_devices_of_that_token_only(receiver):
    ana = client_for("ana")
    phone = client_for("ana")  # a second log-in: another bearer token
    register_webpush(ana, receiver)
    _, kept = register_webpush(phone, receiver)
    assert len(devices(phone)) == 2
    assert ana.post("/api/v1/auth/logout").status_code in (200, 204)
    assert [d["id"] for d in devices(phone)] == [kept["id"]]


def test_another_players_device_is_not_found(receiver):
    ana, ben = client_for("ana"), client_for("ben")
    _, device = register_webpush(ana, receiver)
    answer = ben.delete(f"/api/v1/devices/{device['id']}")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"
    assert len(devices(ana)) == 1


def test_a_platform_without_credentials_is_push_unavailable():
    ana = client_for("ana")
    answer = register(ana, {"platform": "apns", "token": APNS_TOKEN})
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "push_unavailable"
    assert error["details"]["platform"] == "apns"
    assert error["details"]["available"] == ["webpush"]
    assert Device.objects.count() == 0


def test_web_push_off_is_push_unavailable(settings, receiver):
    settings.PUSH_VAPID_PRIVATE_KEY = ""
    ana = client_for("ana")
    sub = receiver.subscribe()
    answer = register(ana, {"platform": "webpush", **sub.as_json()})
    assert answer.json()["error"]["code"] == "push_unavailable"
    assert ana.get("/api/v1/push/platforms").json()["platforms"] == []


def keys_of(receiver: Receiver) -> dict:
    return receiver.subscribe().as_json()


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"platform": "apns", "token": "not-hex"}, 422, "invalid_device"),
        ({"platform": "apns", "token": "ab" * 4}, 422, "invalid_device"),
        ({"platform": "fcm", "token": "has spaces in it and more"}, 422, "invalid_device"),
        ({"platform": "apns"}, 422, "invalid_device"),
        ({"platform": "apns", "token": "ab" * 32, "endpoint": "https://x"}, 422, "invalid_device"),
        ({"platform": "webpush", "token": "ab" * 32}, 422, "invalid_device"),
        ({"platform": "webpush", "endpoint": "https://x.example/p"}, 422, "invalid_device"),
        (
            {"platform": "webpush", "endpoint": "https://[::1/p", "keys": KEYS},
            422,
            "invalid_device",
        ),
        (
            {"platform": "webpush", "endpoint": "https://h:99x/p", "keys": KEYS},
            422,
            "invalid_device",
        ),
        ({"platform": "webpush", "endpoint": "ftp://h/p", "keys": KEYS}, 422, "invalid_device"),
        ({"platform": "webpush", "endpoint": "https://h/p", "keys": "k"}, 400, "invalid_input"),
        ({"platform": "blackberry", "token": "x"}, 400, "invalid_input"),
        ({"platform": "apns", "token": 12345}, 400, "invalid_input"),
        ({"platform": "apns", "token": "ab" * 32, "locale": "tlh"}, 400, "invalid_input"),
        ({}, 400, "invalid_input"),
    ],
)
def test_bad_device_input_is_a_4xx_that_changes_nothing(with_apns_and_fcm, body, status, code):
    ana = client_for("ana")
    answer = register(ana, body)
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)
    assert Device.objects.count() == 0


@pytest.mark.parametrize(
    ("keys", "field"),
    [
        ({"p256dh": "BAAA", "auth": "A" * 22}, "p256dh"),
        ({"p256dh": "B" + "A" * 86, "auth": "short"}, "auth"),
        ({"p256dh": "B" + "A" * 86, "auth": "!" * 22}, "auth"),
    ],
)
def test_subscription_keys_of_the_wrong_size_are_invalid_device(receiver, keys, field):
    ana = client_for("ana")
    body = {"platform": "webpush", "endpoint": receiver.subscribe().endpoint, "keys": keys}
    answer = register(ana, body)
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "invalid_device"
    assert answer.json()["error"]["details"]["field"] == field


def test_an_endpoint_that_is_no_push_service_is_refused(settings, receiver):
    settings.PUSH_WEBPUSH_HOSTS = ["fcm.googleapis.com", ".push.apple.com"]
    ana = client_for("ana")
    sub = receiver.subscribe().as_json()
    for endpoint in (
        sub["endpoint"],
        "http://fcm.googleapis.com/fcm/send/x",  # not https
        "https://metadata.google.internal/computeMetadata/v1/",
        "https://evilpush.apple.com.example/x",
    ):
        answer = register(ana, {**sub, "platform": "webpush", "endpoint": endpoint})
        assert answer.status_code == 422, endpoint
        assert answer.json()["error"]["code"] == "push_endpoint_refused"
    answer = register(
        ana, {**sub, "platform": "webpush", "endpoint": "https://web.push.apple.com/QGuQ"}
    )
    assert answer.status_code == 201
    assert Device.objects.count() == 1


def test_a_player_has_a_limited_number_of_devices(settings, receiver):
    settings.PUSH_MAX_DEVICES_PER_PLAYER = 2
    ana = client_for("ana")
    register_webpush(ana, receiver)
    sub, _ = register_webpush(ana, receiver)
    answer = register(ana, {"platform": "webpush", **receiver.subscribe().as_json()})
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "device_limit_reached"
    assert answer.json()["error"]["details"]["limit"] == 2
    # One already registered still is (updating it is not one more).
    assert register(ana, {"platform": "webpush", **sub.as_json()}).status_code == 200


def test_devices_need_a_token(api_client):
    assert api_client.get("/api/v1/devices").status_code == 401
    assert api_client.post("/api/v1/devices", {}, format="json").status_code == 401


def test_platforms_name_the_vapid_key_and_the_pushed_kinds(settings):
    ana = client_for("ana")
    body = ana.get("/api/v1/push/platforms").json()
    assert body["platforms"] == ["webpush"]
    assert len(body["vapid_public_key"]) == 87  # 65 bytes, base64url
    assert body["kinds"] == ["your_turn", "deadline_soon", "invited", "game_finished"]


def test_health_full_names_the_push_platforms(client):
    assert client.get("/healthz/full").json()["push"] == {"platforms": ["webpush"]}


def test_metrics_show_which_platforms_are_on(client):
    from push.providers import registry
    from tests.ops.metrics_helpers import scrape, value

    registry.log_platforms()
    text = scrape(client)
    assert value(text, "pusoy_push_platform_configured", platform="webpush") == 1
    assert value(text, "pusoy_push_platform_configured", platform="apns") == 0
