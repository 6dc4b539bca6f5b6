"""Rating endpoints that are not a player's: the AI levels and their ratings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import AI_LEVEL_CHOICES
from players.apis import RatingSerializer
from pusoy.ai import LEVELS
from pusoy_api.openapi import error_responses
from ratings.selectors import bot_ratings


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
