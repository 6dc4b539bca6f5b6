"""The API docs pages load in a real browser and send no request off the server."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.look import PROBLEMS, watch

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

    # Not even one the page's Content-Security-Policy would block: ReDoc's bundle asked
    # for a vendor logo on a CDN, an error and a failed request on every visit.
    page.on("request", lambda r: offsite(r) and sent_elsewhere.append(r.url))
    watch(page)
    response = page.goto(live_server.url + path, wait_until="networkidle")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector(rendered, timeout=15_000)
    assert "Pusoy Dos API" in page.content()
    assert sent_elsewhere == []
    # No console error, no failed request (/favicon.ico was a 404 on every page).
    page.wait_for_timeout(300)
    # (Not look(): the API's docs rightly say "null" for nullable fields.)
    assert PROBLEMS[page].take() == []
