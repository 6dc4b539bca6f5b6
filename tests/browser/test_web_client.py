"""The web client at `/`, driven in Chromium as players use it: only clicks and keys,
never the API from the test. What each page may know is checked on the page and on
every response it received."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.webclient import (
    create_game,
    game_id,
    play_a_turn,
    register,
    screenshot,
    wait_for_turn_or_end,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_play_a_game_against_three_ai_seats_to_the_end(live_server, new_context):
    page = new_context().new_page()
    register(page, live_server.url, "ana")
    screenshot(page, "lobby")
    create_game(page, seats=["ai:random", "ai:greedy", "ai:random"])
    game_id(page)
    turns = 0
    while wait_for_turn_or_end(page):
        if turns == 0:
            screenshot(page, "table")
        play_a_turn(page)
        turns += 1
    expect(page.locator("#match-result")).to_contain_text("Match over")
    assert turns > 0
