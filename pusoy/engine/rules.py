"""Rule options and presets of docs/rules.md: ``Rules.from_spec("hong-kong")`` and friends.

Every point where published versions of the game disagree is an option; a preset is a
named set of option values. A game stores ``rules.to_dict()`` (every option resolved), so
it keeps its rules even if a preset's defaults change later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any

from pusoy.engine.cards import SUITS, Card
from pusoy.engine.errors import EngineError, RulesError

STRAIGHT_SYSTEMS = ("ace-low", "hong-kong", "deuce-high", "no-deuce")
FLUSH_ORDERS = ("rank-first", "suit-first")
SCORINGS = ("deuces-double", "cards-left", "cards-left-tiered")
LEFTOVERS = ("to-opening-holder", "set-aside")
HAND_SIZES = (13, 17)

_CHOICES: dict[str, tuple[Any, ...]] = {
    "straights": STRAIGHT_SYSTEMS,
    "flush_order": FLUSH_ORDERS,
    "scoring": SCORINGS,
    "leftover": LEFTOVERS,
    "hand_size": HAND_SIZES,
}
_BOOLEANS = ("play_out", "pass_locks_out", "triples")
_THREE_OF_CLUBS = Card.parse("3C")


def _suit_order(value: object) -> str:
    """``"CSHD"``, ``"C S H D"``, ``["C", "S", "H", "D"]`` or suit symbols -> ``"CSHD"``."""
    if isinstance(value, str):
        items: list[object] = [ch for ch in value if not ch.isspace() and ch != ","]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        items = []
    try:
        suits = [Card.parse("3" + item).suit if isinstance(item, str) else -1 for item in items]
    except EngineError:
        suits = []
    if sorted(suits) != [0, 1, 2, 3]:
        raise RulesError(
            "invalid_rules",
            f"suit_order must list the four suits low to high, e.g. 'CSHD', not {value!r}",
            {"option": "suit_order", "value": value},
        )
    return "".join(SUITS[s] for s in suits)


@dataclass(frozen=True, slots=True, repr=False)
class Rules:
    """Every option of docs/rules.md by its name. Build with ``Rules.from_spec``.

    >>> Rules.from_spec({"preset": "philippine", "flush_order": "suit-first"}).flush_order
    'suit-first'
    """

    preset: str = "philippine"
    suit_order: str = "CSHD"
    opening_card: Card = _THREE_OF_CLUBS
    straights: str = "ace-low"
    flush_order: str = "rank-first"
    scoring: str = "deuces-double"
    play_out: bool = False
    pass_locks_out: bool = False
    leftover: str = "to-opening-holder"
    hand_size: int = 17
    triples: bool = True

    def __post_init__(self) -> None:
        if self.preset not in _PRESET_NAMES:
            raise RulesError(
                "invalid_rules",
                f"unknown preset {self.preset!r}; known: {', '.join(_PRESET_NAMES)}",
                {"option": "preset", "value": self.preset, "allowed": list(_PRESET_NAMES)},
            )
        object.__setattr__(self, "suit_order", _suit_order(self.suit_order))
        if not isinstance(self.opening_card, Card):
            try:
                card = Card.parse(self.opening_card)
            except EngineError:
                raise RulesError(
                    "invalid_rules",
                    f"opening_card must be a card such as '3C', not {self.opening_card!r}",
                    {"option": "opening_card", "value": self.opening_card},
                ) from None
            object.__setattr__(self, "opening_card", card)
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if type(value) not in (str, int) or value not in allowed:
                raise RulesError(
                    "invalid_rules",
                    f"{name} must be one of {', '.join(map(str, allowed))}, not {value!r}",
                    {"option": name, "value": value, "allowed": list(allowed)},
                )
        for name in _BOOLEANS:
            value = getattr(self, name)
            if type(value) is not bool:
                raise RulesError(
                    "invalid_rules",
                    f"{name} must be true or false, not {value!r}",
                    {"option": name, "value": value, "allowed": [True, False]},
                )

    @classmethod
    def from_spec(cls, spec: str | Mapping[str, Any] | Rules | None = None) -> Rules:
        """None -> philippine; a preset name; or ``{"preset": ..., option: value, ...}``."""
        if spec is None:
            return PRESETS["philippine"]
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str):
            spec = {"preset": spec}
        if not isinstance(spec, Mapping):
            raise RulesError(
                "invalid_rules",
                "rules must be a preset name or an object of options",
                {"option": None, "value": repr(spec)},
            )
        preset = spec.get("preset", "philippine")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError(
                "invalid_rules",
                f"unknown preset {preset!r}; known: {', '.join(_PRESET_NAMES)}",
                {"option": "preset", "value": preset, "allowed": list(_PRESET_NAMES)},
            )
        overrides = {k: v for k, v in spec.items() if k != "preset"}
        for name in overrides:
            if name not in OPTION_NAMES:
                raise RulesError(
                    "invalid_rules",
                    f"unknown rule option {name!r}; known: {', '.join(OPTION_NAMES)}",
                    {"option": name, "allowed": list(OPTION_NAMES)},
                )
        return replace(PRESETS[preset], **overrides) if overrides else PRESETS[preset]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of ``to_dict`` (also accepts any partial spec)."""
        return cls.from_spec(data)

    def to_dict(self) -> dict[str, Any]:
        """Every option resolved, JSON-able; includes ``preset``."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = str(value) if isinstance(value, Card) else value
        return out

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rules' preset."""
        base = PRESETS[self.preset].to_dict()
        return {k: v for k, v in self.to_dict().items() if base[k] != v}

    def to_spec(self) -> str | dict[str, Any]:
        """The shortest spec: the preset name, or the preset plus its overrides."""
        extra = self.overrides()
        return {"preset": self.preset, **extra} if extra else self.preset

    def __repr__(self) -> str:
        return f"Rules.from_spec({self.to_spec()!r})"


_PRESET_NAMES = ("philippine", "philippine-online", "philippine-deuce-high", "hong-kong")
OPTION_NAMES = tuple(f.name for f in fields(Rules) if f.name != "preset")

PRESETS: Mapping[str, Rules] = MappingProxyType(
    {
        "philippine": Rules(),
        "philippine-online": Rules(
            preset="philippine-online",
            straights="hong-kong",
            flush_order="suit-first",
            scoring="cards-left",
        ),
        "philippine-deuce-high": Rules(
            preset="philippine-deuce-high",
            straights="deuce-high",
            scoring="cards-left",
            leftover="set-aside",
        ),
        "hong-kong": Rules(
            preset="hong-kong",
            suit_order="DCHS",
            opening_card=Card(0, 3),
            straights="hong-kong",
            flush_order="suit-first",
            scoring="cards-left",
        ),
    }
)
