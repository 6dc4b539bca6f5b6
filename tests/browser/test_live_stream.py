"""The event stream as a browser reads it: the real server (gunicorn + uvicorn, ASGI,
which streams; the tests' live server is WSGI and gets the feed's long-poll), two
players whose lobby and tables follow `events/stream` with a ticket, no timer and no
long-poll."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.look import look
from tests.browser.webclient import create_game, play_a_turn, register, whose_turn
from tests.throwaway import LiveServer, sqlite_server


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    with sqlite_server(tmp_path_factory.mktemp("stream"), name="stream") as web:
        yield web


def test_the_lobby_and_the_table_follow_the_event_stream(server, new_context):
    url = f"http://127.0.0.1:{server.port}"
    ana, ben = (new_context().new_page() for _ in range(2))
    sent: dict = {ana: [], ben: []}
    for page in (ana, ben):
        page.on("request", lambda r, page=page: "/api/" in r.url and sent[page].append(r.url))
    register(ana, url, "ana")
    register(ben, url, "ben")
    expect(ana.locator("#lobby-lists[data-loaded]")).to_be_visible()

    create_game(ben, seats=["human"], invite="ana")
    expect(ana.locator("#invitations")).to_contain_text("ben invites you")  # no reload
    ana.locator("#invitations button", has_text="Accept").click()
    for page in (ana, ben):
        expect(page.locator("#hand .card").first).to_be_visible()
    for _ in range(3):
        mover = whose_turn([ana, ben])
        assert mover is not None
        other = ben if mover is ana else ana
        play_a_turn(mover)
        seq = mover.locator("#moves li").first.get_attribute("data-seq")
        expect(other.locator(f'#moves li[data-seq="{seq}"]')).to_be_attached()
    look(ana, sizes=None, axe=False)
    for page in (ana, ben):
        assert any("/api/v1/events/stream?ticket=" in u for u in sent[page])
        assert not [
            u for u in sent[page] if "/api/v1/events?" in u or ("/moves?" in u and "wait=" in u)
        ]
