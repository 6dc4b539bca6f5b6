"""The `verify_record` management command (a thin wrapper over verify_cli.run)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from pusoy.engine import DealState, record_from_state
from tests.engine.helpers import play_randomly


def _write(path: Path, valid: bool) -> Path:
    state = DealState.from_seed(None, bytes(range(32)), 4)
    play_randomly(state, random.Random(1))
    data = record_from_state(state).to_dict()
    if not valid:
        data["moves"][2] = {"seat": data["moves"][2]["seat"], "play": ["ZZ"]}
    path.write_text(json.dumps(data))
    return path


def test_command_valid_file(tmp_path: Path) -> None:
    good = _write(tmp_path / "good.json", valid=True)
    out = io.StringIO()
    call_command("verify_record", str(good), stdout=out)
    assert out.getvalue() == f"{good}: valid\n"


def test_command_invalid_file_fails(tmp_path: Path) -> None:
    good = _write(tmp_path / "good.json", valid=True)
    bad = _write(tmp_path / "bad.json", valid=False)
    out = io.StringIO()
    with pytest.raises(CommandError) as info:
        call_command("verify_record", "--json", str(good), str(bad), stdout=out)
    assert info.value.returncode == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["valid"] for line in lines] == [True, False]
    assert lines[1]["move_index"] == 2
    assert lines[1]["code"] == "invalid_card"
