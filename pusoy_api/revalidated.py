"""Answers for files generated once per process (the web client's API module, ReDoc's
bundle): an ETag of their content, revalidated on every use (`no-cache`), so a deploy
is picked up at once and an unchanged file costs a 304."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse


def etag_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def revalidated(request: HttpRequest, data: bytes, etag: str, content_type: str) -> HttpResponse:
    quoted = f'"{etag}"'
    if request.headers.get("If-None-Match") == quoted:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(data, content_type=content_type)
    response["ETag"] = quoted
    response["Cache-Control"] = "no-cache"
    return response
