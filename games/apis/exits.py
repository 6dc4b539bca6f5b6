"""Leaving a game: leave a waiting one, cancel your own, resign an active one."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework.views import APIView

from games import services
from games.apis.common import game_answer
from games.serializers import (
    GameSerializer,
)
from players.throttles import WriteRateThrottle
from pusoy_api.openapi import error_responses


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
