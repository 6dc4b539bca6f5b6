"""Writes on players: sign-up, tokens, stats."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from knox.models import AuthToken

from pusoy_api.domain_errors import DomainError, ErrorCode

from . import selectors
from .models import Player
from .usernames import username_canonical, username_display, username_mixed_scripts


def token_issue(*, player: Player) -> str:
    """A new bearer token for one device; only its hash is stored."""
    _instance, token = AuthToken.objects.create(user=player)
    return token


def _username_taken() -> DomainError:
    return DomainError(ErrorCode.USERNAME_TAKEN, "That username is taken.")


@transaction.atomic
def player_register(*, username: str, password: str) -> tuple[Player, str]:
    username = username_display(username)
    if scripts := username_mixed_scripts(username):
        raise DomainError(
            ErrorCode.INVALID_USERNAME,
            f"A username may not mix letters of different scripts ({', '.join(scripts)}).",
            details={"reason": "mixed_scripts", "scripts": scripts},
        )
    candidate = Player(username=username)
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise DomainError(
            ErrorCode.WEAK_PASSWORD,
            " ".join(exc.messages),
            details={"reasons": exc.messages},
        ) from exc
    if selectors.username_taken(username_canonical=username_canonical(username)):
        raise _username_taken()
    try:
        with transaction.atomic():
            player = Player.objects.create_user(username=username, password=password)
    except IntegrityError as exc:  # two sign-ups for one name at once: the constraint decides
        raise _username_taken() from exc
    return player, token_issue(player=player)


def token_login(*, username: str, password: str) -> tuple[Player, str]:
    """A token for a right name and password; raises 401, or 429 while this name is in
    backoff after failed log-ins (the authentication backend checks that before the
    password, and counts the outcome: players/backends.py)."""
    player = authenticate(username=username, password=password)
    if player is None:
        raise DomainError(ErrorCode.INVALID_CREDENTIALS, "Unknown username or wrong password.")
    return player, token_issue(player=player)


def token_revoke(*, token: AuthToken) -> None:
    token.delete()
