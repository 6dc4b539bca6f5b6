"""The ways out of a game: leaving a waiting game, its creator cancelling it, resigning an
active one; and a game abandoned when none of its humans is still playing.

A resigned seat is played by an AI (RESIGNED_SEAT_AI_LEVEL) to the end of the match, so
the others can finish; the resigner is ranked last and the game counts as a loss in
their stats at once. A game is abandoned (nothing more is played or scored) when its last
human resigns, or when every human has resigned or let the server play for them
ABANDON_AFTER_TIMEOUTS turns in a row.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Deal, Game, GameStatus, InvitationStatus, Seat, SeatStatus
from games.selectors import participant_seat
from games.services import feed
from games.services.deals import seat_entrant
from games.services.game_row import game_locked, game_touch
from games.services.invitations import invitation_decline, invitations_cancel
from games.services.side_effects import queue_ai_turn_on_commit
from players.models import Player
from pusoy_api.domain_errors import DomainError, ErrorCode
from ratings.services import Entrant, ratings_apply_resignation


@transaction.atomic
def game_leave(*, game_id: uuid.UUID, player: Player) -> Game:
    """Leave a waiting game: the seat is open again. The creator leaving cancels it."""
    game = game_locked(game_id, viewer=player)
    seat = participant_seat(game, player)
    if game.status != GameStatus.WAITING:
        raise DomainError(ErrorCode.GAME_NOT_WAITING, f"The game is {game.status}: resign instead.")
    if game.created_by_id == player.pk:
        game_abandon(game)
        return game
    seat.player = None
    seat.joined_at = None
    seat.status = SeatStatus.LEFT
    seat.save(update_fields=["player", "joined_at", "status"])
    game_touch(game)
    return game


@transaction.atomic
def game_cancel(*, game_id: uuid.UUID, player: Player) -> Game:
    """The creator calls off a waiting game: abandoned, nothing scored."""
    game = game_locked(game_id, viewer=player)
    if game.created_by_id != player.pk:
        participant_seat(game, player)  # an outsider is told only that they have no seat
        raise DomainError(ErrorCode.NOT_THE_CREATOR, "Only the game's creator cancels it.")
    if game.status != GameStatus.WAITING:
        raise DomainError(ErrorCode.GAME_NOT_WAITING, f"The game is {game.status}.")
    game_abandon(game)
    return game


@transaction.atomic
def game_resign(*, game_id: uuid.UUID, player: Player) -> Game:
    """Resign an active game: an AI plays the seat to the end of the match."""
    game = game_locked(game_id, viewer=player)
    seat = participant_seat(game, player)
    if game.status != GameStatus.ACTIVE:
        raise DomainError(ErrorCode.GAME_NOT_ACTIVE, f"The game is {game.status}.")
    if seat.status == SeatStatus.RESIGNED:
        raise DomainError(ErrorCode.SEAT_RESIGNED, "You have resigned this game already.")
    if game.rated:
        # Rated as last in the deal they walk away from, against who is still in it.
        others = [e for s in game.seats.all() if s.pk != seat.pk and (e := seat_entrant(s))]
        ratings_apply_resignation(
            game_id=game.pk,
            deal_number=game.current_deal_number,
            resigner=Entrant(player_id=player.pk),
            others=others,
        )
    seat.status = SeatStatus.RESIGNED
    seat.resigned_at = timezone.now()
    seat.save(update_fields=["status", "resigned_at"])
    feed.seat_resigned(game, seat)
    # A loss, counted now: the match may go on for a long time without them.
    Player.objects.filter(pk=player.pk).update(games_played=F("games_played") + 1)
    if not humans_still_playing(game):
        game_abandon(game)
        return game
    deal = Deal.objects.get(game=game, number=game.current_deal_number)
    if deal.turn == seat.position:
        queue_ai_turn_on_commit(game, deal)  # their turn now: the AI takes it
    game_touch(game)
    return game


@transaction.atomic
def player_games_exit(*, player: Player) -> None:
    """An account is being deleted: it resigns every game in progress (exactly as
    `game_resign`: the game goes on with an AI in the seat, or is abandoned if it was the
    last human), leaves every waiting game (a creator's is cancelled) and declines the
    invitations it has not answered. Finished games are untouched."""
    seats = Seat.objects.filter(player=player).select_related("game")
    for seat in seats.filter(game__status=GameStatus.ACTIVE, status=SeatStatus.PLAYING):
        game_resign(game_id=seat.game_id, player=player)
    for seat in seats.filter(game__status=GameStatus.WAITING):
        game_leave(game_id=seat.game_id, player=player)
    pending = player.invitations.filter(status=InvitationStatus.PENDING)
    for invitation_id in pending.values_list("pk", flat=True):
        try:
            invitation_decline(invitation_id=invitation_id, player=player)
        except DomainError:  # expired meanwhile: nothing to answer
            continue


def humans_still_playing(game: Game) -> bool:
    """Whether some human seat is neither resigned nor left to the clock for
    ABANDON_AFTER_TIMEOUTS turns in a row (the seats as read with the locked game)."""
    return any(
        s.player_id is not None
        and s.status == SeatStatus.PLAYING
        and s.timeouts_in_a_row < settings.ABANDON_AFTER_TIMEOUTS
        for s in game.seats.all()
    )


def game_abandon(game: Game) -> None:
    """The game ends here, unfinished: no winner, nothing more scored; invitations to it
    are cancelled. (Resigners' losses were counted when they resigned.)"""
    game.status = GameStatus.ABANDONED
    game.finished_at = timezone.now()
    invitations_cancel(game)
    feed.game_abandoned(game)
    game_touch(game, "status", "finished_at")
