"""The game row every write on a game goes through: read and locked first, saved last."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.db.models import Model

from games.models import Game
from games.selectors import game_visible_to, seats_attach, seats_in_order
from games.services.side_effects import notify_waiters
from players.models import Player
from pusoy_api.combined_writes import rows_write
from pusoy_api.domain_errors import DomainError, ErrorCode


def game_locked(game_id: uuid.UUID, *, viewer: Player | None = None) -> Game:
    """The game row, locked until the transaction ends, with its seats read once. With a
    `viewer` (a player's request), a game they may not see is not found, exactly as one
    that does not exist: a stranger's write learns nothing of a private game.

    The seats are read after the lock, not joined to it: a `SELECT ... FOR UPDATE` that
    waited re-reads only the locked row (games.selectors.game_with_seats). Whether the
    viewer may see the game is asked of those rows (`game_visible_to`), so a stranger's
    request locks the game for the moment it takes to be refused."""
    game = Game.objects.select_for_update(of=("self",)).filter(pk=game_id).first()
    if game is not None:
        seats_attach(game, list(seats_in_order(game.pk)))
    if game is None or (viewer is not None and not game_visible_to(game, viewer)):
        raise DomainError(ErrorCode.NOT_FOUND, "No such game.")
    return game


def game_touch(
    game: Game,
    *fields: str,
    along: tuple[Model, Sequence[tuple[Model, Sequence[str]]]] | None = None,
) -> None:
    """Save a changed game: its version goes up (we hold its row lock) and waiters wake.
    With `along` = (a row to insert, [(a row, its fields to update), ...]), those rows and
    the game are written by one statement (pusoy_api.combined_writes)."""
    game.version += 1
    names = ["version", "updated_at", *fields]
    if along is None:
        game.save(update_fields=names)
    else:
        insert, updates = along
        rows_write(insert, [*updates, (game, names)])
    notify_waiters(game)
