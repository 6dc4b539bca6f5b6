"""The HTTP side of the metrics: the middleware that counts and times every request by
its route template, and the `/metrics` endpoint, open to the addresses in
METRICS_ALLOWED_IPS (loopback by default) or to a bearer of METRICS_TOKEN."""

from __future__ import annotations

import hmac
import ipaddress
import os
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.decorators import sync_and_async_middleware
from django.views.decorators.csrf import csrf_exempt
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest

from pusoy_api import metrics
from pusoy_api.domain_errors import ErrorCode
from pusoy_api.errors import envelope

# Requests that matched no URL pattern: one label value, whatever the path.
UNMATCHED = "<unmatched>"


def route_of(request: HttpRequest) -> str:
    """The URL pattern that served the request ("api/v1/games/<uuid:game_id>/moves"),
    never the path itself: ids would make a new time series per game."""
    match = getattr(request, "resolver_match", None)
    route = getattr(match, "route", None) if match is not None else None
    return f"/{route}" if route else UNMATCHED


def _observe(request: HttpRequest, status: int, started: float) -> None:
    route, method = route_of(request), request.method or "GET"
    metrics.HTTP_REQUESTS.labels(route, method, str(status)).inc()
    metrics.HTTP_LATENCY.labels(route, method).observe(time.perf_counter() - started)


@sync_and_async_middleware
def metrics_middleware(get_response: Callable[[HttpRequest], Any]) -> Callable[..., Any]:
    """Near the outside (after the request id), so outage answers (503) count too."""
    metrics.start_sampler()
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            started = time.perf_counter()
            response = await get_response(request)
            _observe(request, response.status_code, started)
            return response

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = get_response(request)
        _observe(request, response.status_code, started)
        return response

    return sync_middleware


# --- The endpoint -------------------------------------------------------------------------


@cache
def _allowed_networks(
    cidrs: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(cidr, strict=False) for cidr in cidrs)


def scrape_allowed(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        if hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return True
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in net for net in _allowed_networks(tuple(settings.METRICS_ALLOWED_IPS)))


def registry() -> CollectorRegistry:
    """This process's metrics, or with several processes every process's, summed."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    from prometheus_client import multiprocess

    summed = CollectorRegistry()
    multiprocess.MultiProcessCollector(summed)
    return summed


# A scraper holds no CSRF token; a POST gets its 405 in the envelope, not CSRF's page.
@csrf_exempt
def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus text format. Refused: 403 in the error envelope (scrapers log it)."""
    if not scrape_allowed(request):
        return JsonResponse(
            envelope(ErrorCode.PERMISSION_DENIED, "Metrics are not open to this client."),
            status=403,
        )
    if request.method not in ("GET", "HEAD"):
        return JsonResponse(
            envelope(ErrorCode.METHOD_NOT_ALLOWED, "Method not allowed."),
            status=405,
            headers={"Allow": "GET, HEAD"},
        )
    metrics.sample_process()
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
