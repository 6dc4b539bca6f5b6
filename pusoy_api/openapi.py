"""OpenAPI pieces shared by every endpoint: the error envelope and its responses."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

ErrorSerializer = inline_serializer(
    name="Error",
    fields={
        "error": inline_serializer(
            name="ErrorBody",
            fields={
                "code": serializers.CharField(help_text="Stable snake_case code."),
                "message": serializers.CharField(help_text="Human text; may change."),
                "details": serializers.DictField(help_text="Code-specific data."),
            },
        )
    },
)

_DESCRIPTIONS = {
    400: "Invalid input (`invalid_input`, `malformed_request`, card or combination codes).",
    401: "Missing or bad token (`not_authenticated`, `authentication_failed`).",
    403: "Not allowed (`not_a_participant`, `permission_denied`).",
    404: "No such resource (`not_found`).",
    409: "Conflict with the current state (`not_your_turn`, `stale_seq`, `seat_taken`, ...).",
    413: "The body is larger than the server accepts (`payload_too_large`).",
    415: "The body is not `application/json` (`unsupported_media_type`).",
    422: "Well-formed but refused (illegal move codes, `idempotency_key_reused`).",
    429: "Too many requests (`throttled`; `details.retry_after` and `Retry-After` in seconds).",
    503: "A backing service (the database) is unreachable (`service_unavailable`); retry "
    "after the `Retry-After` header's seconds.",
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    return {
        code: OpenApiResponse(response=ErrorSerializer, description=_DESCRIPTIONS[code])
        for code in statuses
    }


class AutoSchema(BaseAutoSchema):
    """Names HackSoft-style nested serializers after their view, so they neither collide
    nor read twice: `RegisterApi.InputSerializer` is `Register` (with the split request
    components, `RegisterRequest`), a view's `request_name` overrides that, and any other
    nested serializer is the view's name and its own (`RecordVerifyApi.OutputSerializer`
    -> `RecordVerifyOutput`)."""

    def get_serializer_name(self, serializer, direction):  # type: ignore[no-untyped-def]
        cls = serializer if isinstance(serializer, type) else type(serializer)
        outer, _, inner = cls.__qualname__.rpartition(".")
        if not outer:
            return super().get_serializer_name(serializer, direction)
        view_name = outer.removesuffix("Api")
        if inner == "InputSerializer":
            return getattr(self.view, "request_name", view_name)
        return view_name + inner.removesuffix("Serializer")
