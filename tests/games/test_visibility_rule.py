"""`game_visible_to` (asked of a game read with its seats) answers as `visible_to` (the
rule as SQL) for every kind of viewer, and asks the database only when it must."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, Invitation, InvitationStatus, Visibility
from games.selectors import game_visible_to, game_with_seats, visible_to
from tests.factories import HUMAN, OPEN, PlayerFactory
from tests.factories import game_with_seats as make_game

pytestmark = pytest.mark.django_db


def invite(game: Game, seat: int, invitee, status: str, *, expires_in: dt.timedelta) -> None:
    Invitation.objects.create(
        game=game,
        seat=seat,
        invitee=invitee,
        invited_by=game.created_by,
        status=status,
        expires_at=timezone.now() + expires_in,
    )


@pytest.mark.parametrize("visibility", [Visibility.PUBLIC, Visibility.PRIVATE])
def test_the_check_on_read_rows_answers_as_the_rule_in_sql(visibility):
    game = make_game([HUMAN, OPEN, OPEN, OPEN], started=False, visibility=visibility)
    seated = game.created_by
    pending, late, declined, stranger = (PlayerFactory() for _ in range(4))
    invite(game, 1, pending, InvitationStatus.PENDING, expires_in=dt.timedelta(days=1))
    invite(game, 2, late, InvitationStatus.PENDING, expires_in=-dt.timedelta(seconds=1))
    invite(game, 3, declined, InvitationStatus.DECLINED, expires_in=dt.timedelta(days=1))
    for viewer in (seated, pending, late, declined, stranger):
        in_sql = Game.objects.filter(pk=game.pk).filter(visible_to(viewer)).exists()
        read = game_with_seats(game.pk)
        assert read is not None
        with CaptureQueriesContext(connection) as queries:
            assert game_visible_to(read, viewer) == in_sql
        # Only a private game the viewer has no seat in asks for the invitations.
        asked = visibility == Visibility.PRIVATE and viewer != seated
        assert len(queries) == (1 if asked else 0)
    if visibility == Visibility.PRIVATE:  # both answers were asked of both kinds
        assert Game.objects.filter(pk=game.pk).filter(visible_to(pending)).exists()
        assert not Game.objects.filter(pk=game.pk).filter(visible_to(stranger)).exists()
