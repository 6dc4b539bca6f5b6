"""APNs and FCM through the whole service: a move over HTTP reaches the next human's
iPhone and Android devices at local servers that check what Apple and Google check
(fake_apns, fake_fcm), once each, collapsed per game, with no card in it; a token the
provider calls gone is removed from `GET devices` at once. The providers are built by the
registry from the PUSH_* settings, as in a deployment. Tasks run at commit in this
process (the test settings' eager mode); test_end_to_end.py covers the real worker."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.helpers import client_for, start_human_game, state_of

from .fake_apns import Answer as ApnsAnswer
from .fake_apns import FakeApns
from .fake_fcm import Answer as FcmAnswer
from .fake_fcm import FakeFcm
from .helpers import devices, register
from .transport_helpers import make_apns_key, make_service_account, make_tls

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

KEY_ID, TEAM_ID, TOPIC, PROJECT = "ABC123DEFG", "DEF123GHIJ", "ph.pusoy.app", "pusoy-test"
IPHONE, ANDROID = "ab" * 32, "fcm-registration-token-of-a-phone"


@pytest.fixture
def providers(tmp_path: Path, settings) -> Iterator[tuple[FakeApns, FakeFcm]]:
    tls = make_tls(tmp_path / "tls")
    apns = FakeApns(
        key=make_apns_key(tmp_path / "AuthKey.p8"),
        key_id=KEY_ID,
        team_id=TEAM_ID,
        topic=TOPIC,
        tls=tls,
        clock=time.time,  # the registry's provider signs with the real clock
    )
    apns.start()
    fcm = FakeFcm(
        key=make_service_account(
            tmp_path / "sa.json",
            token_uri="https://oauth2.googleapis.com/token",
            project_id=PROJECT,
        ),
        key_id="0123456789abcdef0123456789abcdef01234567",
        client_email=f"push@{PROJECT}.iam.gserviceaccount.com",
        project_id=PROJECT,
        tls=tls,
    ).start()
    settings.PUSH_CA_FILE = tls.ca_file
    settings.PUSH_APNS_KEY_ID, settings.PUSH_APNS_TEAM_ID = KEY_ID, TEAM_ID
    settings.PUSH_APNS_KEY_FILE, settings.PUSH_APNS_TOPIC = str(tmp_path / "AuthKey.p8"), TOPIC
    settings.PUSH_APNS_URL = apns.url
    settings.PUSH_FCM_CREDENTIALS_FILE = str(tmp_path / "sa.json")
    settings.PUSH_FCM_URL, settings.PUSH_FCM_TOKEN_URL = fcm.url, fcm.token_url
    yield apns, fcm
    apns.stop()
    fcm.stop()


def phones_of(client) -> None:
    for body in ({"platform": "apns", "token": IPHONE}, {"platform": "fcm", "token": ANDROID}):
        answer = register(client, {**body, "locale": "en"})
        assert answer.status_code == 201, answer.json()


def move(client, game_id: str) -> None:
    legal = state_of(client, game_id)["deal"]["legal_moves"][0]
    answer = client.post(f"/api/v1/games/{game_id}/moves", legal, format="json")
    assert answer.status_code == 201, answer.json()


def test_the_platforms_are_on_when_their_credentials_are_set(providers):
    answer = client_for("ana").get("/api/v1/push/platforms")
    assert answer.status_code == 200
    assert {"apns", "fcm"} <= set(answer.json()["platforms"])


def test_a_move_reaches_the_next_humans_iphone_and_android_once_without_cards(providers):
    apns, fcm = providers
    game_id, clients = start_human_game(2, names=("ana", "ben"))
    mover = state_of(clients[0], game_id)["deal"]["turn"]
    waiting = clients[1 - mover]
    phones_of(waiting)
    cards = {c for cl in clients for c in state_of(cl, game_id)["deal"]["hand"]}

    move(clients[mover], game_id)

    [to_iphone] = apns.received
    assert to_iphone.path == f"/3/device/{IPHONE}"
    assert to_iphone.headers["apns-collapse-id"] == f"game-{game_id}"
    assert to_iphone.headers["apns-topic"] == TOPIC
    assert to_iphone.json["kind"] == "your_turn"
    assert to_iphone.json["game"] == game_id
    [to_android] = fcm.received
    message = to_android.json["message"]
    assert message["token"] == ANDROID
    assert message["android"]["collapse_key"] == f"game-{game_id}"
    assert message["data"]["game"] == game_id
    for body in (to_iphone.body.decode(), to_android.body.decode()):
        words = set(re.findall(r"\b[2-9TJQKA][CDHS]\b", body))
        assert not words & cards, "a card of a hand is in a push"


def test_tokens_apple_and_google_call_gone_are_removed_at_once(providers):
    apns, fcm = providers
    apns.answer(ApnsAnswer(status=410, reason="Unregistered"))
    fcm.answer(FcmAnswer(status=404, error_code="UNREGISTERED"))
    game_id, clients = start_human_game(2, names=("ana", "ben"))
    mover = state_of(clients[0], game_id)["deal"]["turn"]
    waiting = clients[1 - mover]
    phones_of(waiting)
    assert {d["platform"] for d in devices(waiting)} == {"apns", "fcm"}

    move(clients[mover], game_id)

    assert len(apns.received) == len(fcm.received) == 1
    assert devices(waiting) == []
