"""docs/rules.md against the engine, so the rules page cannot drift from the code: every
option, allowed value and preset is documented, the preset table holds the engine's
values, and the worked example replays move by move."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pusoy.engine import OPTION_NAMES, PRESETS, DealState, Move, Rules
from pusoy.engine import rules as rules_module
from tests.engine.helpers import fill_hands

ROOT = Path(__file__).resolve().parents[2]
DOC_PATH = ROOT / "docs" / "rules.md"
DOC = DOC_PATH.read_text(encoding="utf-8")

# The engine keeps the closed lists of values privately; reading them (rather than a copy
# here) is what makes a new value or option fail this test until the page documents it.
CHOICES: dict[str, tuple[object, ...]] = dict(rules_module._CHOICES)
BOOLEANS: tuple[str, ...] = tuple(rules_module._BOOLEANS)
# Any order of the suits and any card are allowed, so the page can only show examples.
OPEN_OPTIONS = ("suit_order", "opening_card")


def section(title: str) -> str:
    """The text under the heading ``title`` (any level), up to the next heading of the
    same or a higher level."""
    match = re.search(rf"^(#+) {re.escape(title)}[ \t]*$", DOC, re.MULTILINE)
    assert match, f"docs/rules.md has no heading {title!r}"
    level = len(match.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.MULTILINE).search(DOC, match.end())
    return DOC[match.end() : end.start() if end else len(DOC)]


def tables(text: str) -> list[list[list[str]]]:
    """The Markdown tables of ``text``: rows of stripped cells, header first, the
    ``|---|`` line left out."""
    found: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                current.append(cells)
        elif current:
            found.append(current)
            current = []
    return found


def table_starting(text: str, *header: str) -> list[list[str]]:
    for table in tables(text):
        if [c.lower() for c in table[0][: len(header)]] == list(header):
            return table
    raise AssertionError(f"no table with header {header} in that section of docs/rules.md")


def code(cell: str) -> list[str]:
    """The `code` spans of a cell, in order."""
    return re.findall(r"`([^`]*)`", cell)


def shown(value: object) -> str:
    """How the page writes an option value: strings bare, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def rows_by_option(table: list[list[str]]) -> dict[str, list[str]]:
    rows = {}
    for row in table[1:]:
        names = code(row[0])
        assert names, f"a row without an option name: {row}"
        rows[names[0]] = row
    return rows


def test_every_option_has_a_known_kind_of_values() -> None:
    """A new option that is neither a choice, a switch nor open needs this test extended."""
    for name in OPTION_NAMES:
        kinds = [name in CHOICES, name in BOOLEANS, name in OPEN_OPTIONS]
        assert kinds.count(True) == 1, name


def test_options_table_names_every_option_and_nothing_else() -> None:
    rows = rows_by_option(table_starting(section("Options"), "option", "allowed values"))
    assert sorted(rows) == sorted(OPTION_NAMES)


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_options_table_lists_the_allowed_values_and_the_default(name: str) -> None:
    table = table_starting(section("Options"), "option", "allowed values", "default")
    row = rows_by_option(table)[name]
    if name in CHOICES:
        allowed = CHOICES[name]
    elif name in BOOLEANS:
        allowed = (True, False)
    else:
        allowed = ()
    for value in allowed:
        assert shown(value) in code(row[1]), f"{name}: {shown(value)} is not listed"
    default = Rules.from_spec(None).to_dict()[name]
    assert code(row[2]) == [shown(default)], f"{name}: the default is {shown(default)}"


def test_preset_table_has_a_column_for_every_preset() -> None:
    header = table_starting(section("Presets"), "option")[0]
    assert [code(cell)[0] for cell in header[1:]] == list(PRESETS)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_preset_table_column_matches_from_spec(preset: str) -> None:
    table = table_starting(section("Presets"), "option")
    column = [code(cell)[0] for cell in table[0][1:]].index(preset) + 1
    rows = rows_by_option(table)
    assert sorted(rows) == sorted(OPTION_NAMES)
    resolved = Rules.from_spec(preset).to_dict()
    for name in OPTION_NAMES:
        assert code(rows[name][column]) == [shown(resolved[name])], (preset, name)


def test_worked_example_replays_in_the_engine() -> None:
    """The example's tables: the cards that matter per seat, then one row per move with
    the seat, the move, the play left to beat (``-`` when the trick is over) and the seat
    to move next. Hands are filled up to 13 cards with cards the example does not use."""
    text = section("Worked example")
    assert "`philippine`" in text.strip().split("\n\n")[0]
    seats = table_starting(text, "seat", "cards that matter")[1:]
    fixed = [" ".join(code(row[1])) for row in seats]
    assert [int(row[0]) for row in seats] == list(range(len(fixed)))
    state = DealState.new("philippine", fill_hands(fixed, [13] * len(fixed)))
    steps = table_starting(text, "step", "seat", "move", "to beat", "next")[1:]
    assert steps, "the worked example has no moves"
    for number, (step, seat, move, to_beat, after, _why) in enumerate(steps, start=1):
        assert int(step) == number
        played = Move.parse(" ".join(code(move)) if code(move) else move)
        state.apply(played, int(seat))
        on_table = None if state.to_beat is None else [str(c) for c in state.to_beat.cards]
        assert on_table == (None if code(to_beat) == ["-"] else code(to_beat)), f"step {step}"
        assert state.turn == int(after), f"step {step}"


def test_the_page_sends_no_reader_outside_the_repository() -> None:
    """Every link and every document it names is a file of this repository."""
    assert "../" not in DOC
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", DOC):
        assert not re.match(r"[a-z]+:", target), f"links out: {target}"
        assert (DOC_PATH.parent / target).is_file(), f"broken link: {target}"
    # Compared as strings, not looked up, so a case-insensitive file system cannot hide
    # a name that differs only in case from a document of the repository.
    docs = sorted(path.name for path in DOC_PATH.parent.glob("*.md"))
    known = {*docs, *(f"docs/{name}" for name in docs), *(p.name for p in ROOT.glob("*.md"))}
    for name in re.findall(r"[\w./-]+\.md\b", DOC):
        assert name in known, f"names a document not in the repo: {name}"
