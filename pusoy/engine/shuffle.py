"""The fair shuffle: a deal derived from a 32-byte seed, reproducible by anyone.

Construction (``docs/fairness.md`` has a worked example):

1. A byte stream: block ``i`` (i = 0, 1, 2, ...) is ``HMAC-SHA256(key=seed,
   msg=i as 8-byte big-endian)``; the stream is block 0, then block 1, and so on.
2. Uniform draws without modulo bias: to draw an integer in ``[0, n)`` (n <= 52),
   read one byte ``b``; if ``b >= 256 - 256 % n``, discard it and read the next;
   otherwise the draw is ``b % n``.
3. Fisher-Yates: start from the deck in index order (3C 3S 3H 3D 4C ... 2D); for
   ``i`` from 51 down to 1, draw ``j`` in ``[0, i]`` and swap positions ``i`` and ``j``.
4. Deal round-robin: card ``k`` of the shuffled deck goes to seat ``k % players``
   (4 players: all 52; 3 players: the first 51, the 52nd per ``leftover``; 2 players:
   the first ``2 * hand_size``, the rest set aside).

The commitment published before the deal is the lower-case hex SHA-256 of the raw seed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from typing import Final

from pusoy.engine.cards import CARDS, Card
from pusoy.engine.rules import Rules
from pusoy.engine.tables import tables_for

SEED_BYTES = 32


def new_seed() -> bytes:
    """32 random bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes")


def commitment(seed: bytes) -> str:
    """Lower-case hex SHA-256 of the 32 raw seed bytes."""
    _check_seed(seed)
    return hashlib.sha256(seed).hexdigest()


def byte_stream(seed: bytes) -> Iterator[int]:
    """HMAC-SHA256(seed, counter) blocks, counter as 8-byte big-endian from 0."""
    _check_seed(seed)
    counter = 0
    while True:
        yield from hmac.new(bytes(seed), counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1


def uniform(stream: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n) (1 <= n <= 256) by rejection sampling of bytes."""
    limit = 256 - 256 % n
    while True:
        b = next(stream)
        if b < limit:
            return b % n


def shuffle_deck(seed: bytes) -> list[Card]:
    """The 52 cards in the order the seed shuffles them (Fisher-Yates, see module doc)."""
    stream = byte_stream(seed)
    deck = list(CARDS)
    for i in range(51, 0, -1):
        j = uniform(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_from_seed(
    seed: bytes, rules: Rules, num_players: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """``(hands, set_aside)``: hands sorted, seat order = turn order (docs/rules.md
    "Players and hands")."""
    deck = shuffle_deck(seed)
    return deal_deck(deck, rules, num_players)


def face_up_card(seed: bytes, rules: Rules, num_players: int) -> Card | None:
    """The 52nd card of a 3-player deal under ``leftover: to-opening-holder``: it is dealt
    face up, so every player may know it and who holds it. None in every other deal."""
    if num_players == 3 and rules.leftover == "to-opening-holder":
        return shuffle_deck(seed)[51]
    return None


# How many may sit at a deal.
TABLE_SIZES: Final = (2, 3, 4)


def deal_deck(
    deck: list[Card], rules: Rules, num_players: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal an ordered deck round-robin per the rules (see ``deal_from_seed``)."""
    if num_players not in TABLE_SIZES:
        raise ValueError("a deal has 2, 3 or 4 players")
    per_seat = {4: 13, 3: 17, 2: rules.hand_size}[num_players]
    dealt = num_players * per_seat
    hands: list[list[Card]] = [deck[k::num_players][:per_seat] for k in range(num_players)]
    rest = deck[dealt:]
    set_aside: list[Card] = []
    if num_players == 3 and rules.leftover == "to-opening-holder":
        (leftover,) = rest
        if leftover == rules.opening_card:
            # The 52nd card is the opening card itself: to the holder of the lowest card.
            single_key = tables_for(rules).single_key
            lowest = min(deck[:dealt], key=lambda c: single_key[c.index])
            receiver = next(s for s in range(3) if lowest in hands[s])
        else:
            receiver = next(s for s in range(3) if rules.opening_card in hands[s])
        hands[receiver].append(leftover)
    else:
        set_aside = rest
    return tuple(tuple(sorted(h)) for h in hands), tuple(sorted(set_aside))
