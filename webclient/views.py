"""The web client: one HTML shell at `/` and its API module, generated from the schema.

Everything else is static (webclient/static/webclient/): the page talks to the server
only through the public `/api/v1/` endpoints, as a mobile app does.
"""

from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe
from drf_spectacular.generators import SchemaGenerator

from pusoy_api.revalidated import etag_of, revalidated
from pusoy_api.serving import STREAMS
from webclient import schema_client

# The page runs only its own files: no inline script, nothing from another origin.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@functools.cache
def client_module() -> tuple[str, str]:
    """The generated module and its ETag. The schema is fixed for a process's life (it
    is generated from the code), so it is read once."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    # The unhashed name, as app.js imports it ("./http.js"): a hashed one (manifest
    # storage) would load the module twice, with two copies of its state.
    http_module = f"{settings.STATIC_URL}webclient/http.js"
    if not http_module.startswith("/"):
        http_module = "/" + http_module
    source = schema_client.render(schema, http_module=http_module)
    return source, etag_of(source.encode())


@require_safe
def api_module(request: HttpRequest) -> HttpResponse:
    source, etag = client_module()
    return revalidated(request, source.encode(), etag, "text/javascript; charset=utf-8")


ICON = Path(__file__).parent / "static" / "webclient" / "icon.svg"


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico on every page (the docs pages too): the site's icon,
    not a 404 in every console."""
    response = HttpResponse(ICON.read_bytes(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    # The event stream needs an ASGI server (docs/long-polling.md): a bare WSGI one
    # (runserver, the tests' live server) would hold a stream's answer until the stream
    # ends, so the page is told to use the feed's long-poll there. The served layout runs
    # this page under WSGI too, behind a server that sends streams to the event loop.
    streams = "wsgi.version" not in request.META or request.META.get(STREAMS, False)
    response = render(request, "webclient/index.html", {"streams": streams})
    response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response
