"""A feed never gains an id below one already visible: two games writing to one player's
feed at once insert and commit one after the other (events_emit's advisory locks)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from games.models import Game
from notifications.models import Event
from notifications.services import events_emit
from notifications.types import EventType
from tests.factories import HUMAN, game_with_seats

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="advisory locks"),
]


def test_a_second_writer_to_one_feed_waits_for_the_first_to_commit():
    first = game_with_seats([HUMAN, HUMAN])
    player = first.seats.get(position=0).player
    second = game_with_seats([player, HUMAN])
    inserted, release, done = threading.Event(), threading.Event(), threading.Event()
    ids: dict[str, int] = {}

    def write(name: str, game: Game, hold: bool) -> None:
        try:
            with transaction.atomic():
                events_emit(game=game, type=EventType.ABANDONED, data={}, recipients=[player.pk])
                ids[name] = Event.objects.filter(game=game, player=player).latest("id").pk
                if hold:
                    inserted.set()
                    assert release.wait(20)
        finally:
            connections.close_all()
            if not hold:
                done.set()

    holder = threading.Thread(target=write, args=("first", first, True))
    holder.start()
    assert inserted.wait(20)
    follower = threading.Thread(target=write, args=("second", second, False))
    follower.start()
    # The second writer cannot insert while the first one's transaction is open.
    assert not done.wait(1.0)
    assert "second" not in ids
    release.set()
    holder.join(20)
    follower.join(20)
    assert ids["second"] > ids["first"]
    assert list(
        Event.objects.filter(player=player).order_by("id").values_list("id", flat=True)
    ) == sorted(ids.values())
