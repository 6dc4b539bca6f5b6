"""In-process: the pool's wait for a connection follows whether the database is
reachable: DB_POOL_TIMEOUT while it answers (load), DB_DOWN_TIMEOUT while it is down."""

from __future__ import annotations

import psycopg
import pytest

from pusoy_api import db_reachable


class FakePool:
    timeout = 99.0


@pytest.fixture
def state(settings, monkeypatch):
    settings.DB_POOL_TIMEOUT = 10.0
    settings.DB_DOWN_TIMEOUT = 2.0
    monkeypatch.setattr(db_reachable, "_reachable", False)
    monkeypatch.setattr(db_reachable, "_pools", type(db_reachable._pools)())
    return db_reachable


def test_until_a_connect_succeeds_the_database_counts_as_down(state):
    pool = FakePool()
    state.watch(pool)
    assert pool.timeout == 2.0


def test_the_wait_switches_with_what_connections_see(state):
    pool = FakePool()
    state.watch(pool)
    state.connected()
    assert pool.timeout == 10.0
    state.lost()
    assert pool.timeout == 2.0
    state.connected()
    assert pool.timeout == 10.0


@pytest.mark.postgres
@pytest.mark.django_db
def test_connects_of_the_pool_connection_class_report_what_they_see(state):
    from django.db import connection

    from pusoy_api.db_deadline import BoundedConnection

    db = connection.settings_dict
    with BoundedConnection.connect(
        host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"]
    ):
        assert state.is_reachable()
    with pytest.raises(psycopg.OperationalError):
        BoundedConnection.connect(host="127.0.0.1", port=1, user="nobody", connect_timeout=2)
    assert not state.is_reachable()
