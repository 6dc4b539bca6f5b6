"""The admin lists games, deals and moves; moves cannot be edited."""

from __future__ import annotations

import pytest

from games.models import Move
from tests.api.helpers import rig_deal, start_human_game

pytestmark = pytest.mark.django_db

RIGGED = [
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C",
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S",
    "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
    "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D",
]


def test_admin_pages_and_read_only_moves(admin_client):
    game_id, clients = start_human_game(4)
    rig_deal(game_id, RIGGED)
    clients[0].post(
        f"/api/v1/games/{game_id}/moves", {"action": "play", "cards": ["3C"]}, format="json"
    )
    move = Move.objects.get()
    for path in (
        "/admin/games/game/",
        f"/admin/games/game/{game_id}/change/",
        "/admin/games/deal/",
        f"/admin/games/deal/{move.deal_id}/change/",
        "/admin/games/move/",
        f"/admin/games/move/{move.pk}/change/",
    ):
        assert admin_client.get(path).status_code == 200, path
    assert admin_client.get("/admin/games/move/add/").status_code == 403
    response = admin_client.post(f"/admin/games/move/{move.pk}/change/", {"seat": 2})
    assert response.status_code == 403
    assert Move.objects.get().seat == 0
