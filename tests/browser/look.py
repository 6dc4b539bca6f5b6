"""What a person sees, checked on every screen: `look(page)` at desktop and phone sizes.

- the visible text never says null, undefined, NaN or [object Object];
- no console error, page error or failed request since the last look (an API refusal
  the screen explains is the test's to allow: `allow=`);
- axe-core (tests/browser/node_modules, from package-lock.json) finds no serious or
  critical accessibility violation;
- on phones, tap targets are at least 44 px and, on a table whose player is to play,
  the hand and the Play/Pass/Hint buttons are inside the first viewport.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Page

HERE = Path(__file__).resolve().parent
DESKTOP = {"width": 1280, "height": 800}
PHONES = [{"width": 375, "height": 667}, {"width": 360, "height": 640}]
SIZES = [DESKTOP, *PHONES]
BROKEN_TEXT = re.compile(r"\b(null|undefined|NaN)\b|\[object Object\]")
TAP = 44


@cache
def axe_source() -> str:
    """axe-core as the lock file pins it; installed with `npm ci` on a fresh clone."""
    script = HERE / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        assert npm, "npm is needed for the browser tests (axe-core)"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)
    return script.read_text()


@dataclass
class Problems:
    """What went wrong on a page since the last look."""

    found: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        page.on("pageerror", lambda exc: self.found.append(f"page error: {exc}"))
        page.on(
            "console",
            # Chromium logs each answer >= 400 as "Failed to load resource": the
            # response listener has it already, with its path.
            lambda msg: (
                msg.type == "error"
                and not msg.text.startswith("Failed to load resource")
                and self.found.append(f"console: {msg.text}")
            ),
        )
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def _failed(self, request) -> None:
        # The page aborts its own long-polls and event streams when it moves on.
        if request.failure != "net::ERR_ABORTED":
            self.found.append(f"request failed: {request.url} {request.failure}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.found.append(f"{response.status} {urlsplit(response.url).path}")

    def take(self, allow: tuple[str, ...] = ()) -> list[str]:
        """The problems not allowed, forgotten once taken. `allow`: substrings of the
        entries the screen expects (an API refusal it explains, "400 /api/v1/...")."""
        found, self.found = self.found, []
        return [p for p in found if not any(a in p for a in allow)]


PROBLEMS: dict[Page, Problems] = {}


def watch(page: Page) -> Page:
    PROBLEMS.setdefault(page, Problems()).watch(page)
    return page


def visible_text(page: Page) -> str:
    return page.evaluate("() => document.body.innerText")


def axe_violations(page: Page) -> list[str]:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the DevTools protocol, which the page's CSP does not govern.
        page.evaluate(axe_source())
    results = page.evaluate(
        "() => axe.run(document, { resultTypes: ['violations'] })"
        ".then(r => r.violations.map(v => ({ id: v.id, impact: v.impact,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')) })))"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['nodes']}"
        for v in results
        if v["impact"] in ("serious", "critical")
    ]


# Controls whose size is not between these (px) on screen: too small to tap, or stretched
# by a layout (a button as tall as the panel beside it).
CONTROLS_JS = """([min, max]) => [...document.querySelectorAll('button, a.button, select, '
        + 'input:not([type=checkbox]):not([type=range]):not([type=hidden])')]
    .filter(el => el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
    .map(el => [el, el.getBoundingClientRect()])
    .filter(([el, r]) => r.width > 0 && (r.width < min || r.height < min || r.height > max))
    .map(([el, r]) => `${el.tagName.toLowerCase()}#${el.id}.${el.className}`
         + ` "${(el.textContent || el.name || '').trim().slice(0, 20)}"`
         + ` ${Math.round(r.width)}x${Math.round(r.height)}`)"""
STRETCHED = 120


def small_tap_targets(page: Page) -> list[str]:
    return page.evaluate(CONTROLS_JS, [TAP, 10_000])


def stretched_controls(page: Page) -> list[str]:
    return page.evaluate(CONTROLS_JS, [0, STRETCHED])


def outside_first_screen(page: Page) -> list[str]:
    """On a table whose player is to play: what of the hand and its buttons a player
    would have to scroll to (measured with the page scrolled to its top)."""
    return page.evaluate(
        """() => {
            window.scrollTo(0, 0);
            const wanted = ['#hand', '#play', '#pass', '#hint'];
            return wanted.map(s => [s, document.querySelector(s)]).filter(([, el]) => el)
              .filter(([, el]) => { const r = el.getBoundingClientRect();
                return r.top < 0 || r.bottom > window.innerHeight
                  || r.left < 0 || r.right > window.innerWidth; })
              .map(([s, el]) => s + ' ' + JSON.stringify(el.getBoundingClientRect()));
        }"""
    )


def look(page: Page, *, allow: tuple[str, ...] = (), sizes=None, axe: bool = True) -> None:
    """Every check above at each size (desktop, then phones); the page is left at the
    size it had."""
    before = page.viewport_size
    failures: list[str] = []
    for size in sizes or SIZES:
        page.set_viewport_size(size)
        page.wait_for_timeout(50)  # a layout pass
        where = f"{size['width']}x{size['height']} {page.url.split('#')[-1] or '/'}"
        text = visible_text(page)
        failures += [f"{where}: text shows {m.group(0)!r}" for m in BROKEN_TEXT.finditer(text)]
        failures += [f"{where}: stretched control {c}" for c in stretched_controls(page)]
        if size is not DESKTOP:
            failures += [f"{where}: small tap target {t}" for t in small_tap_targets(page)]
            if page.locator("#turn.mine").count():
                failures += [f"{where}: below the fold {s}" for s in outside_first_screen(page)]
        if axe and size in (DESKTOP, PHONES[0]):
            failures += [f"{where}: axe {v}" for v in axe_violations(page)]
    if before:
        page.set_viewport_size(before)
    failures += PROBLEMS.setdefault(page, Problems()).take(allow)
    assert failures == [], "\n".join(failures)
