"""Private games, invitations and invite codes, through HTTP."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.models import Game, Invitation
from tests.api.helpers import client_for, create_game, start_human_game

pytestmark = pytest.mark.django_db

HUMANS_3 = [{"type": "human"}] * 3


def code_of(response) -> str:
    return response.json()["error"]["code"]


def pending(client) -> list[dict]:
    response = client.get("/api/v1/invitations?status=pending")
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def test_a_private_game_is_invisible_to_outsiders_everywhere():
    ana, ben, eve = client_for("ana"), client_for("ben"), client_for("eve")
    game = create_game(ana, HUMANS_3, visibility="private", invite=["ben"])
    game_id = game["id"]
    assert game["visibility"] == "private"
    assert game["invite_code"]
    paths = [
        f"/api/v1/games/{game_id}",
        f"/api/v1/games/{game_id}/state",
        f"/api/v1/games/{game_id}/moves",
        f"/api/v1/games/{game_id}/moves?wait=0.2",
        f"/api/v1/games/{game_id}/deals/1/record",
        f"/api/v1/games/{game_id}/deals/1/replay",
    ]
    for path in paths:
        response = eve.get(path)
        assert (response.status_code, code_of(response)) == (404, "not_found"), path
    for path in ("join", "leave", "cancel", "resign", "rematch", "invitations"):
        body = {"username": "eve"} if path == "invitations" else {}
        response = eve.post(f"/api/v1/games/{game_id}/{path}", body, format="json")
        assert (response.status_code, code_of(response)) == (404, "not_found"), path
    for query in ("", "?status=waiting"):
        listed = {g["id"] for g in eve.get(f"/api/v1/games{query}").json()["results"]}
        assert game_id not in listed
    # The invitee sees it (to decide), without the invite code; the creator sees it all.
    assert ben.get(f"/api/v1/games/{game_id}").json()["invite_code"] is None
    assert ana.get(f"/api/v1/games/{game_id}").json()["invite_code"] == game["invite_code"]
    assert game_id in {g["id"] for g in ana.get("/api/v1/games?mine=true").json()["results"]}


def test_the_invite_code_lets_anyone_join_a_private_game():
    ana, eve = client_for("ana"), client_for("eve")
    game = create_game(ana, [{"type": "human"}] * 2, visibility="private")
    wrong = eve.post(f"/api/v1/games/{game['id']}/join", {"invite_code": "x"}, format="json")
    assert (wrong.status_code, code_of(wrong)) == (404, "not_found")
    joined = eve.post(
        f"/api/v1/games/{game['id']}/join", {"invite_code": game["invite_code"]}, format="json"
    )
    assert joined.status_code == 200, joined.json()
    assert joined.json()["status"] == "active"
    assert joined.json()["invite_code"] == game["invite_code"]  # a participant now


def test_invited_seats_are_reserved_until_answered():
    ana, ben, cia, eve = (client_for(n) for n in ("ana", "ben", "cia", "eve"))
    game = create_game(ana, HUMANS_3, invite=["ben", "CIA"])  # any spelling of a name
    game_id = game["id"]
    full = eve.post(f"/api/v1/games/{game_id}/join", {}, format="json")
    assert (full.status_code, code_of(full)) == (409, "game_full")
    taken = eve.post(f"/api/v1/games/{game_id}/join", {"seat": 2}, format="json")
    assert (taken.status_code, code_of(taken)) == (409, "seat_taken")
    (ben_invitation,) = pending(ben)
    assert (ben_invitation["seat"], ben_invitation["invited_by"]["username"]) == (1, "ana")
    declined = cia.post(f"/api/v1/invitations/{pending(cia)[0]['id']}/decline")
    assert declined.json()["status"] == "declined"
    again = cia.post(f"/api/v1/invitations/{declined.json()['id']}/accept")
    assert (again.status_code, code_of(again)) == (409, "invitation_closed")
    # Seat 2 is open again; eve takes it, ben accepts: the game starts.
    assert eve.post(f"/api/v1/games/{game_id}/join", {}, format="json").status_code == 200
    accepted = ben.post(f"/api/v1/invitations/{ben_invitation['id']}/accept")
    assert accepted.json()["status"] == "accepted"
    assert Game.objects.get(pk=game_id).status == "active"
    seats = ana.get(f"/api/v1/games/{game_id}").json()["seats"]
    assert {s["position"]: s["player"]["username"] for s in seats} == {0: "ana", 1: "ben", 2: "eve"}


def test_joining_with_an_invitation_accepts_it():
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}] * 2, visibility="private", invite=["ben"])
    joined = ben.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert joined.status_code == 200, joined.json()
    assert Invitation.objects.get().status == "accepted"


def test_the_creator_invites_while_the_game_waits():
    ana, ben = client_for("ana"), client_for("ben")
    client_for("cia")
    game_id = create_game(ana, HUMANS_3)["id"]
    url = f"/api/v1/games/{game_id}/invitations"
    created = ana.post(url, {"username": "ben", "seat": 2}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["seat"] == 2
    refusals = [
        (ben, {"username": "cia"}, 403, "not_the_creator"),
        (ana, {"username": "ben"}, 409, "already_invited"),
        (ana, {"username": "ana"}, 422, "invalid_invitee"),
        (ana, {"username": "nobody"}, 422, "unknown_player"),
        (ana, {"username": "cia", "seat": 2}, 409, "seat_taken"),
        (ana, {"username": "cia", "seat": 0}, 409, "seat_taken"),
        (ana, {"username": "cia", "seat": 3}, 422, "invalid_seat"),
        (ana, {"username": 7}, 400, "invalid_input"),
    ]
    for client, body, status, code in refusals:
        response = client.post(url, body, format="json")
        assert (response.status_code, code_of(response)) == (status, code), body
    assert ana.post(url, {"username": "cia"}, format="json").json()["seat"] == 1
    assert Invitation.objects.filter(game_id=game_id).count() == 2


def test_invitations_expire_and_free_their_seats():
    ana, ben, eve = client_for("ana"), client_for("ben"), client_for("eve")
    game_id = create_game(ana, [{"type": "human"}] * 2, invite=["ben"])["id"]
    Invitation.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert pending(ben) == []
    listed = ben.get("/api/v1/invitations?status=expired").json()["results"]
    assert [i["status"] for i in listed] == ["expired"]
    late = ben.post(f"/api/v1/invitations/{listed[0]['id']}/accept")
    assert (late.status_code, code_of(late)) == (409, "invitation_closed")
    assert eve.post(f"/api/v1/games/{game_id}/join", {}, format="json").status_code == 200


def test_bad_invite_lists_at_creation_are_refused_and_change_nothing():
    ana = client_for("ana")
    client_for("ben")
    cases = [
        (["ben", "BEN"], 422, "invalid_invitee"),
        (["ana"], 422, "invalid_invitee"),
        (["nobody"], 422, "unknown_player"),
        (["ben", "x", "y"], 422, "unknown_player"),
        ("ben", 400, "invalid_input"),
    ]
    for invite, status, code in cases:
        response = ana.post(
            "/api/v1/games", {"seats": [{"type": "human"}] * 2, "invite": invite}, format="json"
        )
        assert (response.status_code, code_of(response)) == (status, code), invite
    too_many = ana.post(
        "/api/v1/games",
        {"seats": [{"type": "human"}, {"type": "ai", "level": "random"}], "invite": ["ben"]},
        format="json",
    )
    assert (too_many.status_code, code_of(too_many)) == (422, "invalid_invitee")
    assert not Game.objects.exists()
    assert not Invitation.objects.exists()


def test_someone_elses_invitation_is_not_found():
    ana, ben, eve = client_for("ana"), client_for("ben"), client_for("eve")
    create_game(ana, [{"type": "human"}] * 2, invite=["ben"])
    invitation = pending(ben)[0]
    for answer in ("accept", "decline"):
        response = eve.post(f"/api/v1/invitations/{invitation['id']}/{answer}")
        assert (response.status_code, code_of(response)) == (404, "not_found")
    assert pending(ben)[0]["status"] == "pending"


@pytest.mark.parametrize("name", ["", "   ", "a\x00b", "x" * 151, "ana ben"])
def test_a_string_no_username_can_be_is_refused_by_its_form(name):
    ana = client_for("ana")
    create = ana.post(
        "/api/v1/games", {"seats": [{"type": "human"}] * 2, "invite": [name]}, format="json"
    )
    assert (create.status_code, create.json()["error"]["code"]) == (400, "invalid_input")
    game = create_game(ana, [{"type": "human"}] * 2)
    invite = ana.post(f"/api/v1/games/{game['id']}/invitations", {"username": name}, format="json")
    assert (invite.status_code, invite.json()["error"]["code"]) == (400, "invalid_input")


# --- What a stranger learns of a private game: exactly what an unknown id tells ----------

UNKNOWN = "7d0c3f1e-0000-4000-8000-000000000000"


def answer(client, method: str, game_id: str, suffix: str, body) -> tuple[int, dict]:
    url = f"/api/v1/games/{game_id}{suffix}"
    response = client.get(url) if method == "get" else client.post(url, body, format="json")
    return response.status_code, response.json()


# Every endpoint under games/{id}/, with a body that passes its form (so the answer is
# decided by the game, not by the body).
PER_GAME = [
    ("get", "", None),
    ("get", "/state", None),
    ("get", "/hint", None),
    ("get", "/moves", None),
    ("get", "/moves?deal=1&since=0", None),
    ("get", "/moves?wait=0.2", None),
    ("get", "/deals/1/record", None),
    ("get", "/deals/1/replay", None),
    ("get", "/deals/1/replay?at=0", None),
    ("post", "/join", {}),
    ("post", "/join", {"seat": 1}),
    ("post", "/join", {"invite_code": "not-the-code"}),
    ("post", "/leave", None),
    ("post", "/cancel", None),
    ("post", "/resign", None),
    ("post", "/rematch", None),
    ("post", "/invitations", {"username": "ana"}),
    ("post", "/moves", {"action": "pass"}),
    ("post", "/moves", {"action": "play", "cards": ["3C"], "expected_seq": 0}),
]


def private_games(ana, ben) -> dict[str, str]:
    """A waiting private game and an active one (ben joined it by its code)."""
    waiting = create_game(ana, [{"type": "human"}] * 2, visibility="private")
    active = create_game(ana, [{"type": "human"}] * 2, visibility="private")
    joined = ben.post(
        f"/api/v1/games/{active['id']}/join", {"invite_code": active["invite_code"]}, format="json"
    )
    assert joined.json()["status"] == "active"
    return {"waiting": waiting["id"], "active": active["id"]}


def assert_answers_as_unknown(client, game_id: str) -> None:
    for method, suffix, body in PER_GAME:
        before = Game.objects.get(pk=game_id).version
        unknown = answer(client, method, UNKNOWN, suffix, body)
        assert unknown[0] == 404, (method, suffix, unknown)
        assert answer(client, method, game_id, suffix, body) == unknown, (method, suffix)
        assert Game.objects.get(pk=game_id).version == before, (method, suffix)


def test_every_endpoint_of_a_private_game_answers_a_stranger_as_for_an_unknown_id():
    ana, ben, eve = client_for("ana"), client_for("ben"), client_for("eve")
    for game_id in private_games(ana, ben).values():
        assert_answers_as_unknown(eve, game_id)


def test_a_stranger_in_a_public_game_is_still_told_they_have_no_seat():
    active, clients = start_human_game(2, hints=True)
    waiting = create_game(clients[0], [{"type": "human"}] * 2)["id"]
    eve = client_for("eve")
    refusals = [
        ("post", active, "/resign", None),
        ("post", active, "/moves", {"action": "pass"}),
        ("get", active, "/hint", None),
        ("post", waiting, "/leave", None),
        ("post", waiting, "/cancel", None),
    ]
    for method, game_id, suffix, body in refusals:
        status, refusal = answer(eve, method, game_id, suffix, body)
        assert (status, refusal["error"]["code"]) == (403, "not_a_participant"), suffix
    status, state = answer(eve, "get", active, "/state", None)
    assert (status, state["view"]) == (200, "spectator")


# Full-width "abc" among them: a code is compared as sent, never normalised.
@pytest.mark.parametrize(
    "code", ["é", "日本語", "🂡", "Ω" * 64, "\uff41\uff42\uff43", "x", "café-Straße"]
)
def test_any_wrong_invite_code_is_a_wrong_code(code):
    ana, eve = client_for("ana"), client_for("eve")
    game = create_game(ana, [{"type": "human"}] * 2, visibility="private")
    body = {"invite_code": code}
    not_found = (404, {"error": {"code": "not_found", "message": "No such game.", "details": {}}})
    assert answer(eve, "post", UNKNOWN, "/join", body) == not_found
    assert answer(eve, "post", game["id"], "/join", body) == not_found
    assert Game.objects.get(pk=game["id"]).status == "waiting"


def test_the_invite_code_is_taken_as_sent():
    ana, eve = client_for("ana"), client_for("eve")
    game = create_game(ana, [{"type": "human"}] * 2, visibility="private")
    # Spaces are characters of a code like any other (the schema allows them): a wrong
    # code, not a blank field; and nothing is trimmed off the right one either.
    for code in (" ", "\t\n", f" {game['invite_code']} ", f"{game['invite_code']}\n"):
        unknown = answer(eve, "post", UNKNOWN, "/join", {"invite_code": code})
        assert unknown[0] == 404
        assert answer(eve, "post", game["id"], "/join", {"invite_code": code}) == unknown, code
    assert answer(eve, "post", game["id"], "/join", {"invite_code": game["invite_code"]})[0] == 200


# --- Which invitations show a private game ---------------------------------------------


def test_a_declined_invitation_no_longer_shows_the_private_game():
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}] * 3, visibility="private", invite=["ben"])
    # Pending: ben may look before answering (as a spectator, without the code).
    state = ben.get(f"/api/v1/games/{game['id']}/state")
    assert (state.status_code, state.json()["view"]) == (200, "spectator")
    assert game["id"] in {g["id"] for g in ben.get("/api/v1/games").json()["results"]}
    declined = ben.post(f"/api/v1/invitations/{pending(ben)[0]['id']}/decline")
    assert declined.json()["status"] == "declined"
    assert_answers_as_unknown(ben, game["id"])
    assert game["id"] not in {g["id"] for g in ben.get("/api/v1/games").json()["results"]}


def test_an_expired_or_cancelled_invitation_no_longer_shows_the_private_game():
    ana, ben, cia = client_for("ana"), client_for("ben"), client_for("cia")
    expiring = create_game(ana, [{"type": "human"}] * 2, visibility="private", invite=["ben"])
    cancelled = create_game(ana, [{"type": "human"}] * 2, visibility="private", invite=["cia"])
    assert ben.get(f"/api/v1/games/{expiring['id']}").status_code == 200
    Invitation.objects.filter(game_id=expiring["id"]).update(
        expires_at=timezone.now() - dt.timedelta(seconds=1)
    )  # past its time, not yet marked expired by the periodic task
    assert_answers_as_unknown(ben, expiring["id"])
    assert ana.post(f"/api/v1/games/{cancelled['id']}/cancel").status_code == 200
    assert Invitation.objects.get(game_id=cancelled["id"]).status == "cancelled"
    assert_answers_as_unknown(cia, cancelled["id"])


def test_a_pending_invitee_sees_the_game_but_only_the_creator_invites():
    ana, ben = client_for("ana"), client_for("ben")
    client_for("cia")
    game = create_game(ana, [{"type": "human"}] * 3, visibility="private", invite=["ben"])
    status, body = answer(ben, "post", game["id"], "/invitations", {"username": "cia"})
    assert (status, body["error"]["code"]) == (403, "not_the_creator")


def test_an_invitee_who_took_the_seat_and_left_no_longer_sees_the_private_game():
    ana, ben = client_for("ana"), client_for("ben")
    game = create_game(ana, [{"type": "human"}] * 3, visibility="private", invite=["ben"])
    accepted = ben.post(f"/api/v1/invitations/{pending(ben)[0]['id']}/accept")
    assert accepted.json()["status"] == "accepted"
    assert ben.post(f"/api/v1/games/{game['id']}/leave").status_code == 200
    assert_answers_as_unknown(ben, game["id"])


def test_the_invite_code_shows_a_private_waiting_game_to_its_holder():
    ana, eve = client_for("ana"), client_for("eve")
    game = create_game(ana, [{"type": "human"}] * 2, visibility="private")
    path = f"/api/v1/games/{game['id']}"
    # What the invitation is for, and from whom, before joining; never the code itself.
    shown = eve.get(f"{path}?invite_code={game['invite_code']}")
    assert shown.status_code == 200, shown.json()
    assert shown.json()["created_by"]["username"] == "ana"
    assert shown.json()["invite_code"] is None
    # A wrong code is no game at all; an empty or overlong one is bad input.
    for query, status, code in [
        ("?invite_code=wrong", 404, "not_found"),
        ("?invite_code=", 400, "invalid_input"),
        ("?invite_code=\u00e9t\u00e9", 404, "not_found"),
        ("?invite_code=" + "x" * 65, 400, "invalid_input"),
    ]:
        response = eve.get(path + query)
        assert (response.status_code, code_of(response)) == (status, code), query
    # Once the game has started, the code shows nothing to an outsider.
    ben = client_for("ben")
    joined = ben.post(f"{path}/join", {"invite_code": game["invite_code"]}, format="json")
    assert joined.status_code == 200, joined.json()
    response = eve.get(f"{path}?invite_code={game['invite_code']}")
    assert (response.status_code, code_of(response)) == (404, "not_found")
