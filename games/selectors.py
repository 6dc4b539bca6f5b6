"""Every read of games: lists, a player's view of a deal, history, records, replays.

Nothing here returns another player's cards while a deal is in progress: a player's
view is built by the engine from one seat (`DealState.view`), and full information
(hands, seed) is served only for finished deals.
"""

from __future__ import annotations

import datetime as dt
import hmac
import random
import uuid
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from games.deal_cache import deal_current
from games.models import (
    Deal,
    DealOutcome,
    Game,
    GameStatus,
    Invitation,
    InvitationStatus,
    Move,
    Seat,
    SeatStatus,
    Visibility,
)
from players.models import Player
from pusoy.ai.hints import Hint, hint
from pusoy.engine import (
    Card,
    DealResult,
    DealState,
    MatchStanding,
    PlayerView,
    Rules,
    record_from_state,
)
from pusoy.engine import Move as EngineMove
from pusoy_api.domain_errors import DomainError, ErrorCode


def visible_to(player: Player) -> Q:
    """The games `player` may see: public ones, and private ones they have a seat in or
    an invitation they can still answer (to look before they do). Others are, to them,
    not there at all: a declined, expired or cancelled invitation shows nothing, and an
    accepted one counts only while its seat does."""
    seated = Exists(Seat.objects.filter(game=OuterRef("pk"), player=player))
    invited = Exists(
        Invitation.objects.filter(
            game=OuterRef("pk"),
            invitee=player,
            status=InvitationStatus.PENDING,
            expires_at__gt=timezone.now(),
        )
    )
    return Q(visibility=Visibility.PUBLIC) | Q(seated) | Q(invited)


def game_get(*, game_id: uuid.UUID, viewer: Player | None = None) -> Game:
    """The game with its seats; with a `viewer`, only if they may see it (else 404, as
    for a game that does not exist)."""
    game = game_with_seats(game_id)
    if game is None or (viewer is not None and not game_visible_to(game, viewer)):
        raise DomainError(ErrorCode.NOT_FOUND, "No such game.")
    return game


def game_visible_to(game: Game, viewer: Player) -> bool:
    """`visible_to` for a game read with its seats: a public game, or one the viewer sits
    in, is answered from those rows without a query (the two `EXISTS` of `visible_to`
    cost a read about 2 ms of ORM work); only a private game they have no seat in asks
    the database, for their invitations."""
    if game.visibility == Visibility.PUBLIC:
        return True
    if any(seat.player_id == viewer.pk for seat in game.seats.all()):
        return True
    return Game.objects.filter(pk=game.pk).filter(visible_to(viewer)).exists()


def game_with_seats(game_id: uuid.UUID) -> Game | None:
    """The game with its seats and their players, in position order: one query, the
    seats joined to their game, where a prefetch takes two. A game has a seat row per
    position from its creation; one without any (none in the service) is read alone.

    Not for a write that locks the game: a `SELECT ... FOR UPDATE` that waited for the
    lock re-reads the locked row only, not the rows joined to it, so the seats would be
    those from before the write it waited for (`game_row.game_locked` reads them after
    the lock; tests/api/test_concurrency.py's concurrent joins fail without that)."""
    rows = list(seats_in_order(game_id, "game"))
    game = rows[0].game if rows else Game.objects.filter(pk=game_id).first()
    if game is not None:
        seats_attach(game, rows)
    return game


def seats_in_order(game_id: uuid.UUID, *related: str) -> QuerySet[Seat]:
    """The game's seats with their players, in position order (`related`: more relations
    to join, as select_related takes them)."""
    seats = Seat.objects.select_related("player", *related).filter(game_id=game_id)
    return seats.order_by("position")


def seats_attach(game: Game, seats: list[Seat]) -> None:
    """Hold `seats` (the game's, in position order) as prefetch_related("seats") leaves
    them: game.seats.all() answers from these rows, and each seat's game is this one."""
    for seat in seats:
        seat.game = game
    prefetched: Any = game.seats.all()
    prefetched._result_cache = seats
    prefetched._prefetch_done = True
    cast(Any, game)._prefetched_objects_cache = {"seats": prefetched}


def game_get_with_code(*, game_id: uuid.UUID, viewer: Player, invite_code: str | None) -> Game:
    """`game_get` for `viewer`, or, for the holder of its invite code, a waiting game
    they cannot see yet (a private one): what they are invited to, before they join.
    A wrong code, or a game no longer waiting, is a 404 as for no game at all."""
    try:
        return game_get(game_id=game_id, viewer=viewer)
    except DomainError:
        if not invite_code:
            raise
    game = game_get(game_id=game_id)
    if game.status != GameStatus.WAITING or not invite_code_matches(invite_code, game.invite_code):
        raise DomainError(ErrorCode.NOT_FOUND, "No such game.")
    return game


def invite_code_matches(given: str | None, code: str) -> bool:
    """Whether `given` is the game's invite `code` (a private game's), in constant time.
    Compared as UTF-8 bytes: `compare_digest` refuses str with non-ASCII characters (a
    TypeError), and a code as sent may hold any character."""
    if given is None or not code:
        return False
    return hmac.compare_digest(
        given.encode("utf-8", "surrogatepass"), code.encode("utf-8", "surrogatepass")
    )


def game_visible(*, game_id: uuid.UUID, viewer: Player) -> bool:
    """Whether `viewer` may see the game (False for one that does not exist)."""
    return Game.objects.filter(pk=game_id).filter(visible_to(viewer)).exists()


def games_for_player(
    *, player: Player, status: str | None = None, mine: bool = False, my_turn: bool = False
) -> QuerySet[Game]:
    """The lobby: the games `player` may see (public, or theirs); `mine` those they sit
    in; `my_turn` the active ones where they are the seat to play."""
    games = Game.objects.filter(visible_to(player))
    if status:
        games = games.filter(status=status)
    if mine or my_turn:
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), player=player)))
    if my_turn:
        mine_to_play = Seat.objects.filter(
            game=OuterRef("game"), player=player, status=SeatStatus.PLAYING
        ).values("position")
        to_play = Deal.objects.filter(
            game=OuterRef("pk"),
            number=OuterRef("current_deal_number"),
            finished_at__isnull=True,
            turn=mine_to_play[:1],
        )
        games = games.filter(status=GameStatus.ACTIVE).filter(Exists(to_play))
    return games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    ).order_by("-updated_at", "pk")


def invitations_for_player(*, player: Player, status: str | None = None) -> QuerySet[Invitation]:
    """The invitations `player` received, newest first; `status` as a client sees it (a
    pending invitation past its time is `expired`)."""
    invitations = Invitation.objects.filter(invitee=player)
    now = timezone.now()
    if status == InvitationStatus.PENDING:
        invitations = invitations.filter(status=status, expires_at__gt=now)
    elif status == InvitationStatus.EXPIRED:
        invitations = invitations.filter(
            Q(status=status) | Q(status=InvitationStatus.PENDING, expires_at__lte=now)
        )
    elif status:
        invitations = invitations.filter(status=status)
    return invitations.select_related("invitee", "invited_by").order_by("-created_at", "pk")


def seat_of(game: Game, player: Player) -> int | None:
    for seat in game.seats.all():
        if seat.player_id == player.pk:
            return seat.position
    return None


def participant_seat(game: Game, player: Player) -> Seat:
    """`player`'s seat in `game` (its seats as read with it); NOT_A_PARTICIPANT if none."""
    seat = next((s for s in game.seats.all() if s.player_id == player.pk), None)
    if seat is None:
        raise DomainError(ErrorCode.NOT_A_PARTICIPANT, "You have no seat in this game.")
    return seat


def current_deal(game: Game) -> Deal | None:
    if game.current_deal_number == 0:
        return None
    return Deal.objects.filter(game=game, number=game.current_deal_number).first()


def deal_get(*, game: Game, number: int) -> Deal:
    deal = Deal.objects.filter(game=game, number=number).first()
    if deal is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"No deal {number} in this game.")
    return deal


def deal_finished_get(*, game: Game, number: int) -> Deal:
    deal = deal_get(game=game, number=number)
    if not deal.is_finished:
        raise DomainError(
            ErrorCode.DEAL_IN_PROGRESS,
            "Hands and seed are revealed only when the deal is over.",
        )
    return deal


def deals_won(game: Game, *, before: int | None = None) -> dict[int, int]:
    """Deals won per seat position (those before deal number ``before`` when given)."""
    deals = game.deals.all() if before is None else game.deals.filter(number__lt=before)
    won: dict[int, int] = {}
    for winner in deals.values_list("winner", flat=True):
        if winner is not None:
            won[winner] = won.get(winner, 0) + 1
    return won


def match_standing(game: Game, deal: Deal) -> MatchStanding | None:
    """Where the match stands as ``deal`` is played (public: the seats' scores and deals
    won before it); None for a game of one deal, where the deal is the whole objective."""
    if game.target_deals == 1:
        return None
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    won = deals_won(game, before=deal.number)
    return MatchStanding(
        scores=tuple(s.score for s in seats),
        deals_won=tuple(won.get(s.position, 0) for s in seats),
        deals_left=None if game.target_deals is None else game.target_deals - deal.number + 1,
        target_score=game.target_score,
    )


def _deal_state(deal: Deal) -> DealState:
    return DealState.from_dict(deal.snapshot)


@dataclass(frozen=True)
class TrickTop:
    """The play to beat and the seat that made it."""

    cards: tuple[Card, ...]
    combination: str
    seat: int


@dataclass(frozen=True)
class FaceUpCard:
    card: str
    seat: int


@dataclass(frozen=True)
class TableView:
    """The public state of a deal's table: what every seat may see."""

    seq: int
    card_counts: tuple[int, ...]
    turn: int | None
    to_beat: TrickTop | None
    trick_leader: int
    passed: list[int]
    required_card: Card | None
    finished_order: tuple[int, ...]
    is_over: bool
    result: DealOutcome | DealResult | None


def _table(source: DealState | PlayerView) -> dict[str, Any]:
    """The TableView fields of an engine state or a seat's view of it."""
    play = source.to_beat
    return {
        "seq": source.seq,
        "card_counts": source.card_counts,
        "turn": source.turn,
        "to_beat": None
        if play is None or source.last_player is None
        else TrickTop(cards=tuple(play.cards), combination=play.kind, seat=source.last_player),
        "trick_leader": source.trick_leader,
        "passed": sorted(source.passed),
        "required_card": source.required_card,
        "finished_order": source.finished_order,
        "is_over": source.is_over,
        "result": source.result,
    }


@dataclass(frozen=True)
class PublicDealView(TableView):
    """A deal as anyone at or around the table sees it: no hand at all."""

    number: int
    commitment: str
    face_up_card: FaceUpCard | None
    deadline: dt.datetime | None


@dataclass(frozen=True)
class DealView(PublicDealView):
    """One seat's view of a deal: the table, its own hand, and what it may do."""

    hand: tuple[Card, ...]
    legal_moves: list[EngineMove]


@dataclass(frozen=True)
class PlayerState:
    game: Game
    seat: int
    scores: list[int]
    deal: DealView | None
    view: str = "player"


@dataclass(frozen=True)
class SpectatorState:
    game: Game
    scores: list[int]
    deal: PublicDealView | None
    view: str = "spectator"


def game_state_for_viewer(*, game: Game, viewer: Player) -> PlayerState | SpectatorState:
    """A seated player's own view; anyone else who may see the game (a public one)
    watches: the table without any hand."""
    if seat_of(game, viewer) is not None:
        return game_state_for_player(game=game, player=viewer)
    current = deal_current(game)
    scores = [s.score for s in game.seats.all()]
    if current is None:
        return SpectatorState(game=game, scores=scores, deal=None)
    deal, state = current
    return SpectatorState(
        game=game, scores=scores, deal=PublicDealView(**_public_deal(game, deal, state))
    )


def turn_deadline(game: Game, deal: Deal) -> dt.datetime | None:
    """When the seat to play runs out of time (games with a turn timeout, a turn to play)."""
    if not game.turn_timeout or deal.turn is None or not deal.turn_started_at:
        return None
    return deal.turn_started_at + game.turn_timeout


def _public_deal(game: Game, deal: Deal, source: DealState | PlayerView) -> dict[str, Any]:
    """The PublicDealView fields of the current deal, from its state or a seat's view."""
    deadline = turn_deadline(game, deal)
    return {
        **_table(source),
        "result": deal.outcome,
        "is_over": deal.is_finished,
        "number": deal.number,
        "commitment": deal.commitment,
        "face_up_card": _face_up(source),
        "deadline": deadline,
    }


def game_state_for_player(
    *, game: Game, player: Player, deal: Deal | None = None, state: DealState | None = None
) -> PlayerState:
    """The requesting player's view: own hand, counts, the play to beat, whose turn,
    passes, scores, last seq, legal moves on their turn. Never another player's cards.

    `deal` and `state` may be passed when the caller already holds the current deal and
    its engine state (right after a move), to save reading and rebuilding them."""
    seat = participant_seat(game, player)
    if deal is None or state is None or deal.number != game.current_deal_number:
        deal, state = deal_current(game) or (None, None)
    scores = [s.score for s in game.seats.all()]
    if deal is None or state is None:
        return PlayerState(game=game, seat=seat.position, scores=scores, deal=None)
    view = state.view(seat.position)
    # A resigned seat is the AI's to play now: its former player only watches it.
    may_play = view.is_my_turn and not deal.is_finished and seat.status == SeatStatus.PLAYING
    deal_view = DealView(
        **_public_deal(game, deal, view),
        hand=view.hand,
        legal_moves=view.legal_moves() if may_play else [],
    )
    return PlayerState(game=game, seat=seat.position, scores=scores, deal=deal_view)


def _face_up(source: DealState | PlayerView) -> FaceUpCard | None:
    """The 52nd card of a 3-player deal was dealt face up: its card and holder are public."""
    if source.face_up_card is None or source.face_up_seat is None:
        return None
    return FaceUpCard(card=str(source.face_up_card), seat=source.face_up_seat)


@dataclass(frozen=True)
class History:
    deal: int | None
    last_seq: int
    finished: bool
    moves: list[Move]


def deal_moves(*, game: Game, number: int | None = None, since: int = 0) -> History:
    """The public history of a deal (the current one by default), after `since`.

    One consistent snapshot: the moves listed are exactly those up to the deal's `seq` as
    read, so `last_seq` is never behind a listed move (a move committed between the two
    reads is left for the next call, which asks `since=last_seq`)."""
    deal = current_deal(game) if number is None else deal_get(game=game, number=number)
    if deal is None:
        return History(deal=None, last_seq=0, finished=False, moves=[])
    moves = list(Move.objects.filter(deal=deal, seq__gt=since, seq__lte=deal.seq).order_by("seq"))
    for move in moves:
        move.deal = deal  # serializers read move.deal.number: no query per move
    # An abandoned game's deal never finishes, yet nothing more will be added to it.
    ended = game.status in (GameStatus.FINISHED, GameStatus.ABANDONED)
    return History(
        deal=deal.number, last_seq=deal.seq, finished=deal.is_finished or ended, moves=moves
    )


def latest_seq(*, game_id: uuid.UUID) -> tuple[int, int]:
    """(current deal number, its last seq): what a long-polling client waits to change."""
    row = (
        Deal.objects.filter(game_id=game_id)
        .order_by("-number")
        .values_list("number", "seq")
        .first()
    )
    return row if row is not None else (0, 0)


def deal_record(*, game: Game, number: int) -> dict[str, Any]:
    """The `pusoy-dos-record/1` record of a finished deal, seed revealed."""
    deal = deal_finished_get(game=game, number=number)
    names = [s.player.username if s.player else f"AI ({s.ai_level})" for s in game.seats.all()]
    return record_from_state(
        _deal_state(deal), players=names, seed=bytes.fromhex(deal.seed), include_result=True
    ).to_dict()


@dataclass(frozen=True)
class ReplayMove:
    seq: int
    seat: int
    action: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ReplayState(TableView):
    hands: list[tuple[Card, ...]]


@dataclass(frozen=True)
class Replay:
    deal: int
    at: int
    last_seq: int
    seed: str
    commitment: str
    rules: dict[str, Any]
    hands: list[list[str]]
    set_aside: list[str]
    leader: int | None
    moves: list[ReplayMove]
    state: ReplayState


def deal_replay(*, game: Game, number: int, at: int | None) -> Replay:
    """The full state of a finished deal after move `at` (default: the end)."""
    deal = deal_finished_get(game=game, number=number)
    full = _deal_state(deal)
    if at is None:
        at = full.seq
    if not 0 <= at <= full.seq:
        raise DomainError(
            ErrorCode.INVALID_SEQ,
            f"at must be between 0 and {full.seq}.",
            details={"last_seq": full.seq},
        )
    replay = DealState.new(
        Rules.from_dict(game.rules), deal.hands, leader=deal.leader, set_aside=deal.set_aside
    )
    moves = []
    for seq, (seat, move) in enumerate(full.history[:at], start=1):
        replay.apply(move, seat)
        moves.append(ReplayMove(seq=seq, seat=seat, action=move.action, cards=tuple(move.cards)))
    return Replay(
        deal=deal.number,
        at=at,
        last_seq=full.seq,
        seed=deal.seed,
        commitment=deal.commitment,
        rules=game.rules,
        hands=deal.hands,
        set_aside=deal.set_aside,
        leader=deal.leader,
        moves=moves,
        state=ReplayState(**_table(replay), hands=list(replay.hands)),
    )


def hint_for_player(*, game: Game, player: Player) -> Hint:
    """A suggested move for the caller, on their turn, in a game created with hints.

    Seeded by the position, so asking again before anyone moves gives the same hint."""
    seat = participant_seat(game, player)
    if not game.hints:
        raise DomainError(ErrorCode.HINTS_OFF, "This game was created without hints.")
    if game.status != GameStatus.ACTIVE:
        raise DomainError(ErrorCode.GAME_NOT_ACTIVE, f"The game is {game.status}.")
    if seat.status == SeatStatus.RESIGNED:
        raise DomainError(ErrorCode.SEAT_RESIGNED, "You resigned: an AI plays your seat.")
    deal = current_deal(game)
    state = _deal_state(deal) if deal is not None else None
    if deal is None or state is None or state.is_over or state.turn != seat.position:
        raise DomainError(ErrorCode.NOT_YOUR_TURN, "Hints are given on your turn.")
    view = state.view(seat.position).with_match(match_standing(game, deal))
    return hint(view, random.Random(f"{game.pk}:{deal.number}:{deal.seq}"))
