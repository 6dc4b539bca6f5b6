"""Push preferences over HTTP: every pushed kind on by default, turned off and on one by
one, games muted and unmuted; anything else a 400 that changes nothing."""

from __future__ import annotations

import uuid

import pytest

from push.models import Preferences
from tests.api.helpers import client_for

pytestmark = [pytest.mark.django_db]

URL = "/api/v1/players/me/push"
ALL_ON = {"your_turn": True, "deadline_soon": True, "invited": True, "game_finished": True}


def test_everything_is_on_by_default():
    ana = client_for("ana")
    assert ana.get(URL).json() == {"kinds": ALL_ON, "muted_games": []}


def test_kinds_turn_off_and_on_and_the_rest_stays():
    ana = client_for("ana")
    answer = ana.patch(URL, {"kinds": {"game_finished": False, "invited": False}}, format="json")
    assert answer.status_code == 200
    assert answer.json()["kinds"] == {**ALL_ON, "game_finished": False, "invited": False}
    ana.patch(URL, {"kinds": {"invited": True}}, format="json")
    assert ana.get(URL).json()["kinds"] == {**ALL_ON, "game_finished": False}


def test_games_mute_and_unmute():
    ana = client_for("ana")
    one, two = str(uuid.uuid4()), str(uuid.uuid4())
    ana.patch(URL, {"mute_games": [one, two]}, format="json")
    assert ana.get(URL).json()["muted_games"] == [one, two]
    answer = ana.patch(URL, {"unmute_games": [one], "mute_games": [two]}, format="json")
    assert answer.json()["muted_games"] == [two]


def test_preferences_are_per_player():
    ana, ben = client_for("ana"), client_for("ben")
    ana.patch(URL, {"kinds": {"your_turn": False}}, format="json")
    assert ben.get(URL).json()["kinds"] == ALL_ON


@pytest.mark.parametrize(
    "body",
    [
        {"kinds": {"your_turn": "no"}},
        {"unmute_games": [False]},
        {"mute_games": [0]},
        {"kinds": ["your_turn"]},
        {"mute_games": ["not-a-uuid"]},
        {"mute_games": "x"},
    ],
)
def test_what_the_schema_refuses_is_invalid_input_and_changes_nothing(body):
    ana = client_for("ana")
    answer = ana.patch(URL, body, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid_input"
    assert not Preferences.objects.exists()


def test_a_type_that_is_not_pushed_is_ignored():
    ana = client_for("ana")
    answer = ana.patch(URL, {"kinds": {"move": False, "invited": False}}, format="json")
    assert answer.json()["kinds"] == {**ALL_ON, "invited": False}


def test_preferences_need_a_token(api_client):
    assert api_client.get(URL).status_code == 401
