"""Player endpoints: register, token, logout, profiles (and deleting your own), the
leaderboard. Thin: one service each. (Guests, sessions and passwords: account_apis;
ratings and their history: the ratings app.)"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.password_validation import (
    get_default_password_validators,
    password_validators_help_texts,
)
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from pusoy_api.domain_errors import DomainError, ErrorCode
from pusoy_api.fields import QuerySerializer, StrictCharField
from pusoy_api.openapi import error_responses
from pusoy_api.pagination import StrictLimitOffsetPagination
from ratings.serializers import PlayerRatingField

from . import deletion, selectors, services
from .throttles import AccountRateThrottle, AuthRateThrottle
from .usernames import username_display

USERNAME_MAX_LENGTH = 150
PASSWORD_MAX_LENGTH = 128
# Published in the schema; the password validators (settings) have the last word.
PASSWORD_MIN_LENGTH = next(
    (v.min_length for v in get_default_password_validators() if hasattr(v, "min_length")), 1
)


@extend_schema_field(
    # `$` here, as JSON Schema's regular expressions have no `\Z`; the field's own check
    # takes no trailing newline either (it neither trims nor lets `$` skip one).
    {"type": "string", "maxLength": USERNAME_MAX_LENGTH, "pattern": r"^[\w.@+-]+$"}
)
class UsernameField(serializers.RegexField):
    """Checked in the form it is stored in (NFKC): a full-width full stop (U+FF0E) is a
    `.`, and a compatibility character that expands (U+FDFA is 18 letters) counts at its
    expanded length."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            r"^[\w.@+-]+\Z", max_length=USERNAME_MAX_LENGTH, trim_whitespace=False, **kwargs
        )

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):  # a JSON number is not a name, whatever it reads as
            self.fail("invalid")
        return username_display(super().to_internal_value(data))


@extend_schema_field(
    {
        "type": "string",
        "format": "password",
        "minLength": PASSWORD_MIN_LENGTH,
        "maxLength": PASSWORD_MAX_LENGTH,
        "pattern": r"^[^\x00]*$",
        "description": "Any characters but NUL; spaces count.",
    }
)
class PasswordField(StrictCharField):
    """A password as typed: not trimmed (a space is part of it), NUL refused."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            max_length=PASSWORD_MAX_LENGTH, trim_whitespace=False, write_only=True, **kwargs
        )


USERNAME_HELP = (
    "Letters, digits and @ . + - _ only. Names that differ only in case, width or "
    "compatibility form are the same name; letters of different scripts may not be "
    "mixed (docs/api.md)."
)


class PlayerSerializer(serializers.Serializer):
    """A player's public profile and stats."""

    id = serializers.UUIDField()
    username = serializers.CharField()
    games_played = serializers.IntegerField()
    games_won = serializers.IntegerField()
    deals_played = serializers.IntegerField()
    deals_won = serializers.IntegerField()
    points = serializers.IntegerField()
    date_joined = serializers.DateTimeField()
    rating = PlayerRatingField()


class AuthTokenSerializer(serializers.Serializer):
    """A new bearer token for one device, and whose it is."""

    id = serializers.UUIDField()
    username = serializers.CharField()
    token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")


def device_of(request) -> str:
    """How a session names its device: the User-Agent that took the token."""
    return str(request.META.get("HTTP_USER_AGENT", ""))


class RegisterApi(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AuthRateThrottle]

    class InputSerializer(serializers.Serializer):
        username = UsernameField(help_text=USERNAME_HELP)
        password = PasswordField(help_text=" ".join(password_validators_help_texts()))

    @extend_schema(
        operation_id="auth_register",
        summary="Sign up",
        description="A new player and a token for this device. Passwords go through the "
        "password validators (`weak_password`); a name taken in any spelling is "
        "`username_taken`.",
        request=InputSerializer,
        responses={
            201: AuthTokenSerializer,
            **error_responses(400, 409, 413, 415, 422, 429, 503),
        },
        examples=[
            OpenApiExample(
                "Sign up",
                value={"username": "ana", "password": "correct-horse-battery-staple"},
                request_only=True,
            )
        ],
        auth=[],
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player, token = services.player_register(**data.validated_data, device=device_of(request))
        body = {"id": player.id, "username": player.username, "token": token}
        return Response(AuthTokenSerializer(body).data, status=status.HTTP_201_CREATED)


class TokenApi(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AuthRateThrottle]

    class InputSerializer(serializers.Serializer):
        username = UsernameField(help_text="Any spelling of the name that is the same name.")
        password = PasswordField()

    @extend_schema(
        operation_id="auth_token",
        summary="Log in",
        description="A new token for this device (it lasts until logout, revocation, or "
        "TOKEN_IDLE_TTL_DAYS without use). Any spelling "
        "of the name that is the same name logs in. After repeated failures a name is "
        "refused for a while (429 `throttled`, `Retry-After`).",
        request=InputSerializer,
        responses={200: AuthTokenSerializer, **error_responses(400, 401, 413, 415, 429, 503)},
        auth=[],
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player, token = services.token_login(**data.validated_data, device=device_of(request))
        body = {"id": player.id, "username": player.username, "token": token}
        return Response(AuthTokenSerializer(body).data)


class LogoutApi(APIView):
    throttle_classes = [AuthRateThrottle]

    @extend_schema(
        operation_id="auth_logout",
        summary="Log out",
        description="Revokes the token that made this call (other devices stay logged in).",
        request=None,
        responses={204: None, **error_responses(401, 429, 503)},
    )
    def post(self, request):
        services.token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeSerializer(PlayerSerializer):
    """Your own profile: the public one, and whether this is a guest account."""

    guest = serializers.BooleanField(
        source="is_guest", help_text="A guest account: claim it (`auth/claim`) to keep it."
    )


class MeApi(APIView):
    def get_throttles(self):
        # Deleting checks the password: the log-in limits apply (docs/api.md).
        return [AccountRateThrottle()] if self.request.method == "DELETE" else []

    class DeleteInputSerializer(serializers.Serializer):
        password = PasswordField(
            required=False, help_text="Your password; a guest account sends none."
        )

    @extend_schema(
        operation_id="players_me",
        summary="You",
        description="Your profile and stats.",
        responses={200: MeSerializer, **error_responses(401, 503)},
    )
    def get(self, request):
        # The row, not request.user: a player's stats change by bulk UPDATEs, which the
        # token cache's copy of the player does not see (players.token_cache).
        player = selectors.player_get(player_id=request.user.pk) or request.user
        return Response(MeSerializer(player).data)

    @extend_schema(
        operation_id="players_me_delete",
        summary="Delete your account",
        description="Deletes your account at once, confirmed by your password (a guest "
        "sends none; a wrong or missing one is `wrong_password`, and a wrong one counts in "
        "the log-in backoff). Games in "
        "progress count as resigned, waiting games are left, finished games stay under the "
        "name `deleted player <id>` and still verify; your tokens, devices, webhooks and "
        "feed are deleted (docs/api.md, Accounts).",
        request=DeleteInputSerializer,
        responses={204: None, **error_responses(400, 401, 403, 413, 415, 429, 503)},
    )
    def delete(self, request):
        data = self.DeleteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        deletion.account_delete(player=request.user, password=data.validated_data.get("password"))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerDetailApi(APIView):
    @extend_schema(
        operation_id="players_retrieve",
        summary="A player",
        description="A player's public profile and stats.",
        responses={200: PlayerSerializer, **error_responses(401, 404, 503)},
    )
    def get(self, request, player_id):
        player = selectors.player_get(player_id=player_id)
        if player is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such player.")
        return Response(PlayerSerializer(player).data)


class LeaderboardApi(GenericAPIView):
    pagination_class = StrictLimitOffsetPagination

    class FilterSerializer(QuerySerializer):
        order = serializers.ChoiceField(
            choices=["wins", "rating"],
            required=False,
            default="wins",
            help_text="`wins`: games won, then deals won, then points (players who have "
            "finished a game). `rating`: the rating's `display`, highest first (players "
            "with a rated deal).",
        )

    @extend_schema(
        operation_id="leaderboard",
        summary="The leaderboard",
        description="Players best first, by wins (default) or by rating (`order=rating`).",
        parameters=[FilterSerializer],
        responses={200: PlayerSerializer(many=True), **error_responses(400, 401, 503)},
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        players = selectors.leaderboard(order=filters.validated_data["order"])
        page = self.paginate_queryset(players)
        return self.get_paginated_response(PlayerSerializer(page, many=True).data)
