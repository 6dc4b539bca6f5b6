"""Building deals for tests."""

from __future__ import annotations

import random

from pusoy.engine import CARDS, DealState, Move, Rules, parse_cards


def fill_hands(fixed: list[str], sizes: list[int]) -> list[list[str]]:
    """Hands with the given cards, filled up to ``sizes`` with the highest unused cards."""
    used = {c for text in fixed for c in parse_cards(text)}
    pool = [c for c in CARDS if c not in used]
    hands = []
    for text, size in zip(fixed, sizes, strict=True):
        hand = list(parse_cards(text))
        while len(hand) < size:
            hand.append(pool.pop())
        hands.append([str(c) for c in hand])
    return hands


def set_aside_of(hands: list[list[str]]) -> list[str]:
    """The cards no hand holds."""
    used = {c for h in hands for c in h}
    return [str(c) for c in CARDS if str(c) not in used]


def play_moves(state: DealState, moves: list[tuple[int, str]]) -> None:
    for seat, text in moves:
        state.apply(Move.parse(text), seat)


def random_hands(
    rng: random.Random, num_players: int, size: int
) -> tuple[list[list[str]], list[str]]:
    deck = [str(c) for c in CARDS]
    rng.shuffle(deck)
    hands = [deck[i * size : (i + 1) * size] for i in range(num_players)]
    return hands, deck[num_players * size :]


def play_randomly(state: DealState, rng: random.Random) -> None:
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))


PRESET_NAMES = ["philippine", "philippine-online", "philippine-deuce-high", "hong-kong"]


def rules_of(name: str, **overrides: object) -> Rules:
    return Rules.from_spec({"preset": name, **overrides})
