"""Idempotency-Key: a retried request applies nothing twice and returns the same body."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.models import IdempotentRequest, Move
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
    assert again.content == first.content
    assert Move.objects.filter(deal__game_id=game_id).count() == 1


@pytest.mark.django_db
def test_a_keyed_move_in_a_game_with_a_turn_timeout_is_stored_and_replayed():
    # The answer holds a deadline (a datetime): storing it was a 500.
    game_id, clients = start_human_game(4, turn_timeout=60)
    rig_deal(game_id, RIGGED)
    first = post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "timed")
    assert first.status_code == 201, first.content
    assert first.json()["state"]["deal"]["deadline"] is not None
    again = post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "timed")
    assert (again.status_code, again.content) == (201, first.content)


@pytest.mark.django_db
def test_stored_answers_expire_and_are_purged():
    from games.services.retention import idempotency_keys_purge
    from games.tasks import purge_idempotency_keys

    game_id, clients = start_human_game(4)
    rig_deal(game_id, RIGGED)
    assert post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "old").status_code == 201
    a_day_later = timezone.now() + dt.timedelta(hours=24, seconds=1)
    assert purge_idempotency_keys.apply().get() == 0  # not yet expired
    assert idempotency_keys_purge(now=a_day_later) == 1
    assert not IdempotentRequest.objects.exists()


@pytest.mark.django_db
def test_an_expired_key_is_a_new_request():
    game_id, clients = start_human_game(4)
    rig_deal(game_id, RIGGED)
    assert post(clients[0], game_id, {"action": "play", "cards": ["3C"]}, "k").status_code == 201
    IdempotentRequest.objects.update(created_at=timezone.now() - dt.timedelta(hours=25))
    # Same key, another body: refused while the key lives, checked afresh once expired.
    response = post(clients[0], game_id, {"action": "play", "cards": ["4C"]}, "k")
    assert response.status_code == 409  # seat 0 is not to play: the move was checked
    assert response.json()["error"]["code"] == "not_your_turn"


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
    assert {r["Idempotent-Replayed"] for r in responses} == {"true", "false"}
    assert Move.objects.filter(deal__game_id=game_id).count() == 1
