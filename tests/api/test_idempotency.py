"""Idempotency-Key: a retried request applies nothing twice and returns the same body."""

from __future__ import annotations

import pytest

from games.models import Move
from tests.api.concurrency_helpers import fire
from tests.api.helpers import RIGGED, rig_deal, start_human_game


def post(client, game_id, body, key):
    return client.post(
        f"/api/v1/games/{game_id}/moves", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


@pytest.mark.django_db
def test_a_retry_returns_the_first_answer_and_applies_nothing():
    game_id, clients = start_human_game(4)
    rig_deal(game_id, RIGGED)
    first = post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "k-1")
    assert first.status_code == 201
    again = post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "k-1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert Move.objects.filter(deal__game_id=game_id).count() == 1


@pytest.mark.django_db
def test_a_reused_key_with_another_body_is_refused():
    game_id, clients = start_human_game(4)
    rig_deal(game_id, RIGGED)
    assert post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "k").status_code == 201
    reused = post(clients[0], game_id, {"action": "play", "cards": ["4C"]}, "k")
    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"
    assert Move.objects.filter(deal__game_id=game_id).count() == 1


@pytest.mark.django_db
def test_keys_belong_to_one_player():
    game_id, clients = start_human_game(4)
    rig_deal(game_id, RIGGED)
    assert post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "same").status_code == 201
    second = post(clients[1], game_id, {"action": "play", "cards": ["4S"]}, "same")
    assert second.status_code == 201
    assert Move.objects.filter(deal__game_id=game_id).count() == 2


@pytest.mark.django_db
def test_bad_keys_are_refused():
    game_id, clients = start_human_game(4)
    response = post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "x" * 300)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_input"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_simultaneous_retries_apply_once_and_answer_alike():
    game_id, clients = start_human_game(4)
    rig_deal(game_id, RIGGED)
    responses = fire(
        [lambda: post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "burst")] * 20
    )
    assert {r.status_code for r in responses} == {201}
    first = responses[0].json()
    assert all(r.json() == first for r in responses)
    assert Move.objects.filter(deal__game_id=game_id).count() == 1
