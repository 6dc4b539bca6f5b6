"""Every screen of the web client as a person sees it, at desktop and phone sizes
(`look`: no broken text, no console error or failed request, axe-core, tap targets,
the hand and its buttons on a phone's first screen). One walk through the screens
reuses its games across the three sizes."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.look import PHONES, look
from tests.browser.webclient import (
    PASSWORD,
    create_game,
    game_id,
    play_a_turn,
    register,
    screenshot,
    wait_for_turn_or_end,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def api_requests(page, seconds: float) -> list[str]:
    seen: list[str] = []
    listener = lambda r: "/api/" in r.url and seen.append(r.url)  # noqa: E731
    page.on("request", listener)
    page.wait_for_timeout(seconds * 1000)
    page.remove_listener("request", listener)
    return seen


def test_forms_say_what_is_missing_and_forget_old_errors(live_server, new_context):
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    expect(page.locator("#login")).to_be_visible()
    look(page)
    # Empty fields: the browser's own check, no request and no vague server sentence.
    sent = []
    page.on("request", lambda r: "/api/" in r.url and sent.append(r.url))
    page.click("#register")
    assert page.evaluate("document.activeElement.id") == "username"
    assert page.evaluate("document.querySelector('#username').validity.valueMissing")
    assert sent == []
    expect(page.locator("#status .message")).to_have_count(0)
    # A refusal, then a submit the browser blocks: the old refusal goes.
    page.fill("#username", "eve")
    page.fill("#password", "123")
    page.click("#register")
    expect(page.locator("#status .error")).to_contain_text("That password is too weak")
    look(page, allow=("422 /api/v1/auth/register",))
    page.fill("#username", "")
    page.click("#login")
    expect(page.locator("#status .message")).to_have_count(0)


def test_every_screen_at_desktop_and_phone_sizes(live_server, new_context):
    ana = new_context(has_touch=True).new_page()
    cy = new_context().new_page()
    register(cy, live_server.url, "cy")
    register(ana, live_server.url, "ana")
    # A new account's lobby (its ratings panel said "null" twice).
    expect(ana.locator("#my-rating")).to_be_visible()
    look(ana)

    # One-deal matches ask for no number of deals.
    form = ana.locator("#create-form")
    expect(form.locator("[name=target_value]")).to_be_hidden()
    form.locator("select[name=target_kind]").select_option("deals")
    expect(form.locator("[name=target_value]")).to_be_visible()
    form.locator("select[name=target_kind]").select_option("one")

    # The waiting room of a private game ("nullnullnull" under the seats), its link
    # and code with copy buttons.
    create_game(ana, seats=["human"], visibility="private")
    waiting = game_id(ana)
    expect(ana.locator("#table h2")).to_contain_text("Waiting for players")
    expect(ana.locator("#copy-link")).to_be_visible()
    expect(ana.locator("#copy-code")).to_be_visible()
    look(ana)

    # The table, from its first turn to its end, with AI seats told apart.
    ana.goto(live_server.url + "/#/")
    create_game(ana, seats=["ai:expert", "ai:random", "ai:random"], hints=True)
    gid = game_id(ana)
    assert gid != waiting
    seats = ana.locator("#seats .seat-name")
    names = ["ana (you)", "Expert (seat 2)", "Random (seat 3)", "Random (seat 4)"]
    expect(seats).to_have_text(names)
    expect(ana.locator("#tie-rule")).to_contain_text("tie")
    cy.goto(f"{live_server.url}/#/games/{gid}")
    expect(cy.locator("#table h2")).to_contain_text("Watching")
    turns = 0
    while wait_for_turn_or_end(ana):
        if turns in (0, 2):
            look(ana)  # the start and the middle: the hand and buttons on the first screen
        if turns == 1:
            look(cy)
            # Move numbers, not positions in a short list.
            numbers = ana.locator("#moves li").evaluate_all(
                "els => els.map(e => [+e.dataset.seq, e.querySelector('.move-number').textContent])"
            )
            assert numbers
            assert all(str(seq) == text.strip(". ") for seq, text in numbers)
            # The whole trick, not only its last play.
            if ana.locator("#to-beat").count() and ana.locator("#trick li").count():
                assert ana.locator("#trick li").count() >= 1
        play_a_turn(ana)
        turns += 1
    expect(ana.locator("#match-result")).to_contain_text("Match over")
    expect(cy.locator("#match-result")).to_contain_text("Match over")
    look(ana)
    look(cy)

    # The replay: card faces, not codes; the trick on the table.
    ana.locator(".replay-link").first.click()
    expect(ana.locator("#verdict")).to_have_class("ok")
    ana.click("#replay-next")
    expect(ana.locator("#replay-position .card").first).to_be_visible()
    assert not re.search(r"\b[2-9TJQKA][CSHD]\b", ana.locator("#replay-moves").inner_text())
    look(ana)

    # A game that does not exist: said once, then no more requests.
    ana.goto(f"{live_server.url}/#/games/{uuid.uuid4()}")
    expect(ana.locator("#not-found")).to_be_visible()
    look(ana, allow=("404 /api/v1/games/",))
    assert api_requests(ana, 3) == []


def test_the_phone_table_keeps_the_hand_and_buttons_on_the_first_screen(live_server, new_context):
    page = new_context(viewport=PHONES[1], has_touch=True).new_page()
    register(page, live_server.url, "fay")
    create_game(page, seats=["ai:random", "ai:random", "ai:greedy"], hints=True)
    game_id(page)
    assert wait_for_turn_or_end(page)
    look(page, sizes=PHONES, axe=False)
    for card in page.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])"
    ):
        assert min(card) >= 44
    # Whose turn, what to beat, scores and the deadline stay in view too.
    for selector in ("#turn", "#seats"):
        box = page.locator(selector).bounding_box()
        assert box, selector
        assert box["y"] + box["height"] <= PHONES[1]["height"], selector
    screenshot(page, "phone-table")
    # Hint cannot be sent twice while one is on its way.
    page.route("**/hint", lambda route: page.wait_for_timeout(500) or route.continue_())
    page.click("#hint")
    expect(page.locator("#hint")).to_be_disabled()
    expect(page.locator("#status .message")).to_contain_text("Hint:")
    expect(page.locator("#hint")).to_be_enabled()


def test_an_invite_link_survives_sign_up_and_lands_on_the_invitation(live_server, new_context):
    ana = new_context(permissions=["clipboard-read", "clipboard-write"]).new_page()
    register(ana, live_server.url, "ana")
    create_game(ana, seats=["human"], visibility="private")
    gid = game_id(ana)
    link = ana.locator("#invite-link").inner_text()
    ana.click("#copy-link")
    assert ana.evaluate("navigator.clipboard.readText()") == link
    ana.click("#copy-code")
    code = ana.locator("#invite-code").inner_text()
    assert ana.evaluate("navigator.clipboard.readText()") == code

    # A new player opens the link logged out, creates an account, and lands on the
    # invitation (not the lobby, not "does not exist").
    ben = new_context().new_page()
    ben.goto(link)
    expect(ben.locator("#invite-waiting")).to_contain_text("invited")
    look(ben)
    ben.fill("#username", "ben")
    ben.fill("#password", PASSWORD)
    ben.click("#register")
    invited = ben.locator("#invited")
    expect(invited).to_contain_text("You're invited to")
    expect(invited).to_contain_text("by ana")
    assert f"#/games/{gid}" in ben.url
    look(ben, allow=(f"404 /api/v1/games/{gid}",))
    ben.click("#join-with-code")
    for page in (ana, ben):
        expect(page.locator("#hand .card").first).to_be_visible()  # it started


def test_the_leaderboard_and_a_profile(live_server, new_context):
    page = new_context().new_page()
    register(page, live_server.url, "gus")
    create_game(page, seats=["ai:random", "ai:random", "ai:random"])
    expect(page.locator("#hand .card").first).to_be_visible()
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#match-result")).to_contain_text("Game abandoned")
    page.goto(live_server.url + "/#/")
    page.click("#to-ratings")
    board = page.locator("#leaderboard")
    expect(board.locator("#by-rating")).to_contain_text("gus")
    expect(board.locator("#ai-levels tbody tr")).to_have_count(4)
    look(page)
    board.locator("#by-rating a", has_text="gus").click()
    expect(page.locator("#profile h2")).to_have_text("gus")
    expect(page.locator("#profile-games tbody tr")).to_have_count(1)
    look(page)
