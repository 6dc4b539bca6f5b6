"""What sessions and idle expiry cost a request: ``python -m benchmarks.speed.sessions``.

In-process (Django's test client, no HTTP server) on a throwaway PostgreSQL test
database, so only the view and its queries are timed. Prints the median and p95 of
``GET players/me`` over N requests, and its query count, in three cases:

1. before: tokens never expire (knox TOKEN_TTL None, no AUTO_REFRESH), as before sessions;
2. after, the usual request: the token was renewed less than a minute ago, nothing written;
3. after, the one request a minute that renews: the token's expiry and the session's
   last-used are written (the token is aged before each timed request, outside the timing).

Numbers only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="requests per case")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pusoy_api.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import (
        CaptureQueriesContext,
        override_settings,
        setup_test_environment,
    )

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(args.n, CaptureQueriesContext, override_settings)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(n: int, CaptureQueriesContext, override_settings) -> None:
    from django.conf import settings
    from django.db import connection
    from django.utils import timezone
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    from players.models import Player
    from players.services import token_issue

    player = Player.objects.create_user(username="bench")

    def client_with_token() -> tuple[APIClient, AuthToken]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(player=player)}")
        return client, AuthToken.objects.latest("created")

    def measure(label: str, client: APIClient, before_each=None) -> None:
        for _ in range(20):  # warm up
            client.get("/api/v1/players/me")
        times = []
        for _ in range(n):
            if before_each:
                before_each()
            start = time.perf_counter()
            response = client.get("/api/v1/players/me")
            times.append(time.perf_counter() - start)
            assert response.status_code == 200
        if before_each:
            before_each()
        with CaptureQueriesContext(connection) as queries:
            client.get("/api/v1/players/me")
        times.sort()
        print(
            f"{label:<52} median {statistics.median(times) * 1000:6.3f} ms  "
            f"p95 {times[int(0.95 * (len(times) - 1))] * 1000:6.3f} ms  "
            f"{len(queries.captured_queries)} queries"
        )

    never = {**settings.REST_KNOX, "TOKEN_TTL": None, "AUTO_REFRESH": False}
    with override_settings(REST_KNOX=never):
        client, _ = client_with_token()
        measure("before: tokens never expire", client)
    client, token = client_with_token()
    measure("after: renewed within the minute (no write)", client)

    def age() -> None:
        AuthToken.objects.filter(pk=token.pk).update(
            expiry=timezone.now() + dt.timedelta(days=settings.TOKEN_IDLE_TTL_DAYS - 1)
        )

    measure("after: the request that renews (2 writes)", client, before_each=age)


if __name__ == "__main__":
    main()
