"""Hints for casual games: the move a bot would make for this seat, and why, in a sentence.

A hint is a pure function of the seat's own view (like every bot), so it can never use
another player's cards, and of a seeded random source, so asking twice in one position
gives the same answer.

>>> import random
>>> from pusoy.engine import DealState
>>> state = DealState.new("philippine", ["3C 4D 9S", "5C 6C 7H", "7C 8C 8H", "9C TC JD"])
>>> suggestion = hint(state.view(0), random.Random(1))
>>> str(suggestion.move), suggestion.reason
('3C', 'You hold the 3C, so the first play must include it: this single sheds it.')
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pusoy.ai import choose_move
from pusoy.ai.match import CHASE, PROTECT, seat_stance
from pusoy.engine.cards import RANKS, Card
from pusoy.engine.moves import Move, Play
from pusoy.engine.state import PlayerView

# Strong enough to teach from and fast (a few milliseconds): a hint must answer at once.
HINT_LEVEL = "heuristic"
_TWO = RANKS.index("2")

_KIND_NAMES = {
    "single": "single",
    "pair": "pair",
    "triple": "triple",
    "straight": "straight",
    "flush": "flush",
    "full_house": "full house",
    "four_of_a_kind": "four of a kind",
    "straight_flush": "straight flush",
}


@dataclass(frozen=True)
class Hint:
    move: Move
    reason: str


def hint(view: PlayerView, rng: random.Random) -> Hint:
    """The suggested move for the seat of ``view`` on its turn, with its reason."""
    move = choose_move(HINT_LEVEL, view, rng)
    return Hint(move=move, reason=explain(view, move))


def _kind(cards_mask: int, view: PlayerView) -> str:
    kind = Play.from_mask(cards_mask, view.rules).kind
    return _KIND_NAMES.get(kind, kind.replace("_", " "))


def _twos(cards: tuple[Card, ...]) -> list[Card]:
    return [c for c in cards if c.rank == _TWO]


def explain(view: PlayerView, move: Move) -> str:
    """Why ``move`` is a good idea here, in one or two short sentences (and, in a deal
    that may end the match, what the match asks for)."""
    reason = _explain_move(view, move)
    stance = seat_stance(view.match, view.rules.scoring, view.seat)
    if stance == PROTECT and not move.is_pass and len(move.cards) < len(view.hand):
        return f"{reason} You lead the match: every card you keep may cost you it, so shed."
    if stance == CHASE:
        return f"{reason} You are behind in the match: only winning this deal can turn it."
    return reason


def _explain_move(view: PlayerView, move: Move) -> str:
    twos_held = _twos(view.hand)
    if move.is_pass:
        assert view.to_beat is not None  # a pass is only legal when following
        beat = f"the {_kind(view.to_beat.mask, view)} on the table"
        plays = [m for m in view.legal_moves() if not m.is_pass]
        if not plays:
            return f"Nothing in your hand beats {beat}: pass."
        if twos_held and all(_twos(m.cards) for m in plays):
            return f"Only your 2s beat {beat}: pass and keep them for control."
        return f"Beating {beat} would spend cards you need later: pass and keep them."
    kind = _kind(move.mask, view)
    left = len(view.hand) - len(move.cards)
    if left == 0:
        return (
            f"This {kind} is your last card{'s' if len(move.cards) > 1 else ''}: it wins the deal."
        )
    required = view.required_card
    if required is not None and required in move.cards:
        return f"You hold the {required}, so the first play must include it: this {kind} sheds it."
    after = f" You will have {left} card{'s' if left != 1 else ''} left." if left <= 3 else ""
    if view.to_beat is None:
        # Near the end (the rest, 2s aside, is one play at most), the heuristic's way out
        # under this scoring (docs/ai.md "Going out").
        near_the_end = left <= len(twos_held) + 5
        keeps_twos = twos_held and not _twos(move.cards)
        if view.rules.scoring == "deuces-double" and keeps_twos and near_the_end:
            return (
                f"You have the lead: play this {kind} first and keep your 2s to win the "
                f"lead back and go out on them (each 2 in your last play doubles the "
                f"stake).{after}"
            )
        if len(move.cards) >= 5:
            return f"You have the lead: a {kind} sheds five cards at once.{after}"
        if _twos(move.cards):
            return f"You have the lead: your 2s are strongest, play them while you can.{after}"
        return f"You have the lead: start low with this {kind} and keep your high cards.{after}"
    if _twos(move.cards):
        return f"A 2 takes control of the trick, so you lead next.{after}"
    cheapest = min(view.legal_plays_fast(), key=lambda p: p[1])[0] == move.mask
    how = f"The cheapest {kind} that beats it" if cheapest else f"This {kind} beats it"
    if twos_held:
        return f"{how}, and it keeps your 2s for control.{after}"
    return f"{how} and keeps your strongest cards in hand.{after}"
