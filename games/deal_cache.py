"""A game's current deal and its engine state, as of a version of the game, kept in the
process's memory: `GET state` and a move take them from here instead of reading the deal
and rebuilding its state from the snapshot, when this process already read or wrote the
game at that version.

Why a version is enough: every write to a game's deals goes through the game's row lock
and `game_row.game_touch`, which raises the game's `version` in the same transaction (the
`version` the state answers with says so to clients). So the committed current deal is a
function of (game, version): a move, holding the lock, reads the latest version and finds
exactly the deal that version committed. A read without the lock takes the game, then
the deal, in two statements: the deal it stores may be a newer one than its version, which
is what that read answers today too, and no locked read asks for that older version again.

Entries are stored only after the transaction that wrote them commits (a rolled-back
move's version is reused by the next write) and are never changed: callers get a copy of
the deal row (its JSON values are only ever replaced, not changed in place) and of the
engine state. One entry per game (its latest version seen), bounded (least recently used
out); per process, so nothing to invalidate across workers.
"""

from __future__ import annotations

import copy
import threading
import uuid
from collections import OrderedDict
from functools import partial

from django.db import transaction

from games.models import Deal, Game
from pusoy.engine import DealState

SIZE = 1024  # games, one entry each (its latest version seen): ~23 kB each, ~23 MB full

Key = tuple[uuid.UUID, int, int]
_entries: OrderedDict[uuid.UUID, tuple[Key, Deal, DealState]] = OrderedDict()
_lock = threading.Lock()
# How often deal_current answered from memory, and how often it read the deal instead, in
# this process (tests/games/test_deal_cache.py checks that moves played do hit).
counts = {"hits": 0, "misses": 0}


def _key(game: Game) -> Key:
    return (game.pk, game.version, game.current_deal_number)


def deal_current(game: Game) -> tuple[Deal, DealState] | None:
    """The game's current deal and its state as of `game.version` (read from the
    database on a miss); None before the first deal."""
    if game.current_deal_number == 0:
        return None
    key = _key(game)
    with _lock:
        found = _entries.get(game.pk)
        if found is not None and found[0] == key:
            _entries.move_to_end(game.pk)
            counts["hits"] += 1
            return _copied(found[1], found[2])
        counts["misses"] += 1
    deal = Deal.objects.filter(game=game, number=game.current_deal_number).first()
    if deal is None:
        return None
    state = DealState.from_dict(deal.snapshot)
    # Stored once committed data is all it holds (at once outside a transaction).
    transaction.on_commit(partial(_keep, key, *_copied(deal, state)))
    return deal, state


def deal_keep_on_commit(game: Game, deal: Deal, state: DealState) -> None:
    """Remember `deal` (the game's current one after this transaction's writes) and its
    state under the game's version as it is now, once the transaction commits."""
    if deal.number == game.current_deal_number:
        transaction.on_commit(partial(_keep, _key(game), *_copied(deal, state)))


def forget() -> None:
    """Drop every entry (tests that change a deal behind the services' back)."""
    with _lock:
        _entries.clear()


def _keep(key: Key, deal: Deal, state: DealState) -> None:
    """Keep the entry unless one of a later version of the game is there already (a
    slow read's, committed after a move's): only the latest version is asked for again."""
    game_id, version, _ = key
    with _lock:
        there = _entries.get(game_id)
        if there is None or there[0][1] <= version:
            _entries[game_id] = (key, deal, state)
        _entries.move_to_end(game_id)
        while len(_entries) > SIZE:
            _entries.popitem(last=False)


def _copied(deal: Deal, state: DealState) -> tuple[Deal, DealState]:
    """A copy of each to hand out or to store: the row without the related objects it
    had cached (its game holds a request's seats), the state to apply moves to."""
    row = copy.copy(deal)
    row._state.fields_cache = {}
    return row, state.copy()
