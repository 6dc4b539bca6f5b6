"""Bad input of any kind gets a 4xx with the envelope, never a 500, and changes nothing."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, Move
from tests.api.helpers import start_human_game

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
card_like = st.text(alphabet="23456789TJQKA10CSHDcshd♣♠♥♦ x", max_size=4)
move_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {
            "action": st.sampled_from(["play", "pass", "PLAY", "", "fold"]),
            "cards": st.lists(card_like, max_size=6) | json_values,
        },
        optional={"expected_seq": st.integers(-5, 10**12) | json_values},
    ),
)


_names = itertools.count()


def fresh_names(n: int) -> tuple[str, ...]:
    """Unique usernames: hypothesis runs every example inside one test transaction."""
    batch = next(_names)
    return tuple(f"fz{batch}_{i}" for i in range(n))


@pytest.fixture
def dealt():
    return start_human_game(4, names=fresh_names(4))


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=move_bodies)
def test_random_move_bodies_never_500(dealt, body):
    game_id, clients = dealt
    moves_before = Move.objects.count()
    for client in clients:
        response = client.post(f"/api/v1/games/{game_id}/moves", body, format="json")
        assert response.status_code < 500
        if response.status_code >= 400:
            error = response.json()["error"]
            assert set(error) == {"code", "message", "details"}
    # At most one move can land: only the seat to play may move, and only legally.
    assert Move.objects.count() - moves_before <= 1


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=json_values, query=st.text(max_size=20))
def test_random_game_creation_and_queries_never_500(body, query):
    from tests.api.helpers import client_for

    client = client_for(fresh_names(1)[0])
    games_before = Game.objects.count()
    response = client.post("/api/v1/games", body, format="json")
    assert response.status_code < 500
    if response.status_code >= 400:
        assert Game.objects.count() == games_before
    for path in ("/api/v1/games?status=", "/api/v1/games?mine=", "/api/v1/leaderboard?limit="):
        assert client.get(path + query).status_code < 500


@pytest.mark.parametrize(
    "raw", ["", "{", "NaN", "Infinity", '{"action": NaN}', "\u0000", '"play"', "[]" * 1000]
)
def test_raw_bodies_never_500(dealt, raw):
    game_id, clients = dealt
    for client in clients:
        response = client.post(
            f"/api/v1/games/{game_id}/moves", data=raw, content_type="application/json"
        )
        assert 400 <= response.status_code < 500
        assert response.json()["error"]["code"] in {"malformed_request", "invalid_input"}


def test_form_encoded_body_is_415(dealt):
    game_id, clients = dealt
    response = clients[0].post(f"/api/v1/games/{game_id}/moves", {"action": "pass"})
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"
