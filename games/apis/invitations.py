"""Invitations: a game's, yours, and answering one."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from games import idempotency, selectors, services
from games.apis.common import IDEMPOTENCY_PARAMETER
from games.models import InvitationStatus
from games.serializers import (
    InvitationSerializer,
)
from players.throttles import WriteRateThrottle
from pusoy_api.fields import (
    QuerySerializer,
    StrictIntegerField,
    UsernameRefField,
)
from pusoy_api.openapi import error_responses
from pusoy_api.pagination import StrictLimitOffsetPagination


class GameInvitationsApi(APIView):
    throttle_classes = [WriteRateThrottle]
    request_name = "InvitationCreate"

    class InputSerializer(serializers.Serializer):
        username = UsernameRefField(help_text="Any spelling of the name.")
        seat = StrictIntegerField(
            required=False, min_value=0, max_value=3, help_text="Default: the first open seat."
        )

    @extend_schema(
        operation_id="games_invite",
        summary="Invite a player",
        description="The creator of a waiting game reserves a seat for a named player, who "
        "accepts or declines it (`invitations/{id}/accept`); nobody else can take it. It "
        "expires after 7 days (`INVITATION_TTL_DAYS`).",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={
            201: InvitationSerializer,
            **error_responses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        },
    )
    def post(self, request, game_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def invite() -> Response:
            invitation = services.invitation_create(
                game_id=game_id,
                inviter=request.user,
                username=data.validated_data["username"],
                seat=data.validated_data.get("seat"),
            )
            return Response(InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)

        return idempotency.idempotent(request, invite)


class InvitationsApi(GenericAPIView):
    pagination_class = StrictLimitOffsetPagination

    class FilterSerializer(QuerySerializer):
        status = serializers.ChoiceField(choices=InvitationStatus.choices, required=False)

    @extend_schema(
        operation_id="invitations_list",
        summary="Your invitations",
        description="The invitations you received, newest first; `status=pending` for those "
        "you can still answer.",
        parameters=[FilterSerializer],
        responses={200: InvitationSerializer(many=True), **error_responses(400, 401, 503)},
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        invitations = selectors.invitations_for_player(
            player=request.user, status=filters.validated_data.get("status")
        )
        page = self.paginate_queryset(invitations)
        return self.get_paginated_response(InvitationSerializer(page, many=True).data)


class InvitationAnswerApi(APIView):
    """Accept or decline an invitation (`service`); answers the invitation."""

    throttle_classes = [WriteRateThrottle]
    service: Any = None

    def post(self, request, invitation_id):
        invitation = type(self).service(invitation_id=invitation_id, player=request.user)
        return Response(InvitationSerializer(invitation).data)


@extend_schema_view(
    post=extend_schema(
        operation_id="invitations_accept",
        summary="Accept an invitation",
        description="Take the seat it reserved (the last human seat taken starts the game).",
        request=None,
        responses={200: InvitationSerializer, **error_responses(401, 404, 409, 429, 503)},
    )
)
class InvitationAcceptApi(InvitationAnswerApi):
    service = staticmethod(services.invitation_accept)


@extend_schema_view(
    post=extend_schema(
        operation_id="invitations_decline",
        summary="Decline an invitation",
        description="The seat it reserved is open again; a private game is no longer shown to you.",
        request=None,
        responses={200: InvitationSerializer, **error_responses(401, 404, 409, 429, 503)},
    )
)
class InvitationDeclineApi(InvitationAnswerApi):
    service = staticmethod(services.invitation_decline)
