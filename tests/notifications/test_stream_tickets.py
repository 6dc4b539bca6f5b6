"""Event-stream tickets (`POST events/ticket`, `GET events/stream?ticket=`) as a client
sees them: spent only by a stream that is served, dead with the token that took them,
and the `ticket` parameter refused exactly where the schema says. Through HTTP, in
process: a served stream is seen by its status and type (its body is
tests/notifications/test_stream.py's, on a real server)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from rest_framework.test import APIClient

from players.services import token_issue
from tests.api.helpers import client_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

STREAM = "/api/v1/events/stream"


def _ticket(client: APIClient) -> str:
    response = client.post("/api/v1/events/ticket")
    assert response.status_code == 201, response.json()
    return response.json()["ticket"]


def _stream(client: APIClient, query: str, **headers: Any):
    # max_seconds=0: the stream is served and ends at once.
    return client.get(f"{STREAM}?{query}", HTTP_ACCEPT="text/event-stream", **headers)


def _served(response) -> bool:
    return response.status_code == 200 and response["Content-Type"] == "text/event-stream"


def _refusal(response) -> tuple[int, str]:
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()["error"]["code"]


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        ("since=-1", {}),
        ("since=x", {}),
        ("max_seconds=4000", {}),
        ("max_seconds=soon", {}),
        ("", {"HTTP_LAST_EVENT_ID": "abc"}),
        ("since=3", {"HTTP_LAST_EVENT_ID": "-3"}),
    ],
)
def test_a_request_refused_for_another_parameter_leaves_its_ticket_unspent(
    query, headers, api_client
):
    ticket = _ticket(client_for("ana"))
    refused = _stream(api_client, f"ticket={ticket}&{query}", **headers)
    assert _refusal(refused) == (400, "invalid_input")
    # The client fixes its request and uses the same ticket: the stream is served once.
    assert _served(_stream(api_client, f"ticket={ticket}&max_seconds=0"))
    again = _stream(api_client, f"ticket={ticket}&max_seconds=0")
    assert _refusal(again) == (401, "invalid_ticket")


def test_a_ticket_dies_with_the_token_that_took_it(api_client):
    ana = client_for("ana")
    ticket = _ticket(ana)
    assert ana.post("/api/v1/auth/logout").status_code == 204
    refused = _stream(api_client, f"ticket={ticket}&max_seconds=0")
    assert _refusal(refused) == (401, "invalid_ticket")


def test_logging_out_one_device_leaves_the_tickets_of_another(api_client):
    ana = client_for("ana")
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(player=ana.player)}")
    phone_ticket, laptop_ticket = _ticket(phone), _ticket(ana)
    assert ana.post("/api/v1/auth/logout").status_code == 204
    assert _served(_stream(api_client, f"ticket={phone_ticket}&max_seconds=0"))
    gone = _stream(api_client, f"ticket={laptop_ticket}&max_seconds=0")
    assert _refusal(gone) == (401, "invalid_ticket")


def test_a_ticket_dies_when_its_token_expires(api_client):
    """An operator can give a token an expiry (knox); the token's tickets end with it."""
    import datetime as dt

    from django.utils import timezone
    from knox.models import AuthToken

    ana = client_for("ana")
    ticket = _ticket(ana)
    AuthToken.objects.filter(user=ana.player).update(
        expiry=timezone.now() - dt.timedelta(seconds=1)
    )
    refused = _stream(api_client, f"ticket={ticket}&max_seconds=0")
    assert _refusal(refused) == (401, "invalid_ticket")


def _ticket_schema(client) -> dict[str, Any]:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    parameters = schema["paths"][STREAM]["get"]["parameters"]
    (ticket,) = (p for p in parameters if p["in"] == "query" and p["name"] == "ticket")
    return ticket["schema"]


def _schema_allows(schema: dict[str, Any], value: str) -> bool:
    # JSON Schema's `^...$` pattern anchors the whole string (ECMA `$` takes no newline).
    body = schema.get("pattern", "^.*$").removeprefix("^").removesuffix("$")
    return (
        schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value))
        and re.fullmatch(body, value, re.DOTALL) is not None
    )


@pytest.mark.parametrize(
    "value",
    ["\t", " ", "", " abc", "abc ", "abc\n", "a+b", "a/b", "é", "A" * 129, "-_aZ09", "A" * 128],
)
def test_the_ticket_parameter_is_refused_exactly_where_the_schema_says(value, client):
    """A client built from the schema never sends a ticket the server calls malformed:
    with a bearer header a well-formed ticket is ignored, anything else is a 400."""
    allowed = _schema_allows(_ticket_schema(client), value)
    answer = _stream(client_for("ana"), f"ticket={quote(value, safe='')}&max_seconds=0")
    if allowed:
        assert _served(answer)
    else:
        assert _refusal(answer) == (400, "invalid_input")


def test_a_malformed_ticket_alone_is_an_invalid_ticket(api_client):
    """Without a token the ticket is the credential: a wrong one, of any form, is 401."""
    for value in ("%09", "nope", "A" * 129):
        assert _refusal(_stream(api_client, f"ticket={value}")) == (401, "invalid_ticket")
