"""factory-boy factories for test data: players, and games with their seats and deals
built as the services leave them, without going through HTTP or the services.

A dealt deal is built through the engine (`DealState`), as `deal_start` builds it, so its
hands, snapshot, turn and chain head agree. Factories queue no AI turn: a game whose
turn is an AI's waits until a test plays that turn (`services.ai_turn_play`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from typing import Any

import factory
from django.utils import timezone

from games import deal_cache
from games.chain import chain_genesis
from games.models import Deal, Game, GameStatus, Seat
from players.models import Player
from pusoy.ai import LEVELS
from pusoy.engine import DealState, Rules, format_cards
from pusoy.engine.shuffle import commitment, face_up_card

TEST_PASSWORD = "correct-horse-battery-staple"

# What `game_with_seats` takes for each seat.
HUMAN = "human"  # a new player, already joined
OPEN = "open"  # a human seat nobody has taken yet


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password(TEST_PASSWORD)


class GameFactory(factory.django.DjangoModelFactory):
    """The game row alone, waiting for players: add seats (SeatFactory) and, to start
    it, a deal (DealFactory); or use `game_with_seats`, which does both."""

    class Meta:
        model = Game

    class Params:
        preset = "philippine"

    created_by = factory.SubFactory(PlayerFactory)
    # Resolved, as game_create stores them.
    rules = factory.LazyAttribute(lambda o: Rules.from_spec(o.preset).to_dict())
    num_seats = 4
    target_deals = 1
    target_score = None
    turn_timeout = None


class SeatFactory(factory.django.DjangoModelFactory):
    """A joined human seat; `player=None` for an open one, `ai_level=...` for an AI."""

    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory)
    position = factory.Sequence(lambda n: n % 4)
    player = factory.SubFactory(PlayerFactory)
    ai_level = ""
    joined_at = factory.LazyAttribute(lambda o: timezone.now() if o.player else None)


def repeatable_seed(n: int) -> bytes:
    """A 32-byte shuffle seed that is the same in every run: deals are repeatable."""
    return hashlib.sha256(f"pusoy test deal {n}".encode()).digest()


def _dealt_state(o: Any) -> DealState:
    rules = Rules.from_dict(o.game.rules)
    if o.dealt_hands is not None:
        return DealState.new(rules, o.dealt_hands, leader=o.leader)
    return DealState.from_seed(rules, o.seed_bytes, o.game.num_seats, leader=o.leader)


def _face_up(o: Any) -> str:
    if o.dealt_hands is not None:
        return ""
    card = face_up_card(o.seed_bytes, Rules.from_dict(o.game.rules), o.game.num_seats)
    return str(card or "")


class DealFactory(factory.django.DjangoModelFactory):
    """A deal just dealt (no move yet), as `deal_start` writes it: dealt by the fair
    shuffle from `seed_bytes` (a fixed seed per deal), or given `dealt_hands` (a
    position a test needs; the seed then does not reproduce them, which an audit
    reports). It does not make itself the game's current deal: `deal_dealt` does."""

    class Meta:
        model = Deal

    class Params:
        seed_bytes = factory.Sequence(repeatable_seed)
        dealt_hands: Sequence[str] | None = None
        state = factory.LazyAttribute(_dealt_state)

    game = factory.SubFactory(GameFactory)
    number = 1
    leader = None
    seed = factory.LazyAttribute(lambda o: o.seed_bytes.hex())
    commitment = factory.LazyAttribute(lambda o: commitment(o.seed_bytes))
    chain_head = factory.LazyAttribute(lambda o: chain_genesis(o.commitment))
    hands = factory.LazyAttribute(lambda o: [format_cards(h) for h in o.state.initial_hands])
    set_aside = factory.LazyAttribute(lambda o: format_cards(o.state.set_aside))
    face_up_card = factory.LazyAttribute(_face_up)
    turn = factory.LazyAttribute(lambda o: o.state.turn)
    turn_started_at = factory.LazyFunction(timezone.now)
    snapshot = factory.LazyAttribute(lambda o: o.state.to_dict())


def deal_dealt(game: Game, **deal_fields: Any) -> Deal:
    """The game's next deal, dealt and current; the game becomes active (its first deal
    led by the opening card's holder, as `game_start` leaves it). `deal_fields` go to
    DealFactory (`seed_bytes`, `dealt_hands`, `leader`, ...)."""
    number = game.current_deal_number + 1
    deal = DealFactory(game=game, number=number, **deal_fields)
    game.current_deal_number = number
    game.status = GameStatus.ACTIVE
    game.started_at = game.started_at or timezone.now()
    game.save(update_fields=["current_deal_number", "status", "started_at"])
    return deal


def deal_rigged(deal: Deal, hands: Sequence[str]) -> Deal:
    """Replace a deal's hands, before its first move, with `hands` (a position a test
    needs), keeping its leader; its seed then no longer reproduces them."""
    state = DealState.new(Rules.from_dict(deal.game.rules), hands, leader=deal.leader)
    deal.hands = [format_cards(hand) for hand in state.initial_hands]
    deal.set_aside = format_cards(state.set_aside)
    deal.face_up_card = ""
    deal.snapshot = state.to_dict()
    deal.turn = state.turn
    deal.save(update_fields=["hands", "set_aside", "face_up_card", "snapshot", "turn"])
    # Changed behind the services' back (no new game version): no cached copy may stay.
    deal_cache.forget()
    return deal


def game_with_seats(
    seats: Sequence[str | Player] = (HUMAN,) * 4,
    *,
    started: bool = True,
    rules: Any = None,
    turn_timeout: dt.timedelta | None = None,
    **deal_and_game_fields: Any,
) -> Game:
    """A game whose seats are, in order: HUMAN (a new player, joined), OPEN (a human
    seat not taken yet), a Player (that player, joined) or an AI level ("random", ...).
    The first human seat's player created it. `started`: active, with its first deal
    dealt (`seed_bytes=` or `dealt_hands=` choose it); a game with an open seat cannot
    be. Other keywords (`target_deals`, `target_score`) go to the game."""
    deal_fields = {
        key: deal_and_game_fields.pop(key)
        for key in ("seed_bytes", "dealt_hands")
        if key in deal_and_game_fields
    }
    seated = [
        PlayerFactory() if seat == HUMAN else seat
        for seat in seats
        if seat == HUMAN or isinstance(seat, Player)
    ]
    creator = seated[0] if seated else PlayerFactory()
    game = GameFactory(
        created_by=creator,
        rules=Rules.from_spec(rules).to_dict(),
        num_seats=len(seats),
        turn_timeout=turn_timeout,
        **deal_and_game_fields,
    )
    players = iter(seated)
    for position, seat in enumerate(seats):
        if seat == OPEN:
            SeatFactory(game=game, position=position, player=None)
        elif seat == HUMAN or isinstance(seat, Player):
            SeatFactory(game=game, position=position, player=next(players))
        else:
            assert seat in LEVELS, f"not a seat: {seat!r}"
            SeatFactory(game=game, position=position, player=None, ai_level=seat)
    if started:
        assert OPEN not in seats, "a game with an open seat has not started"
        deal_dealt(game, **deal_fields)
    return game
