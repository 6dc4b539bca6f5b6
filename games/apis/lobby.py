"""The lobby: list and create games, a game's detail, taking a seat, a rematch."""

from __future__ import annotations

import datetime as dt

from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from games import idempotency, selectors, services
from games.apis.common import game_answer
from games.inputs import (
    RulesSpecField,
    SeatListField,
)
from games.models import GameStatus, Visibility
from games.serializers import (
    GameDetailSerializer,
    GameSerializer,
)
from players.throttles import WriteRateThrottle
from pusoy_api.fields import (
    QueryBooleanField,
    QuerySerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    UsernameRefField,
)
from pusoy_api.openapi import error_responses
from pusoy_api.pagination import StrictLimitOffsetPagination


class GameListCreateApi(GenericAPIView):
    pagination_class = StrictLimitOffsetPagination
    request_name = "GameCreate"

    class FilterSerializer(QuerySerializer):
        status = serializers.ChoiceField(choices=GameStatus.choices, required=False)
        mine = QueryBooleanField(required=False, default=False)
        my_turn = QueryBooleanField(required=False, default=False)

    class InputSerializer(serializers.Serializer):
        rules = RulesSpecField(required=False, default=None, allow_null=True)
        seats = SeatListField(
            help_text='2 to 4 seats, e.g. [{"type": "human"}, {"type": "ai", "level": '
            '"expert"}]; the creator takes the first human seat.'
        )
        target_deals = StrictIntegerField(
            min_value=1, max_value=100, required=False, help_text="Deals in the match."
        )
        target_score = StrictIntegerField(
            min_value=1,
            max_value=10000,
            required=False,
            help_text="The match ends when a seat reaches this score. Without either target "
            "the match is one deal.",
        )
        turn_timeout = StrictIntegerField(
            min_value=10,
            max_value=30 * 24 * 3600,
            required=False,
            allow_null=True,
            help_text="Seconds a human has for each move; the server plays when it runs out.",
        )
        visibility = serializers.ChoiceField(
            choices=Visibility.choices,
            required=False,
            default=Visibility.PUBLIC,
            help_text="`public`: listed, anyone may watch; `private`: joined by invitation "
            "or invite code, seen by participants only.",
        )
        invite = serializers.ListField(
            child=UsernameRefField(),
            required=False,
            default=list,
            max_length=3,
            help_text="Usernames to reserve the next human seats for (invitations).",
        )
        hints = StrictBooleanField(
            required=False, default=False, help_text="Offer a hint on each turn."
        )
        rated = StrictBooleanField(
            required=False,
            allow_null=True,
            default=None,
            help_text="Counts for ratings; default true unless `hints` (a hinted game is "
            "never rated).",
        )

    def get_throttles(self):
        return [WriteRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="games_list",
        summary="List games",
        description="Games, most recently changed first. Filter by `status`; `mine` for "
        "your games; `my_turn` for active games where you are the seat to play.",
        parameters=[FilterSerializer],
        responses={200: GameSerializer(many=True), **error_responses(400, 401, 503)},
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        games = selectors.games_for_player(player=request.user, **filters.validated_data)
        page = self.paginate_queryset(games)
        context = {"viewer": request.user}
        return self.get_paginated_response(GameSerializer(page, many=True, context=context).data)

    @extend_schema(
        operation_id="games_create",
        summary="Create a game",
        description="A new game (a match of one or more deals). The creator takes the first "
        "human seat; the game starts (shuffle, deal, seed commitment published) when every "
        "human seat is taken, at once when the others are AI.",
        request=InputSerializer,
        responses={201: GameSerializer, **error_responses(400, 401, 413, 415, 422, 429, 503)},
        examples=[
            OpenApiExample(
                "Against three AI players",
                value={
                    "seats": [
                        {"type": "human"},
                        {"type": "ai", "level": "heuristic"},
                        {"type": "ai", "level": "expert"},
                        {"type": "ai", "level": "greedy"},
                    ],
                    "rules": "philippine",
                    "target_deals": 3,
                },
                request_only=True,
            ),
            OpenApiExample(
                "Four people, Hong Kong rules, a day per move",
                value={
                    "seats": [{"type": "human"}] * 4,
                    "rules": {"preset": "hong-kong", "scoring": "cards-left-tiered"},
                    "target_score": 30,
                    "turn_timeout": 86400,
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data

        def create() -> Response:
            timeout = fields.get("turn_timeout")
            game = services.game_create(
                creator=request.user,
                rules=fields["rules"],
                seats=[services.SeatSpec(s["type"], s.get("level", "")) for s in fields["seats"]],
                target_deals=fields.get("target_deals"),
                target_score=fields.get("target_score"),
                turn_timeout=dt.timedelta(seconds=timeout) if timeout else None,
                visibility=fields["visibility"],
                invite=fields["invite"],
                hints=fields["hints"],
                rated=fields["rated"],
            )
            return game_answer(request, game.pk, status.HTTP_201_CREATED)

        return idempotency.idempotent(request, create)


class GameDetailApi(APIView):
    class FilterSerializer(QuerySerializer):
        invite_code = StrictCharField(
            required=False,
            max_length=64,
            trim_whitespace=False,
            help_text="A private game's invite code: its holder sees the waiting game "
            "(what they are invited to, by whom) before joining.",
        )

    @extend_schema(
        operation_id="games_retrieve",
        summary="A game",
        description="The game, its seats and every deal so far (seeds of finished deals). "
        "A private waiting game is shown to anyone with its `invite_code`; a wrong code is "
        "a 404, as for no game.",
        parameters=[FilterSerializer],
        responses={200: GameDetailSerializer, **error_responses(400, 401, 404, 503)},
    )
    def get(self, request, game_id):
        query = self.FilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        code = query.validated_data.get("invite_code")
        game = selectors.game_get_with_code(game_id=game_id, viewer=request.user, invite_code=code)
        return Response(GameDetailSerializer(game, context={"viewer": request.user}).data)


class GameJoinApi(APIView):
    throttle_classes = [WriteRateThrottle]

    class InputSerializer(serializers.Serializer):
        seat = StrictIntegerField(
            required=False, min_value=0, max_value=3, help_text="A free seat; default: the first."
        )
        invite_code = StrictCharField(
            required=False,
            max_length=64,
            # Compared as sent: spaces around a code make a wrong code (404), not a
            # blank field (a 400 for a string the schema allows).
            trim_whitespace=False,
            help_text="A private game's invite code (not needed with an invitation).",
        )

    @extend_schema(
        operation_id="games_join",
        summary="Take a seat",
        description="Take a seat of a waiting game: the one an invitation reserved for you "
        "(this accepts it), else a free one (a private game needs its `invite_code`). Seats "
        "reserved for others are not free. The last human seat taken starts the game.",
        request=InputSerializer,
        responses={
            200: GameSerializer,
            **error_responses(400, 401, 404, 409, 413, 415, 422, 429, 503),
        },
    )
    def post(self, request, game_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.game_join(
            game_id=game_id,
            player=request.user,
            seat=data.validated_data.get("seat"),
            invite_code=data.validated_data.get("invite_code"),
        )
        return game_answer(request, game_id)


class GameRematchApi(APIView):
    throttle_classes = [WriteRateThrottle]

    @extend_schema(
        operation_id="games_rematch",
        summary="Ask for a rematch",
        description="After a finished game, the next one: the same rules, seats, AI levels, "
        "target, time limit and visibility. You sit where you sat; the other humans are "
        "invited to their seats. Asked again (by anyone), the same game answers, with 200.",
        request=None,
        responses={
            201: GameSerializer,
            200: GameSerializer,
            **error_responses(401, 403, 404, 409, 429, 503),
        },
    )
    def post(self, request, game_id):
        rematch = services.game_rematch(game_id=game_id, player=request.user)
        code = status.HTTP_201_CREATED if rematch.created else status.HTTP_200_OK
        return game_answer(request, rematch.game.pk, code)
