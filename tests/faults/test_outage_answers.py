"""In-process: what a request gets when the database fails under it. A lost connection
or a database that does not answer in time is a 503 `service_unavailable` with
Retry-After (DRF views and plain views alike); a bug is still a 500."""

from __future__ import annotations

import pytest
from django.db import OperationalError, close_old_connections, connection

from players.authentication import BearerTokenAuthentication
from pusoy_api.errors import RETRY_AFTER_SECONDS
from tests.api.helpers import client_for


def assert_unavailable(response) -> None:
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.json() == {
        "error": {
            "code": "service_unavailable",
            "message": "The service is temporarily unavailable; try again shortly.",
            "details": {"retry_after": RETRY_AFTER_SECONDS},
        }
    }


@pytest.mark.django_db
def test_database_error_in_a_drf_view_is_503_with_retry_after(monkeypatch):
    client = client_for("ana")

    def lost(self, request):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(BearerTokenAuthentication, "authenticate", lost)
    assert_unavailable(client.get("/api/v1/players/me"))
    assert_unavailable(client.post("/api/v1/games", {"seats": []}, format="json"))


@pytest.mark.urls("tests.faults.outage_urls")
def test_database_error_in_a_plain_view_is_503_with_retry_after(client):
    assert_unavailable(client.get("/api/v1/test/database-lost"))


@pytest.mark.urls("tests.faults.outage_urls")
def test_a_bug_is_still_a_500(client):
    client.raise_request_exception = False
    response = client.get("/api/v1/test/bug")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server_error"


@pytest.mark.postgres
@pytest.mark.urls("tests.faults.outage_urls")
@pytest.mark.django_db(transaction=True)
def test_a_query_longer_than_the_request_deadline_is_cut_and_not_reused(client, settings):
    if not settings.DATABASES["default"]["OPTIONS"].get("pool"):
        pytest.skip("the deadline is on pooled connections")
    settings.DB_QUERY_TIMEOUT = 0.5
    # Had the wait not been cut, the view would answer 200 after the sleep. (The server
    # finishes the sleep on its own; kept short so no session outlives the test.)
    assert_unavailable(client.get("/api/v1/test/slow-query?seconds=2"))
    # At the end of a request Django hands a connection that failed back to the pool,
    # which discards a closed one (the test client skips this step: do it here).
    close_old_connections()
    assert client.get("/api/v1/test/ping").json() == {"one": 1}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_outside_a_request_queries_are_not_bounded(settings):
    settings.DB_QUERY_TIMEOUT = 0.2
    with connection.cursor() as cursor:
        # Past the request deadline, yet answered: a task or a command is not cut.
        cursor.execute("SELECT pg_sleep(0.5), 1")
        assert cursor.fetchone()[1] == 1
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "0"
