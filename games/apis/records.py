"""Finished deals: their records, replays, and verifying a record anyone holds."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games import selectors
from games.inputs import (
    MAX_SEQ,
)
from games.serializers import (
    RecordSerializer,
    ReplaySerializer,
)
from players.throttles import WriteRateThrottle
from pusoy.engine import verify_record
from pusoy_api.fields import (
    QueryIntegerField,
    QuerySerializer,
)
from pusoy_api.openapi import error_responses


class DealRecordApi(APIView):
    @extend_schema(
        operation_id="games_deal_record",
        summary="The record of a finished deal",
        description="The `pusoy-dos-record/1` record of a finished deal: hands as dealt, "
        "every move, the result, the revealed seed and its commitment. Check it with "
        "`records/verify` or `manage.py verify_record`.",
        responses={200: RecordSerializer, **error_responses(401, 404, 409, 503)},
    )
    def get(self, request, game_id, number):
        game = selectors.game_get(game_id=game_id, viewer=request.user)
        return Response(selectors.deal_record(game=game, number=number))


class DealReplayApi(APIView):
    class FilterSerializer(QuerySerializer):
        at = QueryIntegerField(
            required=False, min_value=0, max_value=MAX_SEQ, help_text="Default: the last move."
        )

    @extend_schema(
        operation_id="games_deal_replay",
        summary="A finished deal, move by move",
        description="The full state of a finished deal after move `at`, every hand visible.",
        parameters=[FilterSerializer],
        responses={200: ReplaySerializer, **error_responses(400, 401, 404, 409, 503)},
    )
    def get(self, request, game_id, number):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        game = selectors.game_get(game_id=game_id, viewer=request.user)
        replay = selectors.deal_replay(
            game=game, number=number, at=filters.validated_data.get("at")
        )
        return Response(ReplaySerializer(replay).data)


class RecordVerifyApi(APIView):
    # Public: a token is neither needed nor looked at (a stale one is no reason to refuse).
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    throttle_classes = [WriteRateThrottle]

    class InputSerializer(serializers.Serializer):
        """Any JSON object is a candidate record: what is wrong with it is the verdict."""

        def to_internal_value(self, data: Any) -> dict[str, Any]:
            if not isinstance(data, dict):
                raise serializers.ValidationError(
                    {api_settings.NON_FIELD_ERRORS_KEY: ["A record is a JSON object."]}
                )
            return data

    class VerdictSerializer(serializers.Serializer):
        valid = serializers.BooleanField()
        move_index = serializers.IntegerField(
            allow_null=True,
            help_text="0-based index of the first bad move (`len(moves)` for a wrong result); "
            "null when the record is valid or the problem is not a move.",
        )
        code = serializers.CharField(allow_null=True, help_text="Why it is invalid; null if valid.")
        message = serializers.CharField()

    @extend_schema(
        operation_id="records_verify",
        summary="Verify a record",
        description="Checks any `pusoy-dos-record/1` record (the shape of `Record`; no "
        "login needed): the seed reproduces the hands and matches the commitment, every move "
        "is legal, the result follows. Answers valid, or the first bad move and its code. "
        "Any JSON object gets a verdict; anything else is 400.",
        request={"application/json": {"type": "object", "additionalProperties": True}},
        responses={200: VerdictSerializer, **error_responses(400, 413, 415, 429, 503)},
        auth=[],
    )
    def post(self, request):
        record = self.InputSerializer(data=request.data)
        record.is_valid(raise_exception=True)
        verdict = verify_record(record.validated_data)
        return Response(self.VerdictSerializer(verdict.to_dict()).data)
