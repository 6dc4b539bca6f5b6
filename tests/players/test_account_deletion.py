"""Deleting an account through HTTP: confirmed by the password (a guest by its token),
games in progress resigned, finished ones still verifying under a tombstone name, and
nothing of any other player touched."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.models import Game, GameStatus, Invitation, InvitationStatus, Seat, SeatStatus
from notifications.models import Event
from players import login_backoff
from players.models import Player, Session
from push.models import Device, Preferences
from tests.api.helpers import (
    client_for,
    create_game,
    play_one,
    play_until_finished_fast,
    start_human_game,
    state_of,
)
from tests.factories import TEST_PASSWORD
from tests.players.accounts import device, error_code, guest
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db

HOOK = {"url": "http://127.0.0.1:9/hook", "events": ["your_turn", "game_finished"]}


def delete_me(client: APIClient, password: str | None = TEST_PASSWORD):
    body = {} if password is None else {"password": password}
    return client.delete("/api/v1/players/me", body, format="json")


def test_deleting_ends_every_session_and_the_account_cannot_log_in():
    ana = client_for("ana")
    laptop = device("ana")
    player_id = ana.player.pk
    assert delete_me(ana).status_code == 204
    assert ana.get("/api/v1/players/me").status_code == 401
    assert laptop.get("/api/v1/players/me").status_code == 401
    assert not AuthToken.objects.filter(user_id=player_id).exists()
    assert not Session.objects.filter(player_id=player_id).exists()
    login = APIClient().post(
        "/api/v1/auth/token", {"username": "ana", "password": TEST_PASSWORD}, format="json"
    )
    assert login.status_code == 401
    player = Player.objects.get(pk=player_id)
    assert player.username == f"deleted player {player_id.hex}"
    assert (player.is_active, player.has_usable_password(), player.email) == (False, False, "")
    assert player.deleted_at is not None


def test_the_old_name_is_free_again_and_the_profile_is_gone():
    ana = client_for("ana")
    ben = client_for("ben")
    assert delete_me(ana).status_code == 204
    assert ben.get(f"/api/v1/players/{ana.player.pk}").status_code == 404
    again = APIClient().post(
        "/api/v1/auth/register", {"username": "ana", "password": TEST_PASSWORD}, format="json"
    )
    assert again.status_code == 201
    assert again.json()["id"] != str(ana.player.pk)


def test_a_finished_games_records_still_verify_and_it_leaves_the_leaderboard():
    game_id, clients = start_human_game(2, target_deals=1)
    play_until_finished_fast(game_id, random.Random(5))
    ana, ben = clients
    assert delete_me(ana).status_code == 204
    record = ben.get(f"/api/v1/games/{game_id}/deals/1/record")
    assert record.status_code == 200
    assert record.json()["players"][0] == f"deleted player {ana.player.pk.hex}"
    verdict = ben.post("/api/v1/records/verify", record.json(), format="json").json()
    assert (verdict["valid"], verdict["code"]) == (True, None)
    board = ben.get("/api/v1/leaderboard").json()["results"]
    assert [p["username"] for p in board] == ["ben"]
    rated = ben.get("/api/v1/leaderboard?order=rating").json()["results"]
    assert "ana" not in {p["username"] for p in rated}
    assert len(rated) <= 1


# AI seats move on commit: real commits.
@pytest.mark.django_db(transaction=True)
def test_a_game_in_progress_resigns_the_seat_and_goes_on_for_the_others_to_the_end():
    game_id, clients = start_human_game(3, target_deals=1)
    ana, ben, cia = clients
    assert delete_me(ana).status_code == 204
    game = ben.get(f"/api/v1/games/{game_id}").json()
    assert game["status"] == "active"
    seats = {s["position"]: s["status"] for s in game["seats"]}
    assert seats == {0: "resigned", 1: "playing", 2: "playing"}
    # The others play on, as after a resignation: the AI takes seat 0's turns.
    rng = random.Random(7)
    for _ in range(3000):
        state = state_of(ben, game_id)
        if state["status"] != "active":
            break
        assert state["deal"]["turn"] != 0, "an AI plays the deleted player's seat at once"
        play_one(clients[state["deal"]["turn"]], game_id, rng)
    game = ben.get(f"/api/v1/games/{game_id}").json()
    assert game["status"] == "finished"
    assert game["ranking"][-1] == 0
    assert game["seats"][0]["player"]["username"].startswith("deleted player ")
    record = ben.get(f"/api/v1/games/{game_id}/deals/1/record").json()
    verdict = cia.post("/api/v1/records/verify", record, format="json").json()
    assert verdict["valid"] is True
    assert "resigned" in set(Event.objects.filter(player=ben.player).values_list("type", flat=True))


def test_a_game_whose_last_human_it_was_is_abandoned_as_by_a_resignation():
    ana = client_for("ana")
    game = create_game(ana, [{"type": "human"}, {"type": "ai", "level": "random"}])
    assert delete_me(ana).status_code == 204
    assert Game.objects.get(pk=game["id"]).status == GameStatus.ABANDONED


def test_waiting_games_are_left_and_invitations_declined():
    ana, ben, cia = client_for("ana"), client_for("ben"), client_for("cia")
    own = create_game(ana, [{"type": "human"}] * 3)
    bens = create_game(ben, [{"type": "human"}] * 3, invite=["ana"])
    cias = create_game(cia, [{"type": "human"}] * 3)
    assert ana.post(f"/api/v1/games/{cias['id']}/join", {}, format="json").status_code == 200
    assert delete_me(ana).status_code == 204
    assert Game.objects.get(pk=own["id"]).status == GameStatus.ABANDONED
    assert Game.objects.get(pk=cias["id"]).status == GameStatus.WAITING
    assert not Seat.objects.filter(game_id=cias["id"], player=ana.player).exists()
    invitation = Invitation.objects.get(game_id=bens["id"])
    assert invitation.status == InvitationStatus.DECLINED


def test_webhooks_feed_and_tokens_go_and_no_other_players_data_is_touched():
    game_id, clients = start_human_game(2)
    ana, ben = clients
    for client in clients:
        assert client.post("/api/v1/webhooks", HOOK, format="json").status_code == 201
    ben_laptop = device("ben")
    ben_events = Event.objects.filter(player=ben.player).count()
    assert Event.objects.filter(player=ana.player).exists()
    assert delete_me(ana).status_code == 204
    assert not Webhook.objects.filter(owner=ana.player).exists()
    assert not Event.objects.filter(player=ana.player).exists()
    # Ben's webhook, tokens, sessions and feed are his as before (the feed one longer:
    # it tells him ana's seat resigned).
    assert Webhook.objects.filter(owner=ben.player).count() == 1
    assert AuthToken.objects.filter(user=ben.player).count() == 2
    assert Session.objects.filter(player=ben.player).count() == 2
    assert ben_laptop.get("/api/v1/players/me").json()["username"] == "ben"
    assert Event.objects.filter(player=ben.player).count() > ben_events
    assert Seat.objects.get(game_id=game_id, player=ben.player).status == SeatStatus.PLAYING


def test_its_push_devices_and_preferences_go_and_no_one_elses(settings):
    settings.PUSH_APNS_KEY_ID, settings.PUSH_APNS_TEAM_ID = "ABC123DEFG", "DEF123GHIJ"
    settings.PUSH_APNS_KEY_FILE, settings.PUSH_APNS_TOPIC = "/nonexistent.p8", "ph.pusoy.app"
    ana, ben = client_for("ana"), client_for("ben")
    for i, client in enumerate((ana, ben)):
        token = f"{i:02x}" * 32
        answer = client.post("/api/v1/devices", {"platform": "apns", "token": token}, format="json")
        assert answer.status_code == 201, answer.json()
        answer = client.patch("/api/v1/players/me/push", {"muted_games": []}, format="json")
        assert answer.status_code == 200, answer.json()
    assert Preferences.objects.filter(player=ana.player).exists()
    assert delete_me(ana).status_code == 204
    assert not Device.objects.filter(player=ana.player).exists()
    assert not Preferences.objects.filter(player=ana.player).exists()
    assert Device.objects.filter(player=ben.player).count() == 1
    assert Preferences.objects.filter(player=ben.player).exists()


def test_a_guest_deletes_with_its_token_alone():
    client, body = guest()
    assert delete_me(client, password=None).status_code == 204
    assert not Player.objects.get(pk=body["id"]).is_active
    assert client.get("/api/v1/players/me").status_code == 401


@pytest.mark.parametrize("password", ["not-my-password", None])
def test_a_wrong_or_missing_password_is_403_and_deletes_nothing(password):
    ana = client_for("ana")
    response = delete_me(ana, password)
    assert response.status_code == 403
    assert error_code(response) == "wrong_password"
    assert ana.get("/api/v1/players/me").json()["username"] == "ana"


@pytest.mark.parametrize("body", [{"password": 123}, {"password": "a\x00b"}, [1]])
def test_a_malformed_password_is_400_and_deletes_nothing(body):
    ana = client_for("ana")
    response = ana.delete("/api/v1/players/me", body, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_input"
    assert Player.objects.get(pk=ana.player.pk).is_active


def test_it_needs_a_token():
    response = delete_me(APIClient())
    assert response.status_code == 401
    assert error_code(response) == "not_authenticated"


def test_wrong_passwords_count_in_the_names_log_in_backoff(backoff_clock):
    ana = client_for("ana")
    for _ in range(login_backoff.FREE_FAILURES):
        assert delete_me(ana, "guess").status_code == 403
    refused = delete_me(ana)
    assert refused.status_code == 429
    assert error_code(refused) == "throttled"
    assert Player.objects.get(pk=ana.player.pk).is_active


def test_the_per_address_log_in_limit_covers_it(auth_rate):
    ana = client_for("ana")
    cache.clear()
    auth_rate("2/min")
    codes = [delete_me(ana, "guess").status_code for _ in range(3)]
    assert codes == [403, 403, 429]
    # Reading your profile is not counted.
    assert ana.get("/api/v1/players/me").status_code == 200
