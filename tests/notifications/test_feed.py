"""`GET events`: every event of a player's games, with the right recipients, in order,
with no gap, and never a card of a hand; through HTTP, on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.conf import settings
from django.utils import timezone

from games import services, tasks
from games.models import Deal, Game
from notifications import retention
from notifications import tasks as feed_tasks
from notifications.models import Event
from notifications.selectors import PAGE_SIZE
from tests.api.helpers import (
    client_for,
    create_game,
    play_one,
    play_until_finished,
    start_human_game,
    state_of,
)
from tests.notifications.helpers import feed, types_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _turn(clients, game_id):
    return state_of(clients[0], game_id)["deal"]["turn"]


def test_a_game_start_and_a_move_reach_every_seated_human_and_no_one_else():
    game_id, (ana, ben) = start_human_game(2)
    eve = client_for("eve")
    turn = _turn([ana, ben], game_id)
    to_play, other = (ana, ben)[turn], (ana, ben)[1 - turn]
    assert types_of(feed(to_play)) == ["game_started", "your_turn"]
    assert types_of(feed(other)) == ["game_started"]
    started = feed(other)[0]
    assert set(started) == {"id", "type", "game", "created_at", "data", "player"}
    assert started["game"] == game_id
    assert started["player"] == str(other.player.pk)
    your_turn = feed(to_play)[1]["data"]
    assert your_turn == {"deal": 1, "seq": 0, "seat": turn, "deadline": None}

    before = {c: feed(c)[-1]["id"] for c in (ana, ben)}
    play_one(to_play, game_id, random.Random(1))
    (played,) = ana.get(f"/api/v1/games/{game_id}/moves").json()["moves"]
    expected = {k: played[k] for k in ("seq", "seat", "action", "cards")} | {"deal": 1}
    assert [(e["type"], e["data"]) for e in feed(to_play, before[to_play])] == [("move", expected)]
    assert types_of(feed(other, before[other])) == ["move", "your_turn"]
    assert feed(other, before[other])[0]["data"] == expected
    assert feed(eve) == []


def test_invitations_notify_the_invitee_and_then_the_inviter():
    ana, ben, cia = client_for("ana"), client_for("ben"), client_for("cia")
    game = create_game(ana, [{"type": "human"}] * 3, invite=["ben", "cia"])
    invited = feed(ben)
    assert types_of(invited) == ["invited"]
    assert invited[0]["data"]["invited_by"] == "ana"
    assert invited[0]["data"]["seat"] == 1
    assert types_of(feed(cia)) == ["invited"]
    assert feed(ana) == []

    declined = cia.post(f"/api/v1/invitations/{feed(cia)[0]['data']['invitation']}/decline")
    assert declined.status_code == 200
    answered = feed(ana)
    assert [(e["type"], e["data"]["invitee"], e["data"]["status"]) for e in answered] == [
        ("invitation_answered", "cia", "declined")
    ]
    invitation = invited[0]["data"]["invitation"]
    assert ben.post(f"/api/v1/invitations/{invitation}/accept").status_code == 200
    assert types_of(feed(ana))[1:] == ["invitation_answered"]
    assert feed(ana)[-1]["data"]["status"] == "accepted"
    assert feed(ben)[-1]["game"] == game["id"]


def test_resigning_and_abandoning_notify_every_seated_human_but_a_resigned_seat_gets_no_turn():
    game_id, clients = start_human_game(3)
    turn = _turn(clients, game_id)
    mover, resigner, third = (clients[(turn + i) % 3] for i in range(3))
    assert resigner.post(f"/api/v1/games/{game_id}/resign").status_code == 200
    for client in clients:
        last = feed(client)[-1]
        assert (last["type"], last["data"]) == ("resigned", {"seat": (turn + 1) % 3})
    mark = feed(resigner)[-1]["id"]
    # The turn passes to the resigned seat: the AI will play it, nobody is told.
    play_one(mover, game_id, random.Random(2))
    assert types_of(feed(resigner, mark)) == ["move"]
    assert "your_turn" not in types_of(feed(third, feed(third)[-2]["id"]))
    assert mover.post(f"/api/v1/games/{game_id}/resign").status_code == 200
    assert third.post(f"/api/v1/games/{game_id}/resign").status_code == 200
    for client in clients:
        assert types_of(feed(client))[-2:] == ["resigned", "abandoned"]


def test_cancelling_a_waiting_game_tells_who_sat_in_it():
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}] * 3)
    assert ben.post(f"/api/v1/games/{game['id']}/join", {}, format="json").status_code == 200
    assert ana.post(f"/api/v1/games/{game['id']}/cancel").status_code == 200
    assert types_of(feed(ana)) == types_of(feed(ben)) == ["abandoned"]


def test_the_end_of_a_deal_and_of_the_match_close_the_feed():
    game_id, clients = start_human_game(2, target_deals=1)
    play_until_finished(clients, game_id, random.Random(3))
    game = Game.objects.get(pk=game_id)
    deal = Deal.objects.get(game=game, number=1)
    for client in clients:
        events = feed(client)
        assert types_of(events)[-2:] == ["deal_finished", "game_finished"]
        assert events[-2]["data"]["winner"] == deal.winner
        assert events[-2]["data"]["points"] == deal.points
        assert events[-1]["data"]["ranking"] == game.ranking
        assert types_of(events).count("move") == deal.seq


def test_deadline_soon_goes_once_per_turn_to_the_human_to_play():
    game_id, (ana, ben) = start_human_game(2, turn_timeout=600)
    to_play = (ana, ben)[_turn([ana, ben], game_id)]
    other = ben if to_play is ana else ana
    started = Deal.objects.get(game_id=game_id, number=1).turn_started_at
    deadline = started + dt.timedelta(seconds=600)
    lead = dt.timedelta(seconds=settings.DEADLINE_SOON_SECONDS)
    assert services.deadline_warnings_send(now=deadline - lead - dt.timedelta(seconds=5)) == 0
    assert services.deadline_warnings_send(now=deadline - lead + dt.timedelta(seconds=5)) == 1
    assert services.deadline_warnings_send(now=deadline - dt.timedelta(seconds=1)) == 0
    assert services.deadline_warnings_send(now=deadline + dt.timedelta(seconds=1)) == 0
    warned = [e for e in feed(to_play) if e["type"] == "deadline_soon"]
    assert len(warned) == 1
    assert warned[0]["data"]["seq"] == 0
    assert warned[0]["data"]["deadline"] == feed(to_play)[1]["data"]["deadline"]
    assert "deadline_soon" not in types_of(feed(other))
    # The next turn is warned again.
    play_one(to_play, game_id, random.Random(4))
    started = Deal.objects.get(game_id=game_id, number=1).turn_started_at
    now = started + dt.timedelta(seconds=600) - dt.timedelta(seconds=10)
    assert services.deadline_warnings_send(now=now) == 1
    assert types_of(feed(other))[-1] == "deadline_soon"


def test_a_short_turn_is_warned_half_its_time_before_the_deadline():
    game_id, _clients = start_human_game(2, turn_timeout=20)
    started = Deal.objects.get(game_id=game_id, number=1).turn_started_at
    assert services.deadline_warnings_send(now=started + dt.timedelta(seconds=9)) == 0
    assert services.deadline_warnings_send(now=started + dt.timedelta(seconds=11)) == 1


def test_the_periodic_tasks_are_scheduled():
    tasks_scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"games.warn_deadlines", "notifications.purge_events"} <= tasks_scheduled
    assert tasks.warn_deadlines() == 0
    assert feed_tasks.purge_events() == 0


def test_events_past_their_lifetime_are_purged():
    _game_id, (ana, ben) = start_human_game(2)
    kept, old = len(feed(ana)), len(feed(ben))
    Event.objects.filter(player=ben.player).update(
        created_at=timezone.now() - dt.timedelta(days=settings.EVENTS_TTL_DAYS, seconds=1)
    )
    assert retention.events_purge() == old > 0
    assert feed(ben) == []
    assert len(feed(ana)) == kept


def test_an_answer_holds_one_page_and_the_client_goes_on_from_last_id():
    game_id, (ana, ben) = start_human_game(2, target_deals=10)
    rng = random.Random(5)
    while Event.objects.filter(player=ana.player).count() <= PAGE_SIZE:
        state = state_of(ana, game_id)
        assert state["status"] == "active"
        play_one((ana, ben)[state["deal"]["turn"]], game_id, rng)
    first = ana.get("/api/v1/events").json()
    assert len(first["events"]) == PAGE_SIZE
    assert first["last_id"] == first["events"][-1]["id"]
    rest = ana.get(f"/api/v1/events?since={first['last_id']}").json()["events"]
    assert rest
    assert rest[0]["id"] > first["last_id"]
    assert len(feed(ana)) == PAGE_SIZE + len(rest)


@pytest.mark.parametrize(
    "query",
    ["since=-1", "since=x", "since=1.5", "since=", "wait=31", "wait=-1", "wait=soon"],
)
def test_a_bad_feed_query_is_refused(query):
    ana = client_for("ana")
    response = ana.get(f"/api/v1/events?{query}")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_input"


def test_the_feed_needs_a_token(api_client):
    for path in ("/api/v1/events", "/api/v1/events/stream"):
        response = api_client.get(path)
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "not_authenticated"
    assert api_client.post("/api/v1/events/ticket").status_code == 401


@pytest.mark.parametrize(
    ("query", "headers", "status", "code"),
    [
        ("ticket=nope", {}, 401, "invalid_ticket"),
        ("since=-1", {}, 400, "invalid_input"),
        ("max_seconds=4000", {}, 400, "invalid_input"),
        ("", {"HTTP_LAST_EVENT_ID": "abc"}, 400, "invalid_input"),
        ("", {"HTTP_LAST_EVENT_ID": "-3"}, 400, "invalid_input"),
    ],
)
def test_a_bad_stream_request_is_refused_in_json(query, headers, status, code, api_client):
    # A ticket is what a client without a token presents.
    ana = api_client if query.startswith("ticket") else client_for("ana")
    response = ana.get(f"/api/v1/events/stream?{query}", HTTP_ACCEPT="text/event-stream", **headers)
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == code


def test_a_ticket_is_spent_once_and_expires():
    from notifications import services as feed_services
    from pusoy_api.domain_errors import DomainError

    ana = client_for("ana")
    response = ana.post("/api/v1/events/ticket")
    assert response.status_code == 201
    ticket = response.json()["ticket"]
    assert feed_services.stream_ticket_spend(ticket=ticket) == ana.player
    with pytest.raises(DomainError) as spent:
        feed_services.stream_ticket_spend(ticket=ticket)
    assert spent.value.code == "invalid_ticket"
    late = ana.post("/api/v1/events/ticket").json()["ticket"]
    from notifications.models import StreamTicket

    StreamTicket.objects.filter(player=ana.player, used_at__isnull=True).update(
        expires_at=timezone.now() - dt.timedelta(seconds=1)
    )
    with pytest.raises(DomainError):
        feed_services.stream_ticket_spend(ticket=late)
