"""Backup and restore end to end: scripts/backup.sh dumps the live database, scripts/
restore.sh restores it into a new one and audits every game there; a game tampered with
after the restore fails that audit (so passing it means something)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from games.models import Game, Move
from tests.api.helpers import client_for, create_game, play_until_finished_fast, start_human_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def url_of(name: str) -> str:
    s = connection.settings_dict
    user = s["USER"] or "postgres"
    return f"postgres://{user}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{name}"


def run(script: str, database: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        # The scripts run `python` from PATH, as in a deployed image: this test run's own,
        # whether or not its virtualenv is activated.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "DATABASE_URL": url_of(database),
        "DJANGO_SETTINGS_MODULE": "pusoy_api.settings.test",
    }
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def restored_name():
    name = f"{connection.settings_dict['NAME']}_restored"
    yield name
    with psycopg.connect(url_of("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_dump_restores_into_a_new_database_where_every_game_verifies(tmp_path, restored_name):
    ana = client_for("ana")
    for seed in range(3):
        game = create_game(
            ana,
            [{"type": "human"}, *[{"type": "ai", "level": "greedy"}] * 3],
            target_deals=2,
        )
        play_until_finished_fast(game["id"], random.Random(seed))
    start_human_game(2, names=("bo", "cy"))  # a deal in progress, too
    games = Game.objects.count()
    moves = Move.objects.count()

    dump = tmp_path / "pusoy.dump"
    backup = run("backup.sh", connection.settings_dict["NAME"], str(dump))
    assert backup.returncode == 0, backup.stderr
    assert dump.stat().st_size > 0

    restore = run("restore.sh", restored_name, str(dump))
    assert restore.returncode == 0, restore.stdout + restore.stderr
    assert f"{games} games verified" in restore.stdout
    assert "deal 2: ok" in restore.stdout

    with psycopg.connect(url_of(restored_name)) as db:
        assert db.execute("SELECT count(*) FROM games_move").fetchone()[0] == moves
        # Tamper with one stored move of the restored copy: the audit must catch it.
        db.execute(
            "UPDATE games_move SET cards = '[\"2S\"]' WHERE id = "
            "(SELECT id FROM games_move WHERE action = 'play' ORDER BY id LIMIT 1)"
        )
    env = {
        **os.environ,
        "DATABASE_URL": url_of(restored_name),
        "DJANGO_SETTINGS_MODULE": "pusoy_api.settings.test",
    }
    audit = subprocess.run(
        [sys.executable, "manage.py", "verify_game", "--all"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert audit.returncode != 0
    assert "verification failed" in audit.stderr


def test_restore_refuses_to_overwrite_an_existing_database(tmp_path):
    dump = tmp_path / "pusoy.dump"
    assert run("backup.sh", connection.settings_dict["NAME"], str(dump)).returncode == 0
    again = run("restore.sh", connection.settings_dict["NAME"], str(dump))
    assert again.returncode != 0
    assert "already exists" in again.stderr
