"""The OpenAPI schema validates, and the schema and docs pages answer."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/schema/", "/api/docs/", "/api/redoc/"])
def test_schema_and_docs_pages_answer(client, path):
    response = client.get(path)
    assert response.status_code == 200


def test_schema_is_openapi_3_with_bearer_auth(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"


def test_schema_validates_without_warnings():
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    assert "openapi" in out.getvalue()


def test_unknown_path_is_a_json_404(client):
    response = client.get("/no/such/path")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_every_api_operation_documents_auth_and_its_errors(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    public = {"auth_register", "auth_token", "auth_guest", "records_verify"}
    operations = [
        op
        for path, item in schema["paths"].items()
        if path.startswith("/api/v1/")
        for method, op in item.items()
        if method in {"get", "post"}
    ]
    assert len(operations) >= 16
    for op in operations:
        error_codes = [code for code in op["responses"] if code.startswith("4")]
        assert error_codes, op["operationId"]
        for code in error_codes:
            ref = op["responses"][code]["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/Error", (op["operationId"], code)
        if op["operationId"] not in public:
            assert {"bearerAuth": []} in op.get("security", []), op["operationId"]


def _schema(client) -> dict:
    return client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def _operations(schema: dict):
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                yield path, method, op


def test_every_operation_has_a_summary_and_a_description(client):
    for path, method, op in _operations(_schema(client)):
        assert op.get("summary"), (method, path)
        assert op.get("description"), (method, path)


def test_component_names_read_once(client):
    names = _schema(client)["components"]["schemas"]
    assert not [n for n in names if "RequestRequest" in n or "InputRequest" in n]
    assert {"GameCreateRequest", "MoveSubmitRequest", "SeatSpecRequest", "AuthToken"} <= set(names)


def _untyped(schema: dict, where: str):
    """Places where a value could be anything: no type, no reference, no alternatives."""
    if not isinstance(schema, dict):
        return
    keys = set(schema) - {"description", "readOnly", "writeOnly", "nullable", "title"}
    if not keys & {"type", "$ref", "oneOf", "allOf", "anyOf", "enum"}:
        yield where
    free_form = schema.get("additionalProperties") not in (None, False)
    if schema.get("type") == "object" and free_form and not schema.get("properties"):
        yield where + " (free-form object)"
    for name, sub in schema.get("properties", {}).items():
        yield from _untyped(sub, f"{where}.{name}")
    if "items" in schema:
        yield from _untyped(schema["items"], f"{where}[]")
    for key in ("oneOf", "allOf", "anyOf"):
        for i, sub in enumerate(schema.get(key, [])):
            yield from _untyped(sub, f"{where}<{key}{i}>")


def test_every_field_of_every_answer_and_body_is_typed(client):
    schema = _schema(client)
    loose = [
        place
        for name, component in schema["components"]["schemas"].items()
        for place in _untyped(component, name)
    ]
    # An error's details differ by code (docs/api.md lists them): an object by design.
    assert loose == ["ErrorBody.details (free-form object)"]


def test_constraints_are_in_the_schema(client):
    components = _schema(client)["components"]["schemas"]
    create = components["GameCreateRequest"]["properties"]
    assert (create["seats"]["minItems"], create["seats"]["maxItems"]) == (2, 4)
    assert create["turn_timeout"]["minimum"] == 10
    games = _schema(client)["paths"]["/api/v1/games"]["get"]
    limit = next(p for p in games["parameters"] if p["name"] == "limit")
    assert (limit["schema"]["minimum"], limit["schema"]["maximum"]) == (1, 100)
    assert (
        "PaginatedGameList"
        in games["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    )


def test_every_write_documents_its_body_errors_and_outages(client):
    for path, method, op in _operations(_schema(client)):
        codes = set(op["responses"])
        assert "503" in codes, (method, path)
        if method == "post" and "requestBody" in op:
            assert {"400", "413", "415"} <= codes, (method, path)


def test_the_main_bodies_have_examples(client):
    schema = _schema(client)
    for path in ("/api/v1/games", "/api/v1/games/{game_id}/moves", "/api/v1/auth/register"):
        body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert body.get("examples"), path
