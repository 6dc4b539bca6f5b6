"""The admin lists games, deals and moves; moves cannot be edited."""

from __future__ import annotations

import pytest

from games.models import Move
from tests.api.helpers import RIGGED, rig_deal, start_human_game

pytestmark = pytest.mark.django_db


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
