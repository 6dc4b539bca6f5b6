"""A client generated from the OpenAPI schema, as a mobile team would make one, plays a
whole match and audits it: every answer it reads must parse into the schema's models."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import requests

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

GENERATOR_CONFIG = """\
project_name_override: pusoy-client
package_name_override: pusoy_client
post_hooks: []
"""


@pytest.fixture
def pusoy_client(live_server, tmp_path, monkeypatch):
    """The package openapi-python-client generates from the live schema, imported."""
    schema = tmp_path / "openapi.json"
    schema.write_bytes(
        requests.get(f"{live_server.url}/api/schema/?format=json", timeout=10).content
    )
    (tmp_path / "config.yaml").write_text(GENERATOR_CONFIG)
    generated = subprocess.run(
        [
            str(Path(sys.executable).parent / "openapi-python-client"), "generate",
            "--path", str(schema), "--config", str(tmp_path / "config.yaml"),
            "--meta", "none", "--output-path", str(tmp_path / "pusoy_client"),
        ],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert "Warning" not in generated.stdout, generated.stdout
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith("pusoy_client")]:
        del sys.modules[name]
    return importlib.import_module("pusoy_client")


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_plays_a_match_and_verifies_its_records(live_server, pusoy_client):
    from pusoy_client.api.auth import auth_register, auth_token
    from pusoy_client.api.games import (
        games_create,
        games_deal_record,
        games_deal_replay,
        games_moves_create,
        games_moves_list,
        games_retrieve,
        games_state,
    )
    from pusoy_client.api.records import records_verify
    from pusoy_client.models import (
        AiSeatRequest,
        AiSeatTypeEnum,
        GameCreateRequest,
        GameCreateRequestRulesType0,
        GameStatusEnum,
        HumanSeatRequest,
        HumanSeatTypeEnum,
        LevelEnum,
        MoveActionEnum,
        PassActionEnum,
        PassRequest,
        PlayActionEnum,
        PlayRequest,
        RecordsVerifyBody,
        RegisterRequest,
        TokenRequest,
    )

    anonymous = pusoy_client.Client(base_url=live_server.url, raise_on_unexpected_status=True)
    signed_up = auth_register.sync(
        client=anonymous,
        body=RegisterRequest(username="gen_ana", password="correct-horse-battery-staple"),
    )
    logged_in = auth_token.sync(
        client=anonymous,
        body=TokenRequest(username="GEN_ANA", password="correct-horse-battery-staple"),
    )
    assert logged_in.id == signed_up.id
    me = pusoy_client.AuthenticatedClient(
        base_url=live_server.url, token=logged_in.token, raise_on_unexpected_status=True
    )

    game = games_create.sync(
        client=me,
        body=GameCreateRequest(
            seats=[
                HumanSeatRequest(type_=HumanSeatTypeEnum.HUMAN),
                AiSeatRequest(type_=AiSeatTypeEnum.AI, level=LevelEnum.GREEDY),
                AiSeatRequest(type_=AiSeatTypeEnum.AI, level=LevelEnum.RANDOM),
                AiSeatRequest(type_=AiSeatTypeEnum.AI, level=LevelEnum.HEURISTIC),
            ],
            rules=GameCreateRequestRulesType0.PHILIPPINE,
            target_deals=2,
        ),
    )
    ended_deals = []
    for _ in range(500):
        state = games_state.sync(game_id=game.id, client=me)
        if state.status != GameStatusEnum.ACTIVE:
            break
        deal = state.deal
        assert deal.turn == state.seat  # the AI seats moved in the same request
        move = deal.legal_moves[0]
        body = (
            PassRequest(action=PassActionEnum.PASS, expected_seq=deal.seq)
            if move.action == MoveActionEnum.PASS
            else PlayRequest(action=PlayActionEnum.PLAY, cards=move.cards, expected_seq=deal.seq)
        )
        accepted = games_moves_create.sync(game_id=game.id, client=me, body=body)
        assert accepted.move.seq == deal.seq + 1
        if accepted.ended_deal:
            ended_deals.append(accepted.ended_deal.number)
    assert state.status == GameStatusEnum.FINISHED
    # A deal the human's own move ended is in that move's answer (an AI may end one too).
    assert ended_deals == sorted(set(ended_deals))
    assert set(ended_deals) <= {1, 2}

    detail = games_retrieve.sync(game_id=game.id, client=me)
    assert [d.number for d in detail.deals] == [1, 2]
    for summary in detail.deals:
        history = games_moves_list.sync(game_id=game.id, client=me, deal=summary.number)
        assert history.finished
        assert history.last_seq == summary.seq == len(history.moves)
        record = games_deal_record.sync(game_id=game.id, number=summary.number, client=me)
        assert record.seed == summary.seed
        verdict = records_verify.sync(
            client=anonymous, body=RecordsVerifyBody.from_dict(record.to_dict())
        )
        assert (verdict.valid, verdict.code) == (True, None), verdict.message
        replay = games_deal_replay.sync(game_id=game.id, number=summary.number, client=me, at=3)
        assert (replay.at, len(replay.moves)) == (3, 3)
