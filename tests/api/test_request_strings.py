"""Strings in JSON bodies: the schema says which characters each one may hold, and the
server refuses exactly those it does not allow, so a client built from the schema never
sends a string that gets a 400."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.helpers import client_for, create_game

pytestmark = pytest.mark.django_db

NUL_STRINGS = ["\x00", "a\x00", "\x00b", "ana\x00ben"]


def _body_strings(
    schema: dict[str, Any], components: dict[str, Any], where: str, seen: set[str]
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every string schema a request body can hold, with where it is."""
    ref = schema.get("$ref", "")
    if ref:
        name = ref.rpartition("/")[2]
        if name not in seen:
            seen.add(name)
            yield from _body_strings(components[name], components, name, seen)
        return
    if schema.get("type") == "string":
        yield where, schema
    for key, sub in schema.get("properties", {}).items():
        yield from _body_strings(sub, components, f"{where}.{key}", seen)
    if isinstance(schema.get("items"), dict):
        yield from _body_strings(schema["items"], components, f"{where}[]", seen)
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _body_strings(schema["additionalProperties"], components, f"{where}{{}}", seen)
    for key in ("oneOf", "anyOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            yield from _body_strings(sub, components, f"{where}<{key}{i}>", seen)


def test_every_string_of_every_body_refuses_nul_in_the_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    seen: set[str] = set()
    strings = [
        (f"{method} {path}: {where}", string)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if "requestBody" in operation
        for media in operation["requestBody"]["content"].values()
        for where, string in _body_strings(media["schema"], components, "body", seen)
    ]
    assert any("invite_code" in where for where, _ in strings)
    for where, string in strings:
        if "enum" in string:
            continue
        assert "pattern" in string, where
        # The pattern as a JSON Schema validator reads it: matched anywhere, unless anchored.
        for text in NUL_STRINGS:
            assert re.search(string["pattern"], text) is None, (where, text)


def refused(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


@pytest.mark.parametrize("text", NUL_STRINGS)
def test_a_nul_in_a_body_string_is_400_as_the_schema_says(text):
    ana = client_for("ana")
    game = create_game(ana, [{"type": "human"}] * 3, visibility="private")
    url = f"/api/v1/games/{game['id']}"
    bodies = [
        ("/join", {"invite_code": text}),
        ("/invitations", {"username": text}),
        ("/moves", {"action": "play", "cards": [text]}),
    ]
    for suffix, body in bodies:
        answer = client_for(f"eve{len(suffix)}").post(url + suffix, body, format="json")
        assert refused(answer)[0] == 400, (suffix, answer.json())
    create = ana.post(
        "/api/v1/games", {"seats": [{"type": "human"}] * 2, "invite": [text]}, format="json"
    )
    assert refused(create) == (400, "invalid_input")
