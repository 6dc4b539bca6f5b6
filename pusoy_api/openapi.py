"""OpenAPI pieces shared by every endpoint: the error envelope and its responses."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

from pusoy_api.domain_errors import ErrorCode

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

_SUMMARIES = {
    400: "The request is not what the schema describes",
    401: "Missing or bad token, or a wrong login",
    403: "Not allowed",
    404: "No such resource",
    409: "Conflict with the game's current state",
    413: "The body is too large",
    415: "The body is not JSON",
    422: "The schema allows it; the rules refuse it",
    429: "Too many requests (`details.retry_after` and `Retry-After` in seconds)",
    503: "The database is unreachable or overloaded; retry after `Retry-After` seconds",
}


def _description(status: int) -> str:
    """A status's summary and every code it can carry (from ErrorCode, the one table)."""
    codes = ", ".join(f"`{code.value}`" for code in ErrorCode.for_status(status))
    return f"{_SUMMARIES[status]}: {codes}."


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    return {
        code: OpenApiResponse(response=ErrorSerializer, description=_description(code))
        for code in statuses
    }


class AutoSchema(BaseAutoSchema):
    """Names HackSoft-style nested serializers after their view, so they neither collide
    nor read twice: `RegisterApi.InputSerializer` is `Register` (with the split request
    components, `RegisterRequest`), a view's `request_name` overrides that, and any other
    nested serializer is the view's name and its own (`RecordVerifyApi.OutputSerializer`
    -> `RecordVerifyOutput`)."""

    def get_serializer_name(self, serializer, direction):
        cls = serializer if isinstance(serializer, type) else type(serializer)
        outer, _, inner = cls.__qualname__.rpartition(".")
        if not outer:
            return super().get_serializer_name(serializer, direction)
        view_name = outer.removesuffix("Api")
        if inner == "InputSerializer":
            return getattr(self.view, "request_name", view_name)
        # `MeApi.DeleteInputSerializer` -> `MeDelete` (`MeDeleteRequest` once split).
        return view_name + inner.removesuffix("Serializer").removesuffix("Input")

    def _get_request_body(self, direction="request"):
        # drf-spectacular documents a body for PUT, PATCH and POST only; a view whose
        # DELETE takes one (`DELETE players/me {password}`, a contract) says so with a
        # `DeleteInputSerializer`, and that body is documented too.
        if self.method != "DELETE" or not hasattr(self.view, "DeleteInputSerializer"):
            return super()._get_request_body(direction)
        self.method = "POST"
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"


# OpenAPI links: how the answer of one operation feeds the next (a generated client can
# follow them; a stateful fuzzer walks them from a new game to its moves and records).
_GAME_ID = "$response.body#/id"
_LINKS: dict[tuple[str, str], dict[str, dict[str, Any]]] = {
    ("auth_register", "201"): {
        "GetPlayer": {"operationId": "players_retrieve", "parameters": {"player_id": _GAME_ID}},
    },
    **{
        (source, status): {
            name: {"operationId": target, "parameters": {"game_id": _GAME_ID}}
            for name, target in (
                ("GetGame", "games_retrieve"),
                ("GetState", "games_state"),
                ("JoinGame", "games_join"),
                ("MakeMove", "games_moves_create"),
                ("ListMoves", "games_moves_list"),
            )
        }
        for source, status in (("games_create", "201"), ("games_join", "200"))
    },
    ("games_retrieve", "200"): {
        name: {
            "operationId": target,
            "parameters": {"game_id": _GAME_ID, "number": "$response.body#/deals/0/number"},
        }
        for name, target in (("GetRecord", "games_deal_record"), ("GetReplay", "games_deal_replay"))
    },
    ("webhooks_create", "201"): {
        name: {"operationId": target, "parameters": {"webhook_id": "$response.body#/id"}}
        for name, target in (
            ("ListDeliveries", "webhooks_deliveries"),
            ("DeleteWebhook", "webhooks_delete"),
        )
    },
}


# DRF reads a JSON body's strings with CharFields, and a CharField refuses NUL with a 400
# (ProhibitNullCharactersValidator) that its schema does not mention: a string the schema
# calls valid would be refused. Every body string without a pattern or enum of its own
# says so here; one with a pattern must exclude NUL itself (tests/api/test_request_strings).
NO_NUL_PATTERN = r"^[^\x00]*$"


def _strings_refuse_nul(schema: Any, components: dict[str, Any], seen: set[str]) -> None:
    """Give NO_NUL_PATTERN to every free string under `schema`, a request body's schema
    (its components followed, each once)."""
    if not isinstance(schema, dict):
        return
    name = schema.get("$ref", "").rpartition("/")[2]
    if name:
        if name not in seen:
            seen.add(name)
            _strings_refuse_nul(components.get(name), components, seen)
        return
    if schema.get("type") == "string" and not {"pattern", "enum", "const"} & set(schema):
        schema["pattern"] = NO_NUL_PATTERN
    subschemas = [*schema.get("properties", {}).values(), schema.get("items")]
    subschemas += [schema.get("additionalProperties")]
    for key in ("oneOf", "anyOf", "allOf"):
        subschemas += schema.get(key, [])
    for sub in subschemas:
        _strings_refuse_nul(sub, components, seen)


def refine_schema(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular post-processing hook: the links above on their responses, a body
    marked required wherever its schema requires something (drf-spectacular cannot tell
    for a polymorphic body, such as a move), and NUL refused in every body string."""
    components = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()
    for item in result.get("paths", {}).values():
        for operation in item.values():
            for (operation_id, status), links in _LINKS.items():
                if operation.get("operationId") == operation_id:
                    operation["responses"][status]["links"] = links
            body = operation.get("requestBody")
            if body is not None:
                schema = body["content"]["application/json"]["schema"]
                name = schema.get("$ref", "").rpartition("/")[2]
                component = components.get(name, schema)
                if component.get("oneOf") or component.get("required"):
                    body["required"] = True
                _strings_refuse_nul(schema, components, seen)
    return result
