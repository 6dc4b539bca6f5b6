"""Deleting an account (`DELETE players/me`): one transaction that takes the player out
of every game still going, removes what is theirs alone, and leaves a tombstone where
shared records need a name.

The player's row stays: finished games' seats and moves point at it, and a game record
names every seat, so each record still replays and verifies, under the name
`deleted player <id hex>`. What goes: the name (free for anyone to take again), email and
names, the password, staff rights, every token (with its sessions, stream tickets and
push devices), webhooks, the event feed and stored idempotent answers. The rating row
stays with the numbers (other players' rating history was computed against it) but the
inactive account is on no leaderboard and its profile is 404.
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.utils import timezone
from knox.models import AuthToken

from games.services.exits import player_games_exit
from games.services.retention import player_answers_delete
from notifications.retention import player_events_delete
from push.services import player_push_delete
from pusoy_api.domain_errors import DomainError, ErrorCode
from webhooks.services import webhooks_delete_owned

from .models import Player
from .services import password_confirm

TOMBSTONE_PREFIX = "deleted player "


def tombstone_name(player: Player) -> str:
    # A space is outside the sign-up pattern, so no one can register a tombstone name.
    return TOMBSTONE_PREFIX + player.pk.hex


def account_delete(*, player: Player, password: str | None) -> None:
    """Deletes the account once its password is confirmed (a guest has none to give).
    A wrong or missing password is 403 `wrong_password`; a wrong one counts in the log-in
    backoff of the name."""
    if not player.is_guest:
        if password is None:  # the schema lets it out (for guests): no guess to count
            raise DomainError(ErrorCode.WRONG_PASSWORD, "Confirm with your password.")
        password_confirm(player=player, password=password)
    _account_erase(player_id=player.pk)


@transaction.atomic
def _account_erase(*, player_id: uuid.UUID) -> None:
    player = Player.objects.select_for_update().get(pk=player_id)
    # Renamed first, so what the games emit from here on (resignations, declined
    # invitations) already shows the tombstone, not the name.
    player.username = tombstone_name(player)
    player.email = ""
    player.first_name = ""
    player.last_name = ""
    player.set_unusable_password()
    player.is_active = False
    player.is_staff = False
    player.is_superuser = False
    player.is_guest = False
    player.last_login = None
    player.deleted_at = timezone.now()
    player.save()
    player.groups.clear()
    player.user_permissions.clear()
    player_games_exit(player=player)
    AuthToken.objects.filter(user=player).delete()
    webhooks_delete_owned(owner=player)
    player_events_delete(player_id=player.pk)
    player_answers_delete(player_id=player.pk)
    player_push_delete(player_id=player.pk)
