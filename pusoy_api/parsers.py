"""The API's JSON parser: DRF's, with a size limit and a nesting limit of its own.

Both limits are checked while parsing, before any view or serializer sees the data, so
no endpoint can be handed a body it was not written for: a body over the limit is 413
`payload_too_large`, and JSON nested deeper than any API body needs is 400
`malformed_request` (at depth 1,000 Python's own decoder ran out of stack: a 500).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import exceptions, parsers, status
from rest_framework.exceptions import ParseError
from rest_framework.utils import json


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"

    def __init__(self, limit: int) -> None:
        super().__init__(detail=f"The body is larger than {limit} bytes.")
        self.limit = limit


# The deepest body the API takes is a game record (object > moves > move > cards: 4).
MAX_JSON_DEPTH = 32


def too_deep(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when containers nest more than `limit` levels (checked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(limit)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        too_deep_error = f"JSON nested deeper than {MAX_JSON_DEPTH} levels."
        try:
            data = json.loads(raw.decode(encoding))  # DRF's: refuses NaN and Infinity
        except RecursionError as exc:  # nested past the decoder's own stack
            raise ParseError(too_deep_error) from exc
        except ValueError as exc:  # includes UnicodeDecodeError and JSONDecodeError
            raise ParseError(f"JSON parse error - {exc}") from exc
        if too_deep(data):
            raise ParseError(too_deep_error)
        return data
