"""Clients for the account tests: each logs in through HTTP as a device of its own."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.factories import TEST_PASSWORD


def device(username: str, password: str = TEST_PASSWORD, user_agent: str = "test") -> APIClient:
    """A client logged in (auth/token) with this User-Agent."""
    client = APIClient(HTTP_USER_AGENT=user_agent)
    response = client.post(
        "/api/v1/auth/token", {"username": username, "password": password}, format="json"
    )
    assert response.status_code == 200, response.json()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {response.json()['token']}")
    return client


def guest(user_agent: str = "guest-app") -> tuple[APIClient, dict]:
    """A client playing as a new guest (auth/guest), and the guest's answer."""
    client = APIClient(HTTP_USER_AGENT=user_agent)
    response = client.post("/api/v1/auth/guest", format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    return client, body


def error_code(response) -> str:
    return response.json()["error"]["code"]
