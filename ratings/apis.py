"""Rating endpoints: the AI levels and their ratings, and a player's rating history."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import AI_LEVEL_CHOICES
from players import selectors as players
from pusoy.ai import LEVELS
from pusoy_api.domain_errors import DomainError, ErrorCode
from pusoy_api.openapi import error_responses
from pusoy_api.pagination import StrictLimitOffsetPagination
from ratings.selectors import bot_ratings, rating_history
from ratings.serializers import RatingChangeSerializer, RatingSerializer


class AiLevelSerializer(serializers.Serializer):
    """An AI level you can seat, and its rating on the players' scale."""

    level = serializers.ChoiceField(choices=AI_LEVEL_CHOICES)
    rating = RatingSerializer()


class AiLevelsApi(APIView):
    @extend_schema(
        operation_id="ai_levels",
        summary="AI levels and their ratings",
        description="Every AI level, weakest first, with its rating: calibrated in the "
        "arena, then moved by its rated deals against people (`games` counts those), so "
        "you can pick opponents of your own strength.",
        responses={200: AiLevelSerializer(many=True), **error_responses(401, 503)},
    )
    def get(self, request):
        ratings = bot_ratings(LEVELS)
        rows = [{"level": level, "rating": ratings[level]} for level in LEVELS]
        return Response(AiLevelSerializer(rows, many=True).data)


class PlayerRatingsApi(GenericAPIView):
    pagination_class = StrictLimitOffsetPagination

    @extend_schema(
        operation_id="players_ratings",
        summary="A player's rating history",
        description="Every rated deal's change to the player's rating, newest first.",
        responses={200: RatingChangeSerializer(many=True), **error_responses(400, 401, 404, 503)},
    )
    def get(self, request, player_id):
        player = players.player_get(player_id=player_id)
        if player is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such player.")
        page = self.paginate_queryset(rating_history(player_id=player.pk))
        return self.get_paginated_response(RatingChangeSerializer(page, many=True).data)
