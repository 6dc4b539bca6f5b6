"""Requests during a database outage: bounded, and answered 503 rather than 500.

`OutageMiddleware` (first in MIDDLEWARE), for each request:
- gives every wait on the database a deadline (settings.DB_QUERY_TIMEOUT, see
  `pusoy_api.db_deadline`);
- makes sure the pool's wait for a connection follows whether the database is reachable
  (`pusoy_api.db_reachable`: DB_POOL_TIMEOUT, or DB_DOWN_TIMEOUT while it is down);
- answers a database error escaping a view that is not DRF's (DRF views get the same
  answer from `pusoy_api.errors.exception_handler`) with the 503 `service_unavailable`
  envelope and Retry-After.
See docs/operations.md.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse

from pusoy_api import db_reachable
from pusoy_api.db_deadline import bounded_waits
from pusoy_api.errors import RETRY_AFTER_SECONDS, is_outage, outage_body

logger = logging.getLogger(__name__)


def outage_response() -> JsonResponse:
    response = JsonResponse(outage_body(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class OutageMiddleware:
    # Async-capable, so an async view (the long-poll) is not pushed onto a thread.
    sync_capable = True
    async_capable = True

    def __init__(
        self, get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]
    ) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest):
        if self.is_async:
            return self.__acall__(request)
        self.watch_pool()
        with bounded_waits(settings.DB_QUERY_TIMEOUT):
            return self.get_response(request)

    @staticmethod
    def watch_pool() -> None:
        # Django creates the pool on first use, once per process; watching is then a
        # set lookup. No connection is made here.
        pool = getattr(connections["default"], "pool", None)
        if pool is not None:
            db_reachable.watch(pool)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        self.watch_pool()
        # The deadline lives in the request's context; asgiref copies it into the
        # threads that run the sync middleware and views.
        with bounded_waits(settings.DB_QUERY_TIMEOUT):
            return await self.get_response(request)  # type: ignore[misc]

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_outage(exception):
            return None  # a bug: Django's 500 and its log
        logger.warning("503 service_unavailable: %s: %s", type(exception).__name__, exception)
        return outage_response()
