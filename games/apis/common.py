"""What the game endpoints share: the answer with a game's detail, and the
`Idempotency-Key` header as the schema describes it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiParameter,
)
from rest_framework import status
from rest_framework.response import Response

from games import idempotency, selectors
from games.serializers import (
    GameSerializer,
)


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
