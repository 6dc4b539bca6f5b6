"""Writes on players: sign-up, guests and claiming them, tokens and their sessions,
password changes."""

from __future__ import annotations

import datetime as dt
import secrets
import uuid

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from knox.models import AuthToken

from pusoy_api.domain_errors import DomainError, ErrorCode

from . import selectors
from .models import Player, Session
from .usernames import username_canonical, username_display, username_mixed_scripts

# A guest's generated name: `guest-` and 12 hex digits (a clash is retried).
GUEST_PREFIX = "guest-"
GUEST_NAME_ATTEMPTS = 5
DEVICE_MAX_LENGTH = Session._meta.get_field("device").max_length or 200


@transaction.atomic
def token_issue(*, player: Player, device: str = "") -> str:
    """A new bearer token for one device, and its session; only the token's hash is
    stored."""
    instance, token = AuthToken.objects.create(user=player)
    Session.objects.create(
        token=instance,
        player=player,
        device=device[:DEVICE_MAX_LENGTH],
        created_at=instance.created,
    )
    return token


def _username_taken() -> DomainError:
    return DomainError(ErrorCode.USERNAME_TAKEN, "That username is taken.")


def _username_check(username: str) -> str:
    username = username_display(username)
    if scripts := username_mixed_scripts(username):
        raise DomainError(
            ErrorCode.INVALID_USERNAME,
            f"A username may not mix letters of different scripts ({', '.join(scripts)}).",
            details={"reason": "mixed_scripts", "scripts": scripts},
        )
    return username


def _password_check(password: str, *, user: Player) -> None:
    try:
        validate_password(password, user=user)
    except DjangoValidationError as exc:
        raise DomainError(
            ErrorCode.WEAK_PASSWORD,
            " ".join(exc.messages),
            details={"reasons": exc.messages},
        ) from exc


@transaction.atomic
def player_register(*, username: str, password: str, device: str = "") -> tuple[Player, str]:
    username = _username_check(username)
    candidate = Player(username=username)
    _password_check(password, user=candidate)
    if selectors.username_taken(username_canonical=username_canonical(username)):
        raise _username_taken()
    try:
        with transaction.atomic():
            player = Player.objects.create_user(username=username, password=password)
    except IntegrityError as exc:  # two sign-ups for one name at once: the constraint decides
        raise _username_taken() from exc
    return player, token_issue(player=player, device=device)


def token_login(*, username: str, password: str, device: str = "") -> tuple[Player, str]:
    """A token for a right name and password; raises 401, or 429 while this name is in
    backoff after failed log-ins (the authentication backend checks that before the
    password, and counts the outcome: players/backends.py)."""
    player = authenticate(username=username, password=password)
    if player is None:
        raise DomainError(ErrorCode.INVALID_CREDENTIALS, "Unknown username or wrong password.")
    return player, token_issue(player=player, device=device)


def token_revoke(*, token: AuthToken) -> None:
    token.delete()


def password_confirm(*, player: Player, password: str) -> None:
    """Refuses (403 `wrong_password`) unless `password` is the player's. The check goes
    through `authenticate()`, so it is inside the same per-name backoff as log-in, and
    its failures count there (a stolen token cannot be used to guess the password)."""
    if authenticate(username=player.username, password=password) is None:
        raise DomainError(ErrorCode.WRONG_PASSWORD, "The password is wrong.")


def _refuse_guest(player: Player) -> None:
    if player.is_guest:
        raise DomainError(
            ErrorCode.GUEST_ACCOUNT,
            "A guest account has no password: claim it first (auth/claim).",
        )


def _tokens_delete(tokens) -> int:
    """Deletes tokens (their sessions, stream tickets and push devices go with them);
    how many tokens went."""
    _total, per_model = tokens.delete()
    return per_model.get(AuthToken._meta.label, 0)


@transaction.atomic
def sessions_revoke_others(*, player: Player, keep: AuthToken) -> int:
    """Every token of the player but `keep` ends (those devices are logged out). How many."""
    return _tokens_delete(AuthToken.objects.filter(user=player).exclude(pk=keep.pk))


@transaction.atomic
def session_revoke(*, player: Player, session_id: uuid.UUID) -> None:
    """Ends one of the player's sessions (its token); another player's is not found."""
    session = Session.objects.filter(pk=session_id, player=player).first()
    if session is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such session.")
    _tokens_delete(AuthToken.objects.filter(pk=session.token_id))


@transaction.atomic
def password_change(
    *,
    player: Player,
    token: AuthToken,
    old_password: str,
    new_password: str,
    revoke_other_sessions: bool = True,
) -> int:
    """A new password, once the old one is confirmed; other sessions end unless asked
    not to. Returns how many sessions ended."""
    _refuse_guest(player)
    password_confirm(player=player, password=old_password)
    _password_check(new_password, user=player)
    player.set_password(new_password)
    player.save(update_fields=["password"])
    if not revoke_other_sessions:
        return 0
    return sessions_revoke_others(player=player, keep=token)


def _guest_name() -> str:
    return GUEST_PREFIX + secrets.token_hex(6)


def guest_create(*, device: str = "") -> tuple[Player, str]:
    """A new guest account that can play at once: a generated name, no usable password."""
    for _ in range(GUEST_NAME_ATTEMPTS):
        try:
            with transaction.atomic():
                player = Player.objects.create_user(
                    username=_guest_name(), password=None, is_guest=True
                )
                return player, token_issue(player=player, device=device)
        except IntegrityError:  # the generated name exists: draw another
            continue
    raise RuntimeError("no free guest name after several draws")


@transaction.atomic
def guest_claim(*, player: Player, username: str, password: str) -> Player:
    """A guest becomes a full account under a name and password of its choosing (its own
    generated name too); it keeps its id, games, rating, sessions and devices."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not player.is_guest:
        raise DomainError(ErrorCode.NOT_A_GUEST, "This account is not a guest account.")
    username = _username_check(username)
    player.username = username
    _password_check(password, user=player)
    canonical = username_canonical(username)
    if canonical != player.username_canonical and selectors.username_taken(
        username_canonical=canonical
    ):
        raise _username_taken()
    player.set_password(password)
    player.is_guest = False
    try:
        with transaction.atomic():
            player.save(update_fields=["username", "password", "is_guest"])
    except IntegrityError as exc:  # another sign-up took the name meanwhile
        raise _username_taken() from exc
    return player


def tokens_expired_purge(*, now: dt.datetime | None = None) -> int:
    """Deletes every token past its expiry (idle for TOKEN_IDLE_TTL_DAYS). How many."""
    return _tokens_delete(AuthToken.objects.filter(expiry__lt=now or timezone.now()))
