"""`rows_insert_after`: the caller's statement and the INSERT in one round trip, in order."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from notifications.models import Event
from pusoy_api.combined_writes import rows_insert_after
from tests.factories import GameFactory, PlayerFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_statement_runs_before_the_insert_in_one_query_and_the_rows_get_their_ids():
    ana = PlayerFactory(username="ana")
    game = GameFactory()
    rows = [Event(player=ana, game=game, type="your_turn", data={"n": n}) for n in range(2)]
    with CaptureQueriesContext(connection) as captured:
        rows_insert_after("SELECT set_config('pusoy.test_first', 'ran', true)", [], rows)
    assert len(captured.captured_queries) == 1
    assert all(row.pk is not None for row in rows)
    assert list(Event.objects.filter(player=ana).order_by("id").values_list("data", flat=True)) == [
        {"n": 0},
        {"n": 1},
    ]
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('pusoy.test_first', true)")
        assert cursor.fetchone() == ("ran",)


def test_no_rows_is_refused_rather_than_dropping_the_statement():
    with pytest.raises(ValueError, match="needs rows"):
        rows_insert_after("SELECT pg_notify('x', 'y')", [], [])
