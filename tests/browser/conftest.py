"""A real Chromium (Debian's package) driven by Playwright, for pages served by the app.

Playwright's own browser download cannot be reached here, so it drives the system's
`chromium` (`.ci/run` installs it when missing).
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.browser.look import watch
from tests.conftest import REQUIRE_SERVICES
from tests.live_requests import finish_live_requests

# Chromium, run as root in a container with a closed network: no sandbox, and none of
# its own background traffic (which the closed network would refuse, noisily).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Per module, not per session: while Playwright's sync API runs, its event loop runs in
# this thread, and Django's WSGI handler refuses to call async views (long-polling)
# from a thread with a running loop; other tests in this process must not inherit it.
@pytest.fixture(scope="module")
def browser():
    executable = shutil.which("chromium")
    if executable is None:
        if REQUIRE_SERVICES:
            pytest.fail("chromium is not installed and PUSOY_REQUIRE_SERVICES=1")
        pytest.skip("chromium not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread while it runs, and
    # Django refuses database calls from a thread with a running loop. The tests'
    # database calls never run inside that loop, so that guard does not apply here.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
            try:
                yield browser
            finally:
                browser.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()
        finish_live_requests()


@pytest.fixture
def new_context(browser):
    """Browser contexts (separate players: own storage, own token) closed after the test.
    Errors the page's own scripts raise or log fail the test."""
    contexts = []
    errors: list[str] = []

    def make(**options):
        context = browser.new_context(**options)
        context.set_default_timeout(15_000)
        context.on(
            "page",
            lambda page: (
                watch(page),
                page.on("pageerror", lambda exc: errors.append(f"page error: {exc}")),
                page.on(
                    "console",
                    lambda msg: (
                        msg.type == "error"
                        and "Failed to load resource" not in msg.text
                        and errors.append(f"console: {msg.text}")
                    ),
                ),
            ),
        )
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    # A request a polling page sent before it closed may still be served (or waiting) in
    # the live server; the database flush after the test must not race it (it deadlocked
    # once: TRUNCATE against the lobby's read).
    finish_live_requests()
    assert errors == []
