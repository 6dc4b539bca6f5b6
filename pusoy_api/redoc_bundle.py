"""ReDoc's bundle, served from here without its one request off the server.

The bundle (drf-spectacular-sidecar) always shows Redocly's logo from their CDN in its
sidebar; the docs page's CSP blocks it, which the browser reports as an error and a
failed request on every visit. The same bundle, with that image made an empty inline
one, is served under REDOC_DIST (settings)."""

from __future__ import annotations

import functools
from pathlib import Path

import drf_spectacular_sidecar
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from pusoy_api.revalidated import etag_of, revalidated

CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
NO_LOGO = "data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27/%3E"
BUNDLE = (
    Path(drf_spectacular_sidecar.__file__).parent
    / "static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
)


@functools.cache
def bundle() -> tuple[bytes, str]:
    data = BUNDLE.read_text(encoding="utf-8").replace(CDN_LOGO, NO_LOGO).encode("utf-8")
    return data, etag_of(data)


@require_safe
def redoc_standalone(request: HttpRequest) -> HttpResponse:
    data, etag = bundle()
    return revalidated(request, data, etag, "text/javascript; charset=utf-8")
