"""Invitations: a seat of a waiting game reserved for a named player, who accepts (and
takes the seat) or declines (and frees it). Only the creator invites; an invitation
expires after INVITATION_TTL_DAYS; an answered, expired or cancelled one refuses another
answer. Nobody else can take a reserved seat.

Each write locks the game's row first, so an answer and a join for one game are applied
one at a time.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Game, GameStatus, Invitation, InvitationStatus
from games.services import feed
from games.services.game_row import game_locked, game_touch
from games.services.seating import seat_take
from players.models import Player
from players.usernames import username_canonical
from pusoy_api.domain_errors import DomainError, ErrorCode


def invitation_ttl() -> dt.timedelta:
    return dt.timedelta(days=settings.INVITATION_TTL_DAYS)


def players_named(usernames: Sequence[str], *, inviter: Player) -> list[Player]:
    """The players to invite, by any spelling of their names, in the order given."""
    canonical = [username_canonical(name) for name in usernames]
    if len(set(canonical)) != len(canonical):
        raise DomainError(ErrorCode.INVALID_INVITEE, "A player is named twice.")
    found = {
        p.username_canonical: p for p in Player.objects.filter(username_canonical__in=canonical)
    }
    players = []
    for name, key in zip(usernames, canonical, strict=True):
        player = found.get(key)
        if player is None or not player.is_active:
            raise DomainError(
                ErrorCode.UNKNOWN_PLAYER,
                f"No player is named {name!r}.",
                details={"username": name},
            )
        if player.pk == inviter.pk:
            raise DomainError(ErrorCode.INVALID_INVITEE, "You cannot invite yourself.")
        players.append(player)
    return players


def live_invitations(game: Game) -> list[Invitation]:
    """The invitations of `game` that still hold their seats (pending, not expired)."""
    return list(
        game.invitations.filter(status=InvitationStatus.PENDING, expires_at__gt=timezone.now())
    )


def invitations_reserve(
    game: Game, *, inviter: Player, invitees: Sequence[Player], seats: Sequence[int]
) -> list[Invitation]:
    """Reserve `seats` (in order) for `invitees`: one pending invitation each."""
    expires_at = timezone.now() + invitation_ttl()
    invitations = Invitation.objects.bulk_create(
        Invitation(game=game, seat=seat, invitee=invitee, invited_by=inviter, expires_at=expires_at)
        for invitee, seat in zip(invitees, seats, strict=False)
    )
    # In a fixed order (by player), so two writers take the feeds' locks alike.
    for invitation in sorted(invitations, key=lambda i: str(i.invitee_id)):
        feed.invited(game, invitation)
    return invitations


@transaction.atomic
def invitation_create(
    *, game_id: uuid.UUID, inviter: Player, username: str, seat: int | None = None
) -> Invitation:
    """The creator reserves a seat of their waiting game (the first free one, or `seat`)
    for the player named `username`."""
    game = game_locked(game_id, viewer=inviter)
    seats = list(game.seats.all())
    if game.created_by_id != inviter.pk:
        raise DomainError(ErrorCode.NOT_THE_CREATOR, "Only the game's creator invites.")
    if game.status != GameStatus.WAITING:
        raise DomainError(ErrorCode.GAME_NOT_WAITING, f"The game is {game.status}.")
    (invitee,) = players_named([username], inviter=inviter)
    if any(s.player_id == invitee.pk for s in seats):
        raise DomainError(ErrorCode.ALREADY_JOINED, f"{invitee.username} has a seat already.")
    invitations = live_invitations(game)
    if any(i.invitee_id == invitee.pk for i in invitations):
        raise DomainError(ErrorCode.ALREADY_INVITED, f"{invitee.username} is invited already.")
    _expire(game)
    reserved = {i.seat for i in invitations}
    free = [s.position for s in seats if not s.ai_level and s.player_id is None]
    if seat is None:
        open_seats = [position for position in free if position not in reserved]
        if not open_seats:
            raise DomainError(ErrorCode.GAME_FULL, "No open seat to reserve.")
        seat = open_seats[0]
    elif not 0 <= seat < len(seats):
        raise DomainError(
            ErrorCode.INVALID_SEAT, f"Seats are 0 to {len(seats) - 1}.", details={"seat": seat}
        )
    elif seat not in free or seat in reserved:
        raise DomainError(ErrorCode.SEAT_TAKEN, f"Seat {seat} is taken or reserved.")
    (invitation,) = invitations_reserve(game, inviter=inviter, invitees=[invitee], seats=[seat])
    game_touch(game)
    return invitation


def _expire(game: Game) -> None:
    """Pending invitations of `game` past their time become expired (their seats free)."""
    game.invitations.filter(status=InvitationStatus.PENDING, expires_at__lte=timezone.now()).update(
        status=InvitationStatus.EXPIRED
    )


def _open_invitation(invitation_id: uuid.UUID, player: Player) -> tuple[Game, Invitation]:
    """The invitation (to `player`) and its game, the game's row locked; refused unless
    it can still be answered."""
    game_id = (
        Invitation.objects.filter(pk=invitation_id, invitee=player)
        .values_list("game_id", flat=True)
        .first()
    )
    if game_id is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such invitation.")
    game = game_locked(game_id)
    invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    if invitation.status == InvitationStatus.PENDING and invitation.expires_at <= timezone.now():
        invitation.status = InvitationStatus.EXPIRED
        invitation.save(update_fields=["status"])
    if invitation.status != InvitationStatus.PENDING:
        raise DomainError(
            ErrorCode.INVITATION_CLOSED,
            f"This invitation is {invitation.status}.",
            details={"status": invitation.status},
        )
    return game, invitation


def invitation_accepted(game: Game, invitation: Invitation) -> None:
    """The invitee takes the reserved seat (the game's row is locked by the caller)."""
    invitation.status = InvitationStatus.ACCEPTED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    feed.invitation_answered(game, invitation)
    seat = next(s for s in game.seats.all() if s.position == invitation.seat)
    seat_take(game, seat, invitation.invitee)


@transaction.atomic
def invitation_accept(*, invitation_id: uuid.UUID, player: Player) -> Invitation:
    game, invitation = _open_invitation(invitation_id, player)
    invitation_accepted(game, invitation)
    return invitation


@transaction.atomic
def invitation_decline(*, invitation_id: uuid.UUID, player: Player) -> Invitation:
    game, invitation = _open_invitation(invitation_id, player)
    invitation.status = InvitationStatus.DECLINED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    feed.invitation_answered(game, invitation)
    game_touch(game)
    return invitation


def invitations_cancel(game: Game) -> int:
    """The game's open invitations are cancelled (it was cancelled, or abandoned)."""
    return game.invitations.filter(status=InvitationStatus.PENDING).update(
        status=InvitationStatus.CANCELLED, answered_at=timezone.now()
    )


def invitations_expire(*, now: dt.datetime | None = None) -> int:
    """Periodic: pending invitations past their time become expired."""
    return Invitation.objects.filter(
        status=InvitationStatus.PENDING, expires_at__lte=now or timezone.now()
    ).update(status=InvitationStatus.EXPIRED)
