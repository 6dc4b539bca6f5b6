"""The web client at `/`, driven in Chromium as players use it: only clicks and keys,
never the API from the test. What each page may know is checked on the page and on
every response it received."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.webclient import (
    PASSWORD,
    ResponseLog,
    create_game,
    current_seq,
    game_id,
    hand,
    no_horizontal_overflow,
    play_a_turn,
    read_download,
    register,
    screenshot,
    wait_for_turn_or_end,
    whose_turn,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SUIT_ORDER = "CSHD"  # the philippine preset's
RANKS = "3456789TJQKA2"


def hands_after(record: dict, step: int) -> list[set[str]]:
    hands = [set(h) for h in record["hands"]]
    for move in record["moves"][:step]:
        hands[move["seat"]] -= set(move.get("play", []))
    return hands


def test_play_against_three_ai_seats_to_the_end_then_replay_and_verify_the_deal(
    live_server, new_context
):
    page = new_context(accept_downloads=True).new_page()
    register(page, live_server.url, "ana")
    create_game(page, seats=["ai:random", "ai:greedy", "ai:random"], hints=True)
    game_id(page)
    expect(page.locator("#seats .seat")).to_have_count(4)
    turns = 0
    while wait_for_turn_or_end(page):
        if turns == 0:
            # A hint selects a legal move (or says pass) and gives its reason.
            page.click("#hint")
            expect(page.locator("#status .message")).to_contain_text("Hint:")
            pressed = page.locator('#hand .card[aria-pressed="true"]').count()
            assert page.locator("#play").is_enabled() == (pressed > 0)
            page.click("#clear")
        # The hand is in the rules' order: rank, then suit (philippine: C S H D).
        cards = hand(page)
        assert cards == sorted(cards, key=lambda c: RANKS.index(c[0]) * 4 + SUIT_ORDER.index(c[1]))
        if turns == 1:
            screenshot(page, "table")
        play_a_turn(page)
        turns += 1
    expect(page.locator("#match-result")).to_contain_text("Match over")
    expect(page.locator("#rematch")).to_be_visible()
    assert turns > 0

    # The finished deal, replayed from its record and audited.
    page.locator(".replay-link").first.click()
    expect(page.locator("#verdict")).to_have_class("ok")
    expect(page.locator("#local-check")).to_contain_text("equals the commitment")
    with page.expect_download() as download:
        page.click("#download-record")
    record = read_download(download.value)
    assert record["format"] == "pusoy-dos-record/1"
    expect(page.locator("#seed")).to_have_text(record["seed"])
    expect(page.locator("#commitment")).to_have_text(record["commitment"])
    total = len(record["moves"])

    def shown_hands() -> list[set[str]]:
        cards = page.locator(".replay-hand").evaluate_all("els => els.map(e => e.dataset.cards)")
        return [set(c.split()) for c in cards]

    expect(page.locator("#replay-position")).to_contain_text(f"Move 0 of {total}")
    assert shown_hands() == hands_after(record, 0)
    assert page.locator("#replay-prev").is_disabled()
    for step in range(1, total + 1):
        # Buttons and the arrow keys alike.
        if step % 2:
            page.click("#replay-next")
        else:
            page.locator("#replay-board").click()
            page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-position")).to_contain_text(f"Move {step} of {total}")
        assert shown_hands() == hands_after(record, step), step
    assert page.locator("#replay-next").is_disabled()
    assert any(not h for h in shown_hands())  # somebody went out
    page.locator("#replay-slider").fill("1")
    expect(page.locator("#replay-position")).to_contain_text(f"Move 1 of {total}")
    screenshot(page, "replay")

    # A rematch (the same seats: it starts at once), then resigning it.
    first = page.url.split("#/games/")[1][:36]
    page.click("text=Back to the game")
    page.click("#rematch")
    page.wait_for_url(lambda url: "#/games/" in url and first not in url)
    expect(page.locator("#hand .card").first).to_be_visible()
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#match-result")).to_contain_text("Game abandoned")


def test_two_players_and_a_spectator_see_moves_live_and_never_a_hidden_card(
    live_server, new_context
):
    contexts = [new_context() for _ in range(3)]
    logs = [ResponseLog(c) for c in contexts]
    ana, ben, cy = (c.new_page() for c in contexts)
    for page, name in [(ana, "ana"), (ben, "ben"), (cy, "cy")]:
        register(page, live_server.url, name)
    create_game(ana, seats=["human"], rule_hand_size="13")
    gid = game_id(ana)
    expect(ana.locator("#table")).to_contain_text("Waiting for players")

    ben.reload()  # others' open games are no event of ben's: the lobby as it opens
    ben.locator(f'#open-games [data-game="{gid}"] button').click()
    expect(ben.locator("#hand .card").first).to_be_visible()
    expect(ana.locator("#hand .card").first).to_be_visible()  # the game started, no reload
    cy.reload()
    expect(cy.locator(f'#watch-games [data-game="{gid}"]')).to_be_visible()
    screenshot(cy, "lobby")
    cy.locator(f'#watch-games [data-game="{gid}"] a').click()
    expect(cy.locator("#table h2")).to_contain_text("Watching")
    for page in (ana, ben, cy):
        page.evaluate("window.loadedOnce = true")  # gone if the page ever reloads

    # Public by the rules from the start: the card the first play must include (its
    # holder leads); with two players it is the lowest card dealt.
    required = ana.locator("#required-card .card").get_attribute("data-card")
    players = {ana: (logs[0], set(hand(ana))), ben: (logs[1], set(hand(ben)))}
    assert players[ana][1].isdisjoint(players[ben][1])
    moves = 0
    while (mover := whose_turn([ana, ben])) is not None:
        other = ben if mover is ana else ana

        def made_public(cards, mover=mover):
            for log in logs:
                log.public.update(cards)

        play_a_turn(mover, before_play=made_public)
        seq = current_seq(mover)
        moves += 1
        for watcher in (other, cy):
            expect(watcher.locator(f'#moves li[data-seq="{seq}"]')).to_be_attached()
        # Never the other's cards on a page: a player's page shows their own hand only,
        # the spectator's none.
        assert set(hand(other)) <= players[other][1]
        assert cy.locator("#hand").count() == 0
    assert moves > 2
    print(f"{moves} moves")
    for page in (ana, ben, cy):
        expect(page.locator("#match-result")).to_be_visible()
        assert page.evaluate("window.loadedOnce") is True

    ana_cards, ben_cards = players[ana][1] - {required}, players[ben][1] - {required}
    assert logs[1].leaks(ana_cards) == []
    assert logs[0].leaks(ben_cards) == []
    assert logs[2].leaks(ana_cards | ben_cards) == []
    assert len(logs[1].bodies) > moves  # the scan saw the live updates


def test_phone_screen_keyboard_and_errors_as_sentences(live_server, new_context):
    page = new_context(viewport={"width": 375, "height": 667}, has_touch=True).new_page()
    page.goto(live_server.url + "/")
    page.fill("#username", "dee")
    page.fill("#password", "123")
    page.click("#register")
    expect(page.locator("#status .error")).to_contain_text("That password is too weak")
    page.fill("#password", PASSWORD)
    page.click("#register")
    expect(page.locator("#lobby-lists[data-loaded]")).to_be_visible()
    assert no_horizontal_overflow(page)

    # A refusal of the server, in a sentence of the client's own.
    create_game(page, seats=["human", "ai:random"], invite="nobody_here")
    expect(page.locator("#status .error")).to_have_text('There is no player called "nobody_here".')

    page.locator("#create-form [name=invite]").fill("")
    create_game(page, seats=["ai:random", "ai:random", "ai:greedy"])
    game_id(page)
    assert wait_for_turn_or_end(page)
    assert no_horizontal_overflow(page)
    for box in page.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().right)"
    ):
        assert box <= 375
    screenshot(page, "phone")

    # A second tab of the same player whose updates are held up (a slow network): it
    # still shows the turn as it was when the first tab plays.
    stale = page.context.new_page()
    # Never answered: the moves long-poll and the event feed (a seated player's updates).
    stale.route(re.compile(r"/(moves|events)\?.*wait="), lambda route: None)
    stale.goto(page.url)
    expect(stale.locator("#turn.mine")).to_be_visible()

    # The keyboard alone: cards take focus, Space selects, arrows move along the hand.
    cards = page.locator("#hand .card")
    cards.first.focus()
    page.keyboard.press("Space")
    expect(cards.first).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(cards.first).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == hand(page)[1]
    assert " of " in (cards.first.get_attribute("aria-label") or "")
    played = None
    for i, card in enumerate(hand(page)):
        cards.nth(i).focus()
        page.keyboard.press("Enter")
        if page.locator("#play").is_enabled():
            page.locator("#play").focus()
            page.keyboard.press("Enter")
            expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
            played = card
            break
        page.keyboard.press("Enter")
    else:
        seq = current_seq(page)
        page.locator("#pass").focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "seq => +document.querySelector('#moves li')?.dataset.seq > seq", arg=seq
        )

    # The stale tab sends the same move: the server refuses it, the tab says why in a
    # sentence of the client's own, and reads the table again.
    if played:
        stale.locator(f'#hand .card[data-card="{played}"]').click()
        stale.click("#play")
    else:
        stale.click("#pass")
    expect(stale.locator("#status .error")).to_have_text(
        re.compile(r"^(Someone moved before you|It is not your turn|You do not hold those)")
    )


def test_invitations_private_games_and_the_waiting_room(live_server, new_context):
    ana, ben, cy = (new_context().new_page() for _ in range(3))
    for page, name in [(ben, "ben"), (cy, "cy"), (ana, "ana")]:
        register(page, live_server.url, name)

    # Declined: the seat is free again; cancelled by its creator.
    create_game(ana, seats=["human"], invite="ben")
    declined = game_id(ana)
    ben.goto(live_server.url + "/#/")
    ben.locator("#invitations button", has_text="Decline").click()
    expect(ben.locator("#invitations")).to_contain_text("No invitations.")
    ana.click("#cancel")
    expect(ana.locator("#table h2")).to_contain_text("Abandoned")

    # Private, one seat reserved for ben (accepted), one taken with the invite code.
    ana.goto(live_server.url + "/#/")
    create_game(ana, seats=["human", "human"], invite="ben", visibility="private")
    gid = game_id(ana)
    assert gid != declined
    link = ana.locator("#invite-link").inner_text()
    assert f"#/games/{gid}?code=" in link
    ben.goto(live_server.url + "/#/")
    ben.locator("#invitations button", has_text="Accept").click()
    ben.wait_for_url(f"**/#/games/{gid}")
    expect(ben.locator("#leave")).to_be_visible()
    cy.goto(live_server.url + "/#/")
    assert cy.locator(f'[data-game="{gid}"]').count() == 0  # private: not listed
    cy.fill("#join-form [name=join_game]", link)
    cy.locator("#join-form button").click()
    for page in (ana, ben, cy):
        expect(page.locator("#hand .card").first).to_be_visible()  # it started
    for page in (ana, ben, cy):
        page.click("#resign")
        page.click("#resign-confirm")
    for page in (ana, ben, cy):
        expect(page.locator("#match-result")).to_contain_text("Game abandoned")

    ana.click("#logout")
    expect(ana.locator("#login")).to_be_visible()
    assert ana.evaluate("localStorage.getItem('pusoy.token')") is None


def test_ratings_in_the_lobby_and_on_the_ai_seats(live_server, new_context):
    page = new_context().new_page()
    register(page, live_server.url, "dee")
    panel = page.locator("#ratings")
    expect(panel.locator("#my-rating")).to_contain_text("no rated deal yet")
    expect(panel.locator("table", has_text="AI levels").locator("tbody tr")).to_have_count(4)
    # Opponents are offered with their strength.
    expert = page.locator("#create-form select[name=seat_1] option[value='ai:expert']")
    expect(expert).to_have_text(re.compile(r"^AI: expert \(rating -?\d+\.\d\)$"))

    # A rated game (the default without hints), resigned at once: last place, rated.
    create_game(page, seats=["ai:random", "ai:random", "ai:random"])
    expect(page.locator("#hand .card").first).to_be_visible()
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#match-result")).to_contain_text("Game abandoned")
    page.goto(live_server.url + "/#/")
    expect(panel.locator("#my-rating")).to_contain_text("after 1 rated deal.")
    latest = panel.locator("table", has_text="Your latest rated deals").locator("tbody tr")
    expect(latest).to_have_count(1)
    expect(latest.locator("td").first).to_have_text("4")
    expect(latest.locator("td").nth(1)).to_have_text(re.compile(r"^\u2212\d+\.\d$"))
    best = panel.locator("table", has_text="Best rated players")
    expect(best).to_contain_text("dee")


def test_the_lobby_rests_in_a_hidden_tab_and_follows_the_event_feed(live_server, new_context):
    page = new_context().new_page()
    register(page, live_server.url, "hal")
    expect(page.locator("#lobby-lists[data-loaded]")).to_be_visible()
    lobby_reads: list[str] = []
    page.on("request", lambda r: "/games?" in r.url and lobby_reads.append(r.url))

    # The tab goes to the background (what a browser reports then): no more reads.
    page.evaluate(
        """() => {
            Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    lobby_reads.clear()
    page.wait_for_timeout(3000)
    assert lobby_reads == []

    # Back in front: the lobby reads at once, then not on a timer (it used to every 5 s).
    with page.expect_request(lambda r: "/games?" in r.url, timeout=3000):
        page.evaluate(
            """() => {
                Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
                document.dispatchEvent(new Event("visibilitychange"));
                document.dispatchEvent(new Event("visibilitychange"));
            }"""
        )
    page.wait_for_timeout(1000)
    lobby_reads.clear()
    page.wait_for_timeout(6000)
    assert lobby_reads == []

    # An invitation is an event of hal's feed: the lobby shows it as it comes.
    ivy = new_context().new_page()
    register(ivy, live_server.url, "ivy")
    create_game(ivy, seats=["human"], invite="hal")
    expect(page.locator("#invitations")).to_contain_text("ivy invites you")
    assert any(
        "/api/v1/events?" in r
        for r in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    )
