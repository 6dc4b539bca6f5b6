"""Every answer under `/api/` is JSON in the error envelope, in every mode.

DRF views answer their own errors in the envelope (pusoy_api/errors.py). What reaches a
client without passing through one (an unknown path, Django's DEBUG pages, a request
Django refused before any view, such as a bad Host header) is HTML by default; this
middleware, outermost but for security, gives those answers the envelope too, keeping
their status and headers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.decorators import sync_and_async_middleware

from pusoy_api.domain_errors import ErrorCode
from pusoy_api.errors import envelope

API_PREFIX = "/api/"

_CODES = {
    400: (ErrorCode.BAD_REQUEST, "The request could not be understood."),
    403: (ErrorCode.PERMISSION_DENIED, "Not allowed."),
    404: (ErrorCode.NOT_FOUND, "No such resource."),
    405: (ErrorCode.METHOD_NOT_ALLOWED, "Method not allowed."),
    413: (ErrorCode.PAYLOAD_TOO_LARGE, "The body is too large."),
    500: (ErrorCode.SERVER_ERROR, "Internal error."),
}
# Headers a client may need from the original answer (Allow on a 405, say).
_KEPT_HEADERS = ("Allow", "Retry-After")


def _enveloped(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    if (
        response.status_code < 400
        or not request.path.startswith(API_PREFIX)
        or response.get("Content-Type", "").startswith("application/json")
    ):
        return response
    other = ErrorCode.SERVER_ERROR if response.status_code >= 500 else ErrorCode.BAD_REQUEST
    code, message = _CODES.get(response.status_code, (other, "The request failed."))
    answer = JsonResponse(envelope(code, message), status=response.status_code)
    for header in _KEPT_HEADERS:
        if header in response:
            answer[header] = response[header]
    return answer


@sync_and_async_middleware
def api_errors_as_json(get_response: Callable[[HttpRequest], Any]) -> Callable[..., Any]:
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            response = await get_response(request)
            return _enveloped(request, response)

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponseBase:
        return _enveloped(request, get_response(request))

    return sync_middleware
