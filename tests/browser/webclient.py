"""Driving the web client (webclient/) like a player: only clicks and keys on the page."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from playwright.sync_api import Page, expect

PASSWORD = "a long enough passphrase 42"
SCREENSHOTS = os.environ.get("PUSOY_SCREENSHOTS")  # a directory: save the main screens


def screenshot(page: Page, name: str) -> None:
    """Saved only when asked (scripts/screenshots.py): the README's pictures."""
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=False)


def register(page: Page, base_url: str, username: str) -> None:
    page.goto(base_url + "/")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#register")
    expect(page.locator("#account")).to_contain_text(username)
    expect(page.locator("#create-form")).to_be_visible()


def create_game(page: Page, *, seats: list[str], target_deals: int | None = None, **fields):
    """seats: the seats after the creator's, "human" or "ai:<level>"."""
    form = page.locator("#create-form")
    form.locator("select[name=seat_count]").select_option(str(len(seats) + 1))
    for i, seat in enumerate(seats, start=1):
        form.locator(f"select[name=seat_{i}]").select_option(seat)
    if target_deals:
        form.locator("select[name=target_kind]").select_option("deals")
        form.locator("input[name=target_value]").fill(str(target_deals))
    for name, value in fields.items():
        if name.startswith("rule_") and form.locator("details[open]").count() == 0:
            form.locator("details summary").click()
        control = form.locator(f"[name={name}]")
        if value is True:
            control.check()
        elif control.evaluate("el => el.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    form.locator("#create-game").click()


def game_id(page: Page) -> str:
    page.wait_for_url(re.compile(r"#/games/[0-9a-f-]{36}"))
    return page.url.split("#/games/")[1][:36]


def hand(page: Page) -> list[str]:
    return page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")


def wait_for_turn_or_end(page: Page, timeout: float = 30_000) -> bool:
    """True when it is this page's player's turn; False when the game is over."""
    page.wait_for_selector("#turn.mine, #match-result", timeout=timeout)
    return page.locator("#match-result").count() == 0


def play_a_turn(page: Page, *, before_play=None) -> dict:
    """A legal move, chosen as a player would: the lowest single card the Play button
    accepts, else Pass. Returns what was played."""
    play = page.locator("#play")
    for card in hand(page):
        button = page.locator(f'#hand .card[data-card="{card}"]')
        button.click()
        if play.is_enabled():
            if before_play:
                before_play([card])
            seq = current_seq(page)
            play.click()
            expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
            return {"action": "play", "cards": [card], "after_seq": seq}
        button.click()
    seq = current_seq(page)
    expect(page.locator("#pass")).to_be_enabled()
    page.click("#pass")
    page.wait_for_function(
        "seq => !document.querySelector('#turn.mine') || "
        "+document.querySelector('#moves li')?.dataset.seq > seq",
        arg=seq,
    )
    return {"action": "pass", "cards": [], "after_seq": seq}


def current_seq(page: Page) -> int:
    first = page.locator("#moves li").first
    return int(first.get_attribute("data-seq")) if first.count() else 0


def read_download(download) -> dict:
    return json.loads(Path(download.path()).read_text())


def whose_turn(pages: list[Page], timeout: float = 30.0) -> Page | None:
    """The page whose player is to play, or None once the game is over (on any page)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#match-result").count():
                return None
            if page.locator("#turn.mine").count():
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody's turn came")


def no_horizontal_overflow(page: Page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth"
        " && document.body.scrollWidth <= window.innerWidth"
    )


CARD_IN_JSON = re.compile(r'"([3-9TJQKA2][CSHD])"')


def _without_rules(data):
    """The body without the games' `rules` (an option such as `opening_card` names a
    card, never where it is)."""
    if isinstance(data, dict):
        return {k: _without_rules(v) for k, v in data.items() if k != "rules"}
    if isinstance(data, list):
        return [_without_rules(v) for v in data]
    return data


class ResponseLog:
    """Every API answer a browser context received, with the cards it names."""

    def __init__(self, context) -> None:
        self.bodies: list[tuple[str, set[str], frozenset[str]]] = []
        self.public: set[str] = set()  # cards known to be played (set before a play)
        context.on("response", self._record)

    def _record(self, response) -> None:
        if "/api/" not in response.url:
            return
        try:
            text = response.text()
        except Exception:  # a long-poll aborted by navigation has no body
            return
        try:
            body = _without_rules(json.loads(text))
        except ValueError:
            body = text
        cards = set(CARD_IN_JSON.findall(json.dumps(body)))
        self.bodies.append((response.url, cards, frozenset(self.public)))

    def leaks(self, hidden: set[str]) -> list[tuple[str, set[str]]]:
        """Answers that named a card of `hidden` before it was played."""
        return [
            (url, (cards & hidden) - public)
            for url, cards, public in self.bodies
            if (cards & hidden) - public
        ]
