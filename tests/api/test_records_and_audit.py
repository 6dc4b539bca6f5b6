"""Finished deals: records verify, tampering is caught, the commitment matches the seed."""

from __future__ import annotations

import copy
import hashlib
import io
import random

import pytest
from django.core.management import CommandError, call_command

from games.models import Deal, Move
from tests.api.helpers import play_until_finished_fast, start_human_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished():
    game_id, clients = start_human_game(4, target_deals=2)
    play_until_finished_fast(game_id, random.Random(3))
    return game_id, clients


def verify(client, record):
    response = client.post("/api/v1/records/verify", record, format="json")
    assert response.status_code == 200
    return response.json()


def test_record_of_a_finished_deal_verifies_and_reveals_the_seed(finished):
    game_id, clients = finished
    record = clients[2].get(f"/api/v1/games/{game_id}/deals/1/record").json()
    assert record["format"] == "pusoy-dos-record/1"
    verdict = verify(clients[0], record)
    assert (verdict["valid"], verdict["move_index"], verdict["code"]) == (True, None, None)
    seed = bytes.fromhex(record["seed"])
    assert hashlib.sha256(seed).hexdigest() == record["commitment"]
    deal = Deal.objects.get(game_id=game_id, number=1)
    assert record["commitment"] == deal.commitment
    # The second deal is led freely by the first deal's winner.
    second = clients[0].get(f"/api/v1/games/{game_id}/deals/2/record").json()
    assert second["leader"] == deal.winner
    assert verify(clients[0], second)["valid"]


def test_a_changed_move_is_caught(finished):
    game_id, clients = finished
    record = clients[0].get(f"/api/v1/games/{game_id}/deals/1/record").json()
    tampered = copy.deepcopy(record)
    first_play = tampered["moves"][0]
    first_play["seat"] = (first_play["seat"] + 1) % 4
    verdict = verify(clients[0], tampered)
    assert verdict["valid"] is False
    assert verdict["move_index"] == 0


def test_a_changed_hand_is_caught(finished):
    game_id, clients = finished
    record = clients[0].get(f"/api/v1/games/{game_id}/deals/1/record").json()
    tampered = copy.deepcopy(record)
    tampered["hands"][0][0], tampered["hands"][1][0] = (
        tampered["hands"][1][0],
        tampered["hands"][0][0],
    )
    verdict = verify(clients[0], tampered)
    # The seed no longer reproduces the hands: caught before any move is replayed.
    assert (verdict["valid"], verdict["code"]) == (False, "seed_mismatch")


def test_a_changed_result_is_caught(finished):
    game_id, clients = finished
    record = clients[0].get(f"/api/v1/games/{game_id}/deals/1/record").json()
    record["result"]["points"] = [p + 1 for p in record["result"]["points"]]
    verdict = verify(clients[0], record)
    assert verdict == {**verdict, "valid": False, "code": "result_mismatch"}
    assert verdict["move_index"] == len(record["moves"])


def test_verify_refuses_garbage_with_a_code(api_client):
    verdict = api_client.post("/api/v1/records/verify", {"format": "nope"}, format="json").json()
    assert verdict["valid"] is False
    assert verdict["code"]


def test_replay_at_each_seq(finished):
    game_id, clients = finished
    deal = Deal.objects.get(game_id=game_id, number=1)
    start = clients[0].get(f"/api/v1/games/{game_id}/deals/1/replay?at=0").json()
    assert start["state"]["seq"] == 0
    assert start["hands"] == deal.hands
    end = clients[0].get(f"/api/v1/games/{game_id}/deals/1/replay").json()
    assert end["state"]["is_over"] is True
    middle = clients[0].get(f"/api/v1/games/{game_id}/deals/1/replay?at=5").json()
    assert middle["state"]["seq"] == 5
    assert len(middle["moves"]) == 5
    too_far = clients[0].get(f"/api/v1/games/{game_id}/deals/1/replay?at={deal.seq + 1}")
    assert too_far.status_code == 404
    assert too_far.json()["error"]["code"] == "invalid_seq"
    missing = clients[0].get(f"/api/v1/games/{game_id}/deals/9/replay")
    assert missing.status_code == 404


def test_verify_game_passes_on_a_sound_game_and_catches_tampering(finished):
    game_id, _clients = finished
    out = io.StringIO()
    call_command("verify_game", game_id, stdout=out)
    assert out.getvalue().count(": ok") == 2

    move = Move.objects.filter(deal__game_id=game_id, deal__number=1, action="play").last()
    move.seat = (move.seat + 1) % 4
    move.save()
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_game", game_id, stdout=out)
    assert "hash chain broken" in out.getvalue()


def test_verify_game_catches_a_swapped_seed(finished):
    game_id, _clients = finished
    deal = Deal.objects.get(game_id=game_id, number=2)
    deal.seed = "00" * 32
    deal.save()
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_game", game_id, stdout=out)
    assert "commitment" in out.getvalue()


def test_records_of_a_match_name_a_leader_only_for_later_deals(finished):
    game_id, clients = finished
    first = clients[0].get(f"/api/v1/games/{game_id}/deals/1/record").json()
    second = clients[0].get(f"/api/v1/games/{game_id}/deals/2/record").json()
    assert "leader" not in first
    assert "3C" in first["moves"][0]["play"]
    assert second["leader"] == Deal.objects.get(game_id=game_id, number=1).winner
    assert "opening_card" not in second
    assert verify(clients[0], second)["valid"] is True


def test_verify_game_catches_a_deal_led_by_the_wrong_seat(finished):
    game_id, _clients = finished
    first = Deal.objects.get(game_id=game_id, number=1)
    first.leader = first.winner  # the first deal must be opened by the card's holder
    first.save()
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_game", game_id, stdout=out)
    assert f"deal 1: led by seat {first.winner}, not None" in out.getvalue()
