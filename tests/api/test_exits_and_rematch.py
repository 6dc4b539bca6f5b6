"""Leaving, cancelling, resigning, abandonment and rematches, through HTTP."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from games import services
from games.models import Deal, Game, Invitation, Move
from players.models import Player
from tests.api.helpers import (
    client_for,
    create_game,
    play_one,
    play_until_finished,
    start_human_game,
    state_of,
    whose_turn,
)

pytestmark = pytest.mark.django_db


def code_of(response) -> str:
    return response.json()["error"]["code"]


def post(client, game_id: str, action: str, body: dict | None = None):
    return client.post(f"/api/v1/games/{game_id}/{action}", body or {}, format="json")


def test_leaving_a_waiting_game_opens_the_seat_and_the_creator_leaving_cancels_it():
    ana, ben, cia = client_for("ana"), client_for("ben"), client_for("cia")
    game_id = create_game(ana, [{"type": "human"}] * 3)["id"]
    assert post(ben, game_id, "join").status_code == 200
    left = post(ben, game_id, "leave")
    assert left.status_code == 200, left.json()
    seat = left.json()["seats"][1]
    assert (seat["player"], seat["status"]) == (None, "left")
    assert post(cia, game_id, "join").json()["seats"][1]["status"] == "playing"
    gone = post(ana, game_id, "leave")
    assert gone.json()["status"] == "abandoned"
    assert (post(cia, game_id, "leave").status_code, Game.objects.get().status) == (
        409,
        "abandoned",
    )


def test_cancel_is_the_creators_and_cancels_open_invitations():
    ana, ben, cia = client_for("ana"), client_for("ben"), client_for("cia")
    game_id = create_game(ana, [{"type": "human"}] * 3, invite=["cia"])["id"]
    post(ben, game_id, "join")
    refused = post(ben, game_id, "cancel")
    assert (refused.status_code, code_of(refused)) == (403, "not_the_creator")
    stranger = post(client_for("eve"), game_id, "cancel")
    assert (stranger.status_code, code_of(stranger)) == (403, "not_a_participant")
    cancelled = post(ana, game_id, "cancel")
    assert cancelled.json()["status"] == "abandoned"
    assert Invitation.objects.get().status == "cancelled"
    answer = cia.post(f"/api/v1/invitations/{Invitation.objects.get().pk}/accept")
    assert (answer.status_code, code_of(answer)) == (409, "invitation_closed")
    again = post(ana, game_id, "cancel")
    assert (again.status_code, code_of(again)) == (409, "game_not_waiting")


def test_leave_and_cancel_need_a_waiting_game():
    game_id, clients = start_human_game(2)
    for action in ("leave", "cancel"):
        response = post(clients[0], game_id, action)
        assert (response.status_code, code_of(response)) == (409, "game_not_waiting")


# AI seats move on commit: real commits.
@pytest.mark.django_db(transaction=True)
def test_a_resigned_seat_is_played_by_an_ai_to_the_end_and_ranked_last():
    game_id, clients = start_human_game(3, target_deals=2)
    ben = clients[1]
    played_before = Player.objects.get(username="ben").games_played
    resigned = post(ben, game_id, "resign")
    assert resigned.status_code == 200, resigned.json()
    assert resigned.json()["seats"][1]["status"] == "resigned"
    assert Player.objects.get(username="ben").games_played == played_before + 1
    # Resigning again: the game is active, their seat is what refuses (it was 409
    # game_not_active, the code for a game that is not).
    again = post(ben, game_id, "resign")
    assert (again.status_code, code_of(again)) == (409, "seat_resigned")
    # The two others play on; the AI takes ben's turns (in-process in tests).
    rng = random.Random(8)
    for _ in range(3000):
        state = state_of(clients[0], game_id)
        if state["status"] != "active":
            break
        turn = state["deal"]["turn"]
        assert turn != 1, "an AI plays the resigned seat at once"
        play_one(clients[turn], game_id, rng)
    game = clients[0].get(f"/api/v1/games/{game_id}").json()
    assert game["status"] == "finished"
    assert game["ranking"][-1] == 1
    assert game["winner_seat"] == game["ranking"][0] != 1
    ai_moves = Move.objects.filter(deal__game_id=game_id, seat=1)
    assert ai_moves.exists()
    assert set(ai_moves.values_list("actor", flat=True)) == {"ai:heuristic"}
    ben_now = Player.objects.get(username="ben")
    assert (ben_now.games_played, ben_now.games_won) == (played_before + 1, 0)
    blocked = ben.post(f"/api/v1/games/{game_id}/moves", {"action": "pass"}, format="json")
    assert blocked.status_code == 409


# AI seats move on commit: real commits.
@pytest.mark.django_db(transaction=True)
def test_the_resigners_move_is_refused_and_their_turn_taken_by_the_ai():
    game_id, clients = start_human_game(2)
    mover = whose_turn(clients, game_id)
    post(mover, game_id, "resign")
    game = Game.objects.get(pk=game_id)
    assert game.status == "active"
    # It was their turn: the AI moved for them before the answer.
    assert Deal.objects.get(game=game).seq >= 1
    refused = mover.post(f"/api/v1/games/{game_id}/moves", {"action": "pass"}, format="json")
    # The game goes on for the others: the refusal is about the seat, not the game.
    assert Game.objects.get(pk=game_id).status == "active"
    assert (refused.status_code, code_of(refused)) == (409, "seat_resigned")


# AI seats move on commit: real commits.
@pytest.mark.django_db(transaction=True)
def test_the_last_human_resigning_abandons_the_game():
    ana = client_for("ana")
    seats = [{"type": "human"}, {"type": "ai", "level": "random"}]
    game_id = create_game(ana, seats)["id"]
    resigned = post(ana, game_id, "resign")
    assert resigned.json()["status"] == "abandoned"
    assert resigned.json()["ranking"] is None


def test_humans_that_let_the_clock_play_three_turns_in_a_row_abandon_the_game():
    game_id, _clients = start_human_game(2, turn_timeout=60)
    late = timezone.now() + dt.timedelta(minutes=2)
    for _ in range(6):  # 3 turns each: every human at 3 timeouts in a row
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            break
        deal = Deal.objects.get(game=game, number=game.current_deal_number)
        Deal.objects.filter(pk=deal.pk).update(
            turn_started_at=timezone.now() - dt.timedelta(minutes=2)
        )
        services.turns_sweep(now=late)
    assert Game.objects.get(pk=game_id).status == "abandoned"


def test_a_move_of_its_own_resets_a_seats_run_of_timeouts():
    game_id, clients = start_human_game(2, turn_timeout=60)
    rng = random.Random(2)
    for round_ in range(4):
        game = Game.objects.get(pk=game_id)
        deal = Deal.objects.get(game=game, number=game.current_deal_number)
        if deal.turn == 0 or round_ % 2:
            play_one(clients[deal.turn], game_id, rng)
        else:
            Deal.objects.filter(pk=deal.pk).update(
                turn_started_at=timezone.now() - dt.timedelta(minutes=2)
            )
            services.turns_sweep()
    assert Game.objects.get(pk=game_id).status == "active"


# AI seats move on commit: real commits.
@pytest.mark.django_db(transaction=True)
def test_a_rematch_is_the_same_table_again_once():
    ana, ben = client_for("ana"), client_for("ben")
    seats = [{"type": "human"}, {"type": "ai", "level": "greedy"}, {"type": "human"}]
    first = create_game(ana, seats, target_deals=1, turn_timeout=600, visibility="private")
    ben.post(
        f"/api/v1/games/{first['id']}/join", {"invite_code": first["invite_code"]}, format="json"
    )
    early = post(ana, first["id"], "rematch")
    assert (early.status_code, code_of(early)) == (409, "game_not_finished")
    play_until_finished([ana, None, ben], first["id"], random.Random(1))
    made = post(ben, first["id"], "rematch")
    assert made.status_code == 201, made.json()
    second = made.json()
    assert (second["status"], second["visibility"], second["turn_timeout"]) == (
        "waiting",
        "private",
        600,
    )
    assert [s["level"] for s in second["seats"]] == [None, "greedy", None]
    assert second["seats"][2]["player"]["username"] == "ben"
    again = post(ana, first["id"], "rematch")
    assert (again.status_code, again.json()["id"]) == (200, second["id"])
    assert ana.get(f"/api/v1/games/{first['id']}").json()["rematch"] == second["id"]
    invitation = ana.get("/api/v1/invitations?status=pending").json()["results"][0]
    assert (invitation["game"], invitation["seat"]) == (second["id"], 0)
    ana.post(f"/api/v1/invitations/{invitation['id']}/accept")
    assert Game.objects.get(pk=second["id"]).status == "active"
    outsider = post(client_for("eve"), first["id"], "rematch")
    assert outsider.status_code == 404  # private: not there for them


def test_a_game_is_created_once_per_idempotency_key():
    ana = client_for("ana")
    body = {"seats": [{"type": "human"}] * 2}
    first = ana.post("/api/v1/games", body, format="json", HTTP_IDEMPOTENCY_KEY="make-1")
    again = ana.post("/api/v1/games", body, format="json", HTTP_IDEMPOTENCY_KEY="make-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.content == again.content
    assert Game.objects.count() == 1
