"""Writes on players: sign-up, tokens, stats."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from knox.models import AuthToken

from pusoy_api.errors import ApiError

from .models import Player


def token_issue(*, player: Player) -> str:
    """A new bearer token for one device; only its hash is stored."""
    _instance, token = AuthToken.objects.create(user=player)
    return token


@transaction.atomic
def player_register(*, username: str, password: str) -> tuple[Player, str]:
    candidate = Player(username=username)
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise ApiError(
            "weak_password",
            " ".join(exc.messages),
            details={"reasons": exc.messages},
        ) from exc
    if Player.objects.filter(username__iexact=username).exists():
        raise ApiError("username_taken", "That username is taken.", status_code=409)
    try:
        with transaction.atomic():
            player = Player.objects.create_user(username=username, password=password)
    except IntegrityError as exc:  # two sign-ups for one name at the same instant
        raise ApiError("username_taken", "That username is taken.", status_code=409) from exc
    return player, token_issue(player=player)


def token_login(*, username: str, password: str) -> str:
    player = authenticate(username=username, password=password)
    if player is None:
        raise ApiError(
            "invalid_credentials", "Unknown username or wrong password.", status_code=401
        )
    return token_issue(player=player)


def token_revoke(*, token: AuthToken) -> None:
    token.delete()
