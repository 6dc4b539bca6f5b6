"""Event-stream tickets (`POST events/ticket`, `GET events/stream?ticket=`) as a client
sees them: spent only by a stream that is served, dead with the token that took them.
Through HTTP, in process: a served stream is seen by its status and type (its body is
tests/notifications/test_stream.py's, on a real server)."""

from __future__ import annotations

from typing import Any

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
