"""Game endpoints: lobby, seats, the player's view, moves, history, records, replays.

Thin views (HackSoft style): validate input with a nested serializer, call one service
or selector, serialize. The rules live in the engine; the transactions in services.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.engine import DealState, verify_record
from games.models import AiLevel, Deal, Game, GameStatus, Move
from players.throttles import WriteRateThrottle
from pusoy_api.errors import ApiError
from pusoy_api.openapi import error_responses

# --- Output shapes -----------------------------------------------------------------


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    username = serializers.CharField()


class SeatOutputSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    type = serializers.SerializerMethodField()
    player = PlayerRefSerializer(allow_null=True)
    ai_level = serializers.CharField(allow_blank=True)
    score = serializers.IntegerField()

    def get_type(self, seat) -> str:
        return "ai" if seat.ai_level else "human"


class GameOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    rules = serializers.DictField(help_text="Every rule option, resolved (RULES.md).")
    seats = SeatOutputSerializer(many=True)
    target_deals = serializers.IntegerField(allow_null=True)
    target_score = serializers.IntegerField(allow_null=True)
    turn_timeout = serializers.SerializerMethodField(help_text="Seconds per move, or null.")
    current_deal = serializers.IntegerField(source="current_deal_number")
    version = serializers.IntegerField()
    winner_seat = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_turn_timeout(self, game) -> float | None:
        return game.turn_timeout.total_seconds() if game.turn_timeout else None


class DealSummarySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    commitment = serializers.CharField()
    seq = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    seed = serializers.SerializerMethodField(help_text="Revealed when the deal is over.")
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_seed(self, deal: Deal) -> str | None:
        return deal.seed if deal.is_finished else None


class GameDetailOutputSerializer(GameOutputSerializer):
    deals = DealSummarySerializer(many=True, source="deals.all")


class MoveOutputSerializer(serializers.Serializer):
    deal = serializers.IntegerField(source="deal.number")
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    combination = serializers.CharField(allow_blank=True)
    actor = serializers.CharField(help_text='"player", "ai:<level>" or "timeout".')
    created_at = serializers.DateTimeField()
    chain = serializers.CharField(help_text="SHA-256 hash chain over the deal's moves.")


def _state_schema() -> Any:
    return inline_serializer(
        name="PlayerState",
        fields={
            "game": serializers.UUIDField(),
            "status": serializers.CharField(),
            "version": serializers.IntegerField(),
            "seat": serializers.IntegerField(),
            "scores": serializers.ListField(child=serializers.IntegerField()),
            "deal": inline_serializer(
                name="PlayerDealView",
                allow_null=True,
                fields={
                    "number": serializers.IntegerField(),
                    "commitment": serializers.CharField(),
                    "seq": serializers.IntegerField(),
                    "hand": serializers.ListField(child=serializers.CharField()),
                    "card_counts": serializers.ListField(child=serializers.IntegerField()),
                    "turn": serializers.IntegerField(allow_null=True),
                    "to_beat": serializers.DictField(allow_null=True),
                    "trick_leader": serializers.IntegerField(),
                    "passed": serializers.ListField(child=serializers.IntegerField()),
                    "required_card": serializers.CharField(allow_null=True),
                    "face_up_card": serializers.DictField(
                        allow_null=True,
                        help_text="3 players: the 52nd card, dealt face up: {card, seat}.",
                    ),
                    "finished_order": serializers.ListField(child=serializers.IntegerField()),
                    "is_over": serializers.BooleanField(),
                    "result": serializers.DictField(allow_null=True),
                    "deadline": serializers.DateTimeField(allow_null=True),
                    "legal_moves": serializers.ListField(child=serializers.DictField()),
                },
            ),
        },
    )


PlayerStateSchema = _state_schema()


def _game_body(game: Game) -> dict[str, Any]:
    return GameOutputSerializer(game).data


# --- Lobby ---------------------------------------------------------------------------


class GameListCreateApi(APIView):
    class FilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=GameStatus.choices, required=False)
        mine = serializers.BooleanField(required=False, default=False)
        my_turn = serializers.BooleanField(required=False, default=False)

    class SeatInputSerializer(serializers.Serializer):
        type = serializers.ChoiceField(choices=["human", "ai"])
        level = serializers.ChoiceField(choices=AiLevel.choices, required=False)

        def validate(self, attrs):
            if attrs["type"] == "ai" and not attrs.get("level"):
                raise serializers.ValidationError({"level": "An AI seat needs a level."})
            return attrs

    class InputSerializer(serializers.Serializer):
        rules = serializers.JSONField(
            required=False,
            default=None,
            help_text='A preset name, or {"preset": ..., <option>: <value>} (RULES.md).',
        )
        seats = serializers.ListField(min_length=2, max_length=4)
        target_deals = serializers.IntegerField(min_value=1, max_value=100, required=False)
        target_score = serializers.IntegerField(min_value=1, max_value=10000, required=False)
        turn_timeout = serializers.IntegerField(
            min_value=10,
            max_value=30 * 24 * 3600,
            required=False,
            help_text="Seconds a human has for each move; the server plays when it runs out.",
        )

    def get_throttles(self):
        return [WriteRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="games_list",
        parameters=[FilterSerializer],
        responses={200: GameOutputSerializer(many=True), **error_responses(400, 401)},
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        games = selectors.games_for_player(player=request.user, **filters.validated_data)
        paginator = LimitOffsetPagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response(GameOutputSerializer(page, many=True).data)

    @extend_schema(
        operation_id="games_create",
        request=inline_serializer(
            name="GameCreateRequest",
            fields={
                "rules": serializers.JSONField(required=False),
                "seats": inline_serializer(
                    name="SeatRequest",
                    many=True,
                    fields={
                        "type": serializers.ChoiceField(choices=["human", "ai"]),
                        "level": serializers.ChoiceField(choices=AiLevel.choices, required=False),
                    },
                ),
                "target_deals": serializers.IntegerField(required=False),
                "target_score": serializers.IntegerField(required=False),
                "turn_timeout": serializers.IntegerField(required=False),
            },
        ),
        responses={201: GameOutputSerializer, **error_responses(400, 401, 429)},
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seats = self.SeatInputSerializer(data=data.validated_data["seats"], many=True)
        seats.is_valid(raise_exception=True)
        timeout = data.validated_data.get("turn_timeout")
        game = services.game_create(
            creator=request.user,
            rules=data.validated_data["rules"],
            seats=[services.SeatSpec(s["type"], s.get("level", "")) for s in seats.validated_data],
            target_deals=data.validated_data.get("target_deals"),
            target_score=data.validated_data.get("target_score"),
            turn_timeout=dt.timedelta(seconds=timeout) if timeout else None,
        )
        game = selectors.game_get(game_id=game.pk)
        return Response(_game_body(game), status=status.HTTP_201_CREATED)


class GameDetailApi(APIView):
    @extend_schema(
        operation_id="games_retrieve",
        responses={200: GameDetailOutputSerializer, **error_responses(401, 404)},
    )
    def get(self, request, game_id):
        game = selectors.game_get(game_id=game_id)
        return Response(GameDetailOutputSerializer(game).data)


class GameJoinApi(APIView):
    throttle_classes = [WriteRateThrottle]

    class InputSerializer(serializers.Serializer):
        seat = serializers.IntegerField(required=False, min_value=0, max_value=3)

    @extend_schema(
        operation_id="games_join",
        request=InputSerializer,
        responses={200: GameOutputSerializer, **error_responses(400, 401, 404, 409, 429)},
    )
    def post(self, request, game_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.game_join(
            game_id=game_id, player=request.user, seat=data.validated_data.get("seat")
        )
        return Response(_game_body(selectors.game_get(game_id=game_id)))


class GameStateApi(APIView):
    @extend_schema(
        operation_id="games_state",
        responses={200: PlayerStateSchema, **error_responses(401, 403, 404)},
    )
    def get(self, request, game_id):
        game = selectors.game_get(game_id=game_id)
        return Response(selectors.game_state_for_player(game=game, player=request.user))


# --- Moves ---------------------------------------------------------------------------


class MovesApi(APIView):
    """POST a move; GET the public history (long-polling with `?wait=`)."""

    MAX_WAIT_SECONDS = 30

    class InputSerializer(serializers.Serializer):
        action = serializers.ChoiceField(choices=["play", "pass"])
        cards = serializers.ListField(
            child=serializers.CharField(max_length=64, allow_blank=True),
            required=False,
            max_length=13 * 4,
            help_text='Cards such as "3C", "TD", "10d", "2♦".',
        )
        expected_seq = serializers.IntegerField(
            required=False,
            min_value=0,
            help_text="Refuse with 409 stale_seq unless this is the last move's seq.",
        )

        def validate(self, attrs):
            if attrs["action"] == "play" and "cards" not in attrs:
                raise serializers.ValidationError({"cards": "A play needs cards."})
            return attrs

    class FilterSerializer(serializers.Serializer):
        deal = serializers.IntegerField(required=False, min_value=1)
        since = serializers.IntegerField(required=False, min_value=0, default=0)
        wait = serializers.FloatField(
            required=False,
            min_value=0,
            max_value=30,
            default=0,
            help_text="Hold the request up to this many seconds until a move after `since`.",
        )

    class HistorySerializer(serializers.Serializer):
        deal = serializers.IntegerField(allow_null=True)
        last_seq = serializers.IntegerField()
        moves = MoveOutputSerializer(many=True)

    def get_throttles(self):
        return [WriteRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="games_moves_create",
        request=InputSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="A retry with the same key and body returns the first answer.",
            )
        ],
        responses={
            201: inline_serializer(
                name="MoveAccepted",
                fields={"move": MoveOutputSerializer(), "state": PlayerStateSchema},
            ),
            **error_responses(400, 401, 403, 404, 409, 422, 429),
        },
    )
    def post(self, request, game_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 255:
            raise ApiError("invalid_input", "Idempotency-Key must be 1 to 255 characters.")

        def render(game: Game, deal: Deal, move: Move, state: DealState) -> dict[str, Any]:
            return {
                "move": MoveOutputSerializer(move).data,
                "state": selectors.game_state_for_player(
                    game=game, player=request.user, deal=deal, state=state
                ),
            }

        result = services.move_submit(
            game_id=game_id,
            player=request.user,
            action=data.validated_data["action"],
            cards=data.validated_data.get("cards"),
            expected_seq=data.validated_data.get("expected_seq"),
            idempotency_key=key,
            render=render,
        )
        return Response(result.body, status=result.status)

    @extend_schema(
        operation_id="games_moves_list",
        parameters=[FilterSerializer],
        responses={200: HistorySerializer, **error_responses(400, 401, 404)},
    )
    def get(self, request, game_id):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return Response(self.history(game_id, filters.validated_data))

    @classmethod
    def history(cls, game_id, filters: dict[str, Any]) -> dict[str, Any]:
        game = selectors.game_get(game_id=game_id)
        deal, moves = selectors.deal_moves(
            game=game, number=filters.get("deal"), since=filters.get("since", 0)
        )
        return cls.HistorySerializer(
            {
                "deal": deal.number if deal else None,
                "last_seq": deal.seq if deal else 0,
                "moves": moves,
            }
        ).data


# --- Records and replays ---------------------------------------------------------------


class DealRecordApi(APIView):
    @extend_schema(
        operation_id="games_deal_record",
        responses={200: OpenApiTypes.OBJECT, **error_responses(401, 404, 409)},
        description="The `pusoy-dos-record/1` record of a finished deal, seed revealed.",
    )
    def get(self, request, game_id, number):
        game = selectors.game_get(game_id=game_id)
        return Response(selectors.deal_record(game=game, number=number))


class DealReplayApi(APIView):
    class FilterSerializer(serializers.Serializer):
        at = serializers.IntegerField(required=False, min_value=0)

    @extend_schema(
        operation_id="games_deal_replay",
        parameters=[FilterSerializer],
        responses={200: OpenApiTypes.OBJECT, **error_responses(400, 401, 404, 409)},
        description="Full state of a finished deal after move `at` (every hand visible).",
    )
    def get(self, request, game_id, number):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        game = selectors.game_get(game_id=game_id)
        return Response(
            selectors.deal_replay(game=game, number=number, at=filters.validated_data.get("at"))
        )


class RecordVerifyApi(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [WriteRateThrottle]

    class OutputSerializer(serializers.Serializer):
        valid = serializers.BooleanField()
        move_index = serializers.IntegerField(allow_null=True)
        code = serializers.CharField(allow_null=True)
        message = serializers.CharField()

    @extend_schema(
        operation_id="records_verify",
        request=OpenApiTypes.OBJECT,
        responses={200: OutputSerializer, **error_responses(400, 429)},
        description="Checks any `pusoy-dos-record/1` record: valid, or the first bad move.",
    )
    def post(self, request):
        verdict = verify_record(request.data)
        return Response(self.OutputSerializer(verdict.to_dict()).data)
