"""Game endpoints: lobby, seats, the player's view, moves, history, records, replays.

Thin views (HackSoft style): validate input with a nested serializer, call one service
or selector, render its result with an output serializer (games/serializers.py). The
rules live in the engine; the transactions in services.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from adrf.views import APIView as AsyncAPIView
from asgiref.sync import sync_to_async
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games import idempotency, selectors, services
from games.inputs import (
    MAX_SEQ,
    MOVE_REQUEST_SCHEMA,
    MoveInputSerializer,
    RulesSpecField,
    SeatListField,
)
from games.models import GameStatus, InvitationStatus, Visibility
from games.serializers import (
    GAME_STATE_SCHEMA,
    GameDetailSerializer,
    GameSerializer,
    HintSerializer,
    HistorySerializer,
    InvitationSerializer,
    MoveAcceptedSerializer,
    RecordSerializer,
    ReplaySerializer,
    game_state_data,
)
from players.throttles import WriteRateThrottle
from pusoy.engine import verify_record
from pusoy_api.fields import (
    QueryBooleanField,
    QueryIntegerField,
    QuerySerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    UsernameRefField,
)
from pusoy_api.openapi import error_responses
from pusoy_api.pagination import StrictLimitOffsetPagination
from pusoy_api.realtime import longpoll
from pusoy_api.realtime.keys import game_key

MAX_DEAL = 32767

# --- Lobby ---------------------------------------------------------------------------


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


def game_answer(request: Any, game_id: Any, status_code: int = status.HTTP_200_OK) -> Response:
    """The game as it now stands, as the caller may see it."""
    game = selectors.game_get(game_id=game_id)
    return Response(GameSerializer(game, context={"viewer": request.user}).data, status=status_code)


IDEMPOTENCY_PARAMETER = OpenApiParameter(
    idempotency.HEADER,
    {"type": "string", "minLength": 1, "maxLength": idempotency.MAX_KEY_LENGTH},
    OpenApiParameter.HEADER,
    description="Any unique string (1-255 characters); a retry with the same key and body "
    "returns the first answer. Keys expire after 24 hours.",
)


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


class GameExitApi(APIView):
    """One of the ways out of a game (`service`); answers the game as it now stands."""

    throttle_classes = [WriteRateThrottle]
    service: Any = None

    def post(self, request, game_id):
        type(self).service(game_id=game_id, player=request.user)
        return game_answer(request, game_id)


@extend_schema_view(
    post=extend_schema(
        operation_id="games_leave",
        summary="Leave a waiting game",
        description="Your seat is open again. The creator leaving cancels the game.",
        request=None,
        responses={200: GameSerializer, **error_responses(401, 403, 404, 409, 429, 503)},
    )
)
class GameLeaveApi(GameExitApi):
    service = staticmethod(services.game_leave)


@extend_schema_view(
    post=extend_schema(
        operation_id="games_cancel",
        summary="Cancel a waiting game",
        description="The creator calls the game off: it ends `abandoned`, nothing scored; "
        "open invitations are cancelled.",
        request=None,
        responses={200: GameSerializer, **error_responses(401, 403, 404, 409, 429, 503)},
    )
)
class GameCancelApi(GameExitApi):
    service = staticmethod(services.game_cancel)


@extend_schema_view(
    post=extend_schema(
        operation_id="games_resign",
        summary="Resign",
        description="Leave an active game for good: an AI (`RESIGNED_SEAT_AI_LEVEL`, "
        "heuristic by default) plays your seat to the end of the match so the others can "
        "finish; you are ranked last and it counts as a loss. When the last human resigns "
        "the game ends `abandoned`.",
        request=None,
        responses={200: GameSerializer, **error_responses(401, 403, 404, 409, 429, 503)},
    )
)
class GameResignApi(GameExitApi):
    service = staticmethod(services.game_resign)


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


# --- Invitations ---------------------------------------------------------------------------


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


# --- Moves ---------------------------------------------------------------------------


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
            return Response(MoveAcceptedSerializer(body).data, status=status.HTTP_201_CREATED)

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
    return HistorySerializer(selectors.deal_moves(game=game, number=number, since=since)).data


# --- Records and replays ---------------------------------------------------------------


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
