"""What makes two usernames the same name, and which names are refused as look-alikes.

A name is stored as typed after NFKC (so full-width, ligature and other compatibility
forms become their plain letters), and compared by its canonical form: NFKC, case-fold,
NFKC again (Unicode's recipe for caseless identifiers, UAX #31 / UTS #39). `evex`,
`EVEX` and `EVEx` with a full-width E (U+FF25) are one name; so are `Straße` and
`strasse`.

Look-alike letters from different scripts (Cyrillic U+0435 for Latin `e`) survive that
normalisation, so names that mix scripts are refused, following the "highly restrictive"
level of UTS #39: one script, or Latin with the scripts that are written together
with Han (Japanese, Chinese, Korean). A name written wholly in one other script is
allowed even where it happens to look like a Latin name.
"""

from __future__ import annotations

import unicodedata

# UTS #39 "highly restrictive": a name may use several scripts only in these sets.
_ALLOWED_SCRIPT_SETS = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)
# Character names whose first word is not the script's name.
_SCRIPT_ALIASES = {"Cjk": "Han", "Ideographic": "Han", "Extended": "Arabic"}


def username_display(name: str) -> str:
    """The form a name is stored and shown in: as typed, but NFKC."""
    return unicodedata.normalize("NFKC", name)


def username_canonical(name: str) -> str:
    """The form two names are compared in: equal canonical forms are the same name."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _script(ch: str) -> str | None:
    """The script of one character of a name, or None for characters any script may use.

    Python's `unicodedata` has no Script property, but every letter's and digit's name
    starts with its script ("LATIN SMALL LETTER E", "CYRILLIC SMALL LETTER IE",
    "CJK UNIFIED IDEOGRAPH-4E2D", "ARABIC-INDIC DIGIT ONE"). Names that start with
    something else ("MODIFIER LETTER PRIME", "CIRCLED DIGIT ONE") then count as a script
    of their own, which refuses them beside letters: a safe mistake for a username.
    """
    if ch.isascii() and not ch.isalpha():
        return None  # digits, `_ . @ + -`
    if unicodedata.category(ch).startswith("M") and unicodedata.name(ch, "").startswith(
        "COMBINING"
    ):
        return None  # a combining mark takes the script of the letter it is on
    word = unicodedata.name(ch, "UNNAMED").split(" ")[0].split("-")[0].title()
    return _SCRIPT_ALIASES.get(word, word)


def username_mixed_scripts(name: str) -> list[str]:
    """The scripts of a name that mixes them in a way that is refused, else []."""
    scripts = {script for ch in name if (script := _script(ch)) is not None}
    if len(scripts) <= 1 or any(scripts <= allowed for allowed in _ALLOWED_SCRIPT_SETS):
        return []
    return sorted(scripts)
