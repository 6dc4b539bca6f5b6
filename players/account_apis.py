"""Account endpoints: guest accounts and claiming them, changing the password, and the
sessions (tokens) of the caller: listing and revoking them. Thin: one service each."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.password_validation import password_validators_help_texts
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from pusoy_api.openapi import error_responses
from pusoy_api.pagination import StrictLimitOffsetPagination

from . import selectors, services
from .apis import USERNAME_HELP, AuthTokenSerializer, PasswordField, UsernameField, device_of
from .models import Session
from .throttles import AccountRateThrottle, AuthRateThrottle, GuestRateThrottle


class GuestTokenSerializer(AuthTokenSerializer):
    """A new guest account and its token."""

    guest = serializers.BooleanField(help_text="Always true here.")


class AccountSerializer(serializers.Serializer):
    """Your account after a change."""

    id = serializers.UUIDField()
    username = serializers.CharField()
    guest = serializers.BooleanField(source="is_guest")


class RevokedSerializer(serializers.Serializer):
    revoked_sessions = serializers.IntegerField(help_text="How many other sessions ended.")


class SessionSerializer(serializers.Serializer):
    """One of your sessions: a token, as you may see it (never the token itself)."""

    id = serializers.UUIDField()
    device = serializers.CharField(help_text="The User-Agent that took the token.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(
        help_text="Updated at most once a minute (the token's idle expiry moves with it)."
    )
    expires_at = serializers.DateTimeField(
        source="token.expiry",
        allow_null=True,
        help_text="When it stops working unless used before: TOKEN_IDLE_TTL_DAYS after "
        "`last_used_at`.",
    )
    current = serializers.SerializerMethodField(help_text="The session making this request.")

    def get_current(self, session: Session) -> bool:
        return bool(session.token_id == self.context["token"].pk)


class GuestApi(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [GuestRateThrottle, AuthRateThrottle]

    @extend_schema(
        operation_id="auth_guest",
        summary="Play as a guest",
        description="A new account with a generated name (`guest-` and 12 hex digits) and "
        "no password, and a token for this device: it plays at once. It has no way to log "
        "in again: claim it (`auth/claim`) to keep it. Rationed per address "
        "(THROTTLE_GUEST, default 20/hour).",
        request=None,
        responses={201: GuestTokenSerializer, **error_responses(429, 503)},
        auth=[],
    )
    def post(self, request):
        player, token = services.guest_create(device=device_of(request))
        body = {"id": player.id, "username": player.username, "token": token, "guest": True}
        return Response(GuestTokenSerializer(body).data, status=status.HTTP_201_CREATED)


class ClaimApi(APIView):
    throttle_classes = [AccountRateThrottle]

    class InputSerializer(serializers.Serializer):
        username = UsernameField(help_text=USERNAME_HELP + " Your own generated name too.")
        password = PasswordField(help_text=" ".join(password_validators_help_texts()))

    @extend_schema(
        operation_id="auth_claim",
        summary="Keep a guest account",
        description="The guest account making the call becomes a full account with this "
        "name and password; it keeps its id, games, rating, sessions and devices. Only a "
        "guest claims (`not_a_guest`); names as for sign-up (`username_taken`, "
        "`invalid_username`, `weak_password`).",
        request=InputSerializer,
        responses={
            200: AccountSerializer,
            **error_responses(400, 401, 409, 413, 415, 422, 429, 503),
        },
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.guest_claim(player=request.user, **data.validated_data)
        return Response(AccountSerializer(player).data)


class PasswordApi(APIView):
    throttle_classes = [AccountRateThrottle]

    class InputSerializer(serializers.Serializer):
        old_password = PasswordField(help_text="Your password now.")
        new_password = PasswordField(help_text=" ".join(password_validators_help_texts()))
        revoke_other_sessions = serializers.BooleanField(
            default=True,
            help_text="End every other session (default); this one stays logged in.",
        )

    @extend_schema(
        operation_id="auth_password",
        summary="Change your password",
        description="Confirmed by the current password: a wrong one is `wrong_password` and "
        "counts in the log-in backoff of your name (429 `throttled` inside it). A guest "
        "account has none (`guest_account`: claim it instead).",
        request=InputSerializer,
        responses={
            200: RevokedSerializer,
            **error_responses(400, 401, 403, 409, 413, 415, 422, 429, 503),
        },
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        revoked = services.password_change(
            player=request.user, token=request.auth, **data.validated_data
        )
        return Response(RevokedSerializer({"revoked_sessions": revoked}).data)


class SessionsApi(GenericAPIView):
    pagination_class = StrictLimitOffsetPagination

    @extend_schema(
        operation_id="auth_sessions",
        summary="Your sessions",
        description="Every token of yours that still works, most recently used first; "
        "`current` marks the one making this request.",
        responses={200: SessionSerializer(many=True), **error_responses(400, 401, 503)},
    )
    def get(self, request):
        page = self.paginate_queryset(selectors.sessions_of(player=request.user))
        data = SessionSerializer(page, many=True, context={"token": request.auth}).data
        return self.get_paginated_response(data)


class SessionDetailApi(APIView):
    @extend_schema(
        operation_id="auth_sessions_revoke",
        summary="Revoke a session",
        description="Its token stops working at once (this one's too: a logout).",
        responses={204: None, **error_responses(401, 404, 503)},
    )
    def delete(self, request, session_id: Any):
        services.session_revoke(player=request.user, session_id=session_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutOthersApi(APIView):
    @extend_schema(
        operation_id="auth_logout_others",
        summary="Log out everywhere else",
        description="Every session but this one ends.",
        request=None,
        responses={200: RevokedSerializer, **error_responses(401, 503)},
    )
    def post(self, request):
        revoked = services.sessions_revoke_others(player=request.user, keep=request.auth)
        return Response(RevokedSerializer({"revoked_sessions": revoked}).data)
