"""What a push says: the kinds of event pushed, and their title and body in English and
Filipino. Names and ids only: a push never carries a card of any hand (a move's cards are
in the feed; the app fetches state when it opens)."""

from __future__ import annotations

from typing import Any

from notifications.types import EventPayload, EventType

# The events a closed app needs; the others (moves, deals ending, answers to
# invitations) are for an open app, which reads the feed.
PUSHED_KINDS: tuple[str, ...] = (
    EventType.YOUR_TURN.value,
    EventType.DEADLINE_SOON.value,
    EventType.INVITED.value,
    EventType.GAME_FINISHED.value,
)

_TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    EventType.YOUR_TURN: {
        "en": ("Your turn", "It's your turn in game {game}."),
        "fil": ("Ikaw na", "Ikaw na ang titira sa laro {game}."),
    },
    EventType.DEADLINE_SOON: {
        "en": ("Your turn is almost up", "Play in game {game} before your time runs out."),
        "fil": ("Malapit nang maubos ang oras", "Tumira na sa laro {game} bago maubos ang oras."),
    },
    EventType.INVITED: {
        "en": ("Game invitation", "{who} invited you to game {game}."),
        "fil": ("Imbitasyon sa laro", "Inimbitahan ka ni {who} sa laro {game}."),
    },
    EventType.GAME_FINISHED: {
        "en": ("Game over", "Game {game} has finished."),
        "fil": ("Tapos na ang laro", "Tapos na ang laro {game}."),
    },
}


def game_label(game_id: str) -> str:
    """How a push names a game: the first 8 characters of its id, as the web client does."""
    return game_id[:8]


def render(event: EventPayload, locale: str) -> tuple[str, str]:
    """(title, body) of `event` (a pushed kind) in `locale` ("en" or "fil")."""
    texts = _TEXTS[event["type"]]
    title, body = texts.get(locale, texts["en"])
    data: dict[str, Any] = event["data"]
    who = str(data.get("invited_by", ""))[:40] or "A player"
    return title, body.format(game=game_label(event["game"]), who=who)


def collapse_id(game_id: str) -> str:
    """One game's pushes replace each other on the device (at most 64 URL-safe bytes)."""
    return f"game-{game_id}"
