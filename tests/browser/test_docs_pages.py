"""The API docs pages load in a real browser and send no request off the server."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("path", "rendered"),
    [("/api/docs/", ".swagger-ui .info .title"), ("/api/redoc/", "[role=search], .menu-content")],
)
def test_docs_pages_render_without_leaving_the_server(live_server, page, path, rendered):
    here = urlsplit(live_server.url).netloc
    sent_elsewhere = []

    def offsite(request) -> bool:
        return urlsplit(request.url).scheme in ("http", "https") and (
            urlsplit(request.url).netloc != here
        )

    # A request the page's Content-Security-Policy blocked never left the browser
    # (ReDoc's bundle always asks for a vendor logo on a CDN); any other did, or tried.
    page.on("requestfinished", lambda r: offsite(r) and sent_elsewhere.append(r.url))
    page.on(
        "requestfailed",
        lambda r: offsite(r) and r.failure != "csp" and sent_elsewhere.append(r.url),
    )
    response = page.goto(live_server.url + path, wait_until="networkidle")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector(rendered, timeout=15_000)
    assert "Pusoy Dos API" in page.content()
    assert sent_elsewhere == []
