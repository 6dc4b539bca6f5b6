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
    public = {"auth_register", "auth_token", "records_verify"}
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
