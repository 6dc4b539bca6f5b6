"""X-Forwarded-Proto says whether a request came over HTTPS only when a proxy is declared
(TRUSTED_PROXY_COUNT > 0): without one, a client writing it itself could pass as HTTPS
and skip the redirect (and whatever else trusts `request.is_secure()`)."""

from __future__ import annotations

from tests.settings_probe import settings_under

PROBE = """
import json, django
django.setup()
from django.test import Client, RequestFactory
claims_https = {"HTTP_X_FORWARDED_PROTO": "https"}
answer = Client().get("/api/v1/no-such-thing", **claims_https)
print(json.dumps({
    "status": answer.status_code,
    "location": answer.headers.get("Location"),
    "is_secure": RequestFactory().get("/", **claims_https).is_secure(),
}))
"""


def _under(proxies: str) -> dict:
    return settings_under(
        PROBE,
        {
            "DEV_MODE": "1",
            "DATABASE_URL": "sqlite://:memory:",
            "SECURE_SSL_REDIRECT": "1",
            "TRUSTED_PROXY_COUNT": proxies,
        },
    )


def test_without_a_proxy_a_client_claiming_https_is_still_redirected():
    found = _under("0")
    assert found["is_secure"] is False
    assert found["status"] == 301
    assert found["location"] == "https://testserver/api/v1/no-such-thing"


def test_behind_a_declared_proxy_its_forwarded_proto_is_honoured():
    found = _under("1")
    assert found["is_secure"] is True
    assert found["status"] == 404  # served, not redirected
    assert found["location"] is None
