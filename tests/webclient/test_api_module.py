"""The web client's API module is generated from the schema, and the client's code calls
the server through it only: every call names an operation the schema has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator

from webclient import schema_client

STATIC = Path(__file__).resolve().parents[2] / "webclient" / "static" / "webclient"
# A call or a reference (`submit(api.auth_token)`); not the module's own path, "/app/api.js".
API_CALL = re.compile(r"(?<![/\w])api\.([A-Za-z_$][\w$]*)")


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def client_sources() -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(STATIC.glob("*.js"))}


def test_every_api_call_of_the_client_is_an_operation_of_the_schema(schema):
    operations = schema_client.operations(schema)
    called = {
        (name, operation)
        for name, source in client_sources().items()
        for operation in API_CALL.findall(source)
    }
    assert called, "the scan found no call: it would prove nothing"
    unknown = sorted((name, op) for name, op in called if op not in operations)
    assert unknown == []
    # What a player does needs these; a rename in the schema must show up here.
    used = {op for _, op in called}
    assert {
        "auth_register", "auth_token", "auth_logout", "players_me", "games_list",
        "games_create", "games_join", "games_state", "games_moves_list",
        "games_moves_create", "games_deal_record", "records_verify", "invitations_list",
        "invitations_accept", "invitations_decline", "games_resign", "games_leave",
        "games_cancel", "games_rematch",
    } <= used  # fmt: skip


def test_the_client_names_no_path_and_fetches_only_in_one_place():
    for name, source in client_sources().items():
        assert "/api/v1" not in source, f"{name} spells out an API path"
        if name != "http.js":
            assert "fetch(" not in source, f"{name} calls fetch: go through the API module"
            assert "XMLHttpRequest" not in source, name
            # The event stream (feed.js) is the one thing fetch cannot read as the
            # browser should: its URL comes from the API module's operations.
            if name != "feed.js":
                assert "EventSource" not in source, name


def test_no_asset_is_loaded_from_another_origin():
    template = (STATIC.parents[1] / "templates" / "webclient" / "index.html").read_text()
    for name, text in [*client_sources().items(), ("index.html", template)]:
        assert not re.search(r"(?:src|href)=[\"']?(?:https?:)?//", text), name
        assert not re.search(r"import[^;]*from\s+[\"'](?:https?:)?//", text), name


def test_the_module_has_one_function_per_operation_with_its_method_and_path(schema):
    source = schema_client.render(schema, http_module="/static/webclient/http.js")
    operations = schema_client.operations(schema)
    assert len(operations) == sum(
        1
        for item in schema["paths"].values()
        for method in item
        if method in schema_client.HTTP_METHODS
    )
    for op_id in operations:
        assert re.search(rf"^export function {op_id}\(", source, re.M), op_id
    state = operations["games_state"]
    assert (state["method"], state["path"], state["path_params"]) == (
        "GET",
        "/api/v1/games/{game_id}/state",
        ["game_id"],
    )
    moves = operations["games_moves_list"]
    assert {"since", "wait"} <= set(moves["query"])
    assert operations["games_moves_create"]["headers"] == ["Idempotency-Key"]
    assert operations["records_verify"]["auth"] is False
    assert operations["games_create"]["auth"] is True
    assert "@typedef {Object} GameState" in source or "@typedef {(" in source
    assert " * @typedef {Object} Record\n" in source


def test_an_operation_id_that_is_no_javascript_name_is_refused():
    schema = {
        "paths": {"/x": {"get": {"operationId": "x-y", "responses": {}}}},
        "components": {"schemas": {}},
    }
    with pytest.raises(ValueError, match="x-y"):
        schema_client.render(schema, http_module="/h.js")


def test_js_types_follow_the_schema():
    assert schema_client._js_type({"type": "array", "items": {"type": "integer"}}) == (
        "Array<number>"
    )
    assert schema_client._js_type({"$ref": "#/components/schemas/Seat", "nullable": True}) == (
        "(Seat|null)"
    )
    assert schema_client._js_type({"enum": ["a", "b"]}) == '("a"|"b")'


def test_every_error_code_of_the_api_has_a_sentence_in_the_client():
    from pusoy_api.domain_errors import ErrorCode

    source = (STATIC / "errors.js").read_text()
    table = set(re.findall(r"^  (\w+):", source, re.M))
    assert sorted(code.value for code in ErrorCode if code.value not in table) == []
    assert table - {code.value for code in ErrorCode} == {"network_error"}
