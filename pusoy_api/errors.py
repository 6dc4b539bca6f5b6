"""The one error envelope of the API: every 4xx is
`{"error": {"code": "<snake_case>", "message": "<text>", "details": {...}}}`.

DRF's own exceptions (validation, auth, throttling, 404, 405, bad JSON) are mapped to
stable codes here, so that clients switch on `code`, never on a message.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from pusoy_api.domain_errors import DomainError, ErrorCode
from pusoy_api.parsers import PayloadTooLarge

logger = logging.getLogger(__name__)


# DRF exception class -> stable code. Order matters: subclasses first.
_DRF_CODES: list[tuple[type[exceptions.APIException], ErrorCode]] = [
    (exceptions.ParseError, ErrorCode.MALFORMED_REQUEST),
    (PayloadTooLarge, ErrorCode.PAYLOAD_TOO_LARGE),
    (exceptions.AuthenticationFailed, ErrorCode.AUTHENTICATION_FAILED),
    (exceptions.NotAuthenticated, ErrorCode.NOT_AUTHENTICATED),
    (exceptions.PermissionDenied, ErrorCode.PERMISSION_DENIED),
    (exceptions.NotFound, ErrorCode.NOT_FOUND),
    (exceptions.MethodNotAllowed, ErrorCode.METHOD_NOT_ALLOWED),
    (exceptions.NotAcceptable, ErrorCode.NOT_ACCEPTABLE),
    (exceptions.UnsupportedMediaType, ErrorCode.UNSUPPORTED_MEDIA_TYPE),
    (exceptions.Throttled, ErrorCode.THROTTLED),
    (exceptions.ValidationError, ErrorCode.INVALID_INPUT),
]


def envelope(
    code: ErrorCode, message: str, details: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {"error": {"code": code.value, "message": message, "details": details or {}}}


def _drf_code(exc: exceptions.APIException) -> ErrorCode:
    for exc_class, code in _DRF_CODES:
        if isinstance(exc, exc_class):
            return code
    raise TypeError(f"no error code for {type(exc).__name__}")  # a new DRF error: a bug


def _message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _message(detail[0])
    if isinstance(detail, dict) and detail:
        field, errors = next(iter(detail.items()))
        text = _message(errors)
        return text if field == "non_field_errors" else f"{field}: {text}"
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: the same envelope for every refusal."""
    if is_outage(exc):
        return service_unavailable(exc)
    if isinstance(exc, DomainError):
        response = Response(envelope(exc.code, exc.message, exc.details), status=exc.status)
        if "retry_after" in exc.details:  # when to come back, as DRF's throttles say it
            response["Retry-After"] = str(exc.details["retry_after"])
        return response
    drf_exc = _as_drf_exception(exc)
    if drf_exc is None:
        return None  # a real bug: let Django answer 500 and log it
    answer = drf_exception_handler(drf_exc, context)
    if answer is None:
        return None
    if isinstance(drf_exc, exceptions.ValidationError):
        fields = {"fields": drf_exc.detail}
        answer.data = envelope(ErrorCode.INVALID_INPUT, _message(drf_exc.detail), fields)
    elif isinstance(drf_exc, exceptions.Throttled):
        wait = {"retry_after": getattr(drf_exc, "wait", None)}  # set by DRF, not in its stubs
        answer.data = envelope(ErrorCode.THROTTLED, _message(drf_exc.detail), wait)
    elif isinstance(drf_exc, PayloadTooLarge):
        limit = {"limit": drf_exc.limit}
        answer.data = envelope(ErrorCode.PAYLOAD_TOO_LARGE, _message(drf_exc.detail), limit)
    else:
        answer.data = envelope(_drf_code(drf_exc), _message(drf_exc.detail))
    return answer


def _as_drf_exception(exc: Exception) -> exceptions.APIException | None:
    """Django's own refusals as their DRF equivalents; None for anything else (a bug)."""
    if isinstance(exc, exceptions.APIException):
        return exc
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, RequestDataTooBig):
        return PayloadTooLarge(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied()
    return None


# --- Outages: a 5xx that is not a bug ------------------------------------------------------

# Seconds a client should wait before retrying after a 503.
RETRY_AFTER_SECONDS = 5


def is_outage(exc: BaseException) -> bool:
    """The database could not be reached or did not answer in time (a lost connection,
    the pool's wait for one, a query cut by its deadline): see docs/operations.md."""
    return isinstance(exc, OperationalError | InterfaceError)


def outage_body() -> dict[str, Any]:
    return envelope(
        ErrorCode.SERVICE_UNAVAILABLE,
        "The service is temporarily unavailable; try again shortly.",
        {"retry_after": RETRY_AFTER_SECONDS},
    )


def service_unavailable(exc: BaseException) -> Response:
    """503 with Retry-After for a DRF view; logged without a traceback, as the cause is
    outside the code and every request during an outage would log the same one."""
    logger.warning("503 service_unavailable: %s: %s", type(exc).__name__, exc)
    return Response(
        outage_body(),
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def json_404(request: Any, exception: Exception | None = None) -> JsonResponse:
    """handler404 outside DRF views (unknown paths)."""
    return JsonResponse(envelope(ErrorCode.NOT_FOUND, "No such resource."), status=404)


def json_500(request: Any) -> JsonResponse:
    """handler500: a 500 is always a bug; the body says so without leaking internals."""
    return JsonResponse(envelope(ErrorCode.SERVER_ERROR, "Internal error."), status=500)
