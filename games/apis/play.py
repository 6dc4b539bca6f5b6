"""Playing: your view of the table, a hint, moves and the history (long-polled)."""

from __future__ import annotations

import functools
from typing import Any

from adrf.views import APIView as AsyncAPIView
from asgiref.sync import sync_to_async
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games import idempotency, selectors, services
from games.inputs import (
    MAX_SEQ,
    MOVE_REQUEST_SCHEMA,
    MoveInputSerializer,
)
from games.serializers import (
    GAME_STATE_SCHEMA,
    HintSerializer,
    HistorySerializer,
    MoveAcceptedSerializer,
    game_state_data,
    history_data,
    move_accepted_data,
)
from players.throttles import WriteRateThrottle
from pusoy_api.fields import (
    QueryIntegerField,
    QuerySerializer,
)
from pusoy_api.openapi import error_responses
from pusoy_api.realtime import longpoll
from pusoy_api.realtime.keys import game_key

MAX_DEAL = 32767


class GameStateApi(APIView):
    @extend_schema(
        operation_id="games_state",
        summary="Your view of the table",
        description="Seated: your hand, every seat's card count, the play to beat, whose "
        "turn, passes, scores, the deal's seq and seed commitment, and on your turn every "
        "legal move (`view: player`). Anyone else, in a public game, watches: the same "
        "table with no hand at all (`view: spectator`). Never another player's cards.",
        responses={200: GAME_STATE_SCHEMA, **error_responses(401, 404, 503)},
    )
    def get(self, request, game_id):
        game = selectors.game_get(game_id=game_id, viewer=request.user)
        state = selectors.game_state_for_viewer(game=game, viewer=request.user)
        return Response(game_state_data(state))


class GameHintApi(APIView):
    @extend_schema(
        operation_id="games_hint",
        summary="A hint for your turn",
        description="In a game created with `hints: true`, on your turn: a suggested legal "
        "move (post it as it is) and a one-sentence reason. The suggestion uses only your "
        "own view of the table, as the bots do; asked again before anyone moves, it is the "
        "same.",
        responses={200: HintSerializer, **error_responses(401, 403, 404, 409, 503)},
    )
    def get(self, request, game_id):
        game = selectors.game_get(game_id=game_id, viewer=request.user)
        return Response(
            HintSerializer(selectors.hint_for_player(game=game, player=request.user)).data
        )


class MovesApi(AsyncAPIView):
    """POST a move; GET the public history, long-polling with `?wait=`.

    An async DRF view (adrf): a GET that waits awaits the long-poll hub
    on the event loop, holding no thread and no database connection; everything that
    touches the database runs in the request's own thread, as a sync view would.
    """

    request_name = "Move"

    class FilterSerializer(QuerySerializer):
        deal = QueryIntegerField(
            required=False, min_value=1, max_value=MAX_DEAL, help_text="Default: the current."
        )
        since = QueryIntegerField(
            required=False,
            min_value=0,
            max_value=MAX_SEQ,
            default=0,
            help_text="Only moves after this seq.",
        )
        wait = serializers.FloatField(
            required=False,
            min_value=0,
            max_value=longpoll.MAX_WAIT_SECONDS,
            default=0,
            help_text="Hold the request up to this many seconds until a move after `since` "
            "(answers at once when the deal is over).",
        )

    def get_throttles(self):
        return [WriteRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="games_moves_create",
        summary="Make a move",
        description="Play cards or pass on your turn. Checked in a fixed order (docs/api.md); "
        "a refused move changes nothing. With `expected_seq` the move applies only if "
        "nobody moved since you looked. With an `Idempotency-Key` header a retry returns "
        "the first answer, byte for byte, and applies nothing twice.",
        request=MOVE_REQUEST_SCHEMA,
        parameters=[
            OpenApiParameter(
                idempotency.HEADER,
                {"type": "string", "minLength": 1, "maxLength": idempotency.MAX_KEY_LENGTH},
                OpenApiParameter.HEADER,
                description="Any unique string (1-255 characters); a retry with the same key "
                "and body returns the first answer. Keys expire after 24 hours.",
            )
        ],
        responses={
            201: MoveAcceptedSerializer,
            **error_responses(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        },
        examples=[
            OpenApiExample(
                "Play a pair", value={"action": "play", "cards": ["9S", "9H"], "expected_seq": 12}
            ),
            OpenApiExample("Pass", value={"action": "pass", "expected_seq": 13}),
        ],
    )
    async def post(self, request, game_id):
        return await sync_to_async(self._post)(request, game_id)

    def _post(self, request, game_id):
        data = MoveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def submit() -> Response:
            outcome = services.move_submit(
                game_id=game_id,
                player=request.user,
                action=data.validated_data["action"],
                cards=data.validated_data.get("cards"),
                expected_seq=data.validated_data.get("expected_seq"),
            )
            state = selectors.game_state_for_player(
                game=outcome.game, player=request.user, deal=outcome.deal, state=outcome.state
            )
            body = {"move": outcome.move, "state": state, "ended_deal": outcome.ended_deal}
            return Response(move_accepted_data(body), status=status.HTTP_201_CREATED)

        return idempotency.idempotent(request, submit)

    @extend_schema(
        operation_id="games_moves_list",
        summary="The history of a deal",
        description="The public moves of the current deal (or `deal`), after `since`. With "
        "`wait`, the request is held until a move after `since` exists (by anyone, on any "
        "server) or the time runs out. Use `last_seq` as the next `since`.",
        parameters=[FilterSerializer],
        responses={200: HistorySerializer, **error_responses(400, 401, 404, 503)},
    )
    async def get(self, request, game_id):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        deal, since, wait = (filters.validated_data.get(k) for k in ("deal", "since", "wait"))
        read = functools.partial(
            history_answer, game_id=game_id, viewer=request.user, number=deal, since=since
        )
        if not wait:
            return Response(await sync_to_async(read)())
        body = await longpoll.wait_for_news(
            key=game_key(game_id),
            ask=(deal, since),
            seconds=wait,
            read=read,
            # News: a move after `since`, or another deal than the one the client saw.
            # Unnamed, that deal is the one `since` counts in: a `since` past the current
            # deal's last move belongs to a deal that has ended since, and the answer
            # (with the new deal's number) is news at once.
            is_news=lambda answer: (
                bool(answer["moves"]) or (deal is None and since > answer["last_seq"])
            ),
            is_final=lambda answer: answer["finished"],
        )
        return Response(body)


def history_answer(*, game_id: Any, viewer: Any, number: int | None, since: int) -> dict[str, Any]:
    """The history as the API renders it (what a waiter is answered with, when it wakes)."""
    game = selectors.game_get(game_id=game_id, viewer=viewer)
    return history_data(selectors.deal_moves(game=game, number=number, since=since))
