"""The heuristic's choices, pinned: a digest of what it plays at every position of
fixed deals (every rule variant of the tests, 3 and 4 players, each match stance), and
for hands of the same size drawn from the cards not yet played, as the expert's reading
asks it about hands it never held. A refactor or a speed-up must leave the digest as it
is; a change of play updates it on purpose, with the arena's figures for the change."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from pusoy.ai.heuristic import heuristic_play
from pusoy.ai.match import CHASE, NORMAL, PROTECT
from pusoy.engine import DealState, Rules
from pusoy.engine.cards import FULL_DECK_MASK, cards_of, mask_of
from pusoy.engine.fast import FastPlay, FastState
from pusoy.engine.moves import PASS, Move
from tests.ai.helpers import RULE_SPECS

# sha256 of the choices with the heuristic as of 2026-12-06 (issue 42: under
# cards-left-tiered it sheds from an opponent at 8 cards, not 13; with 13 the digest is
# 7dd37d0's, 399cac82...). The league's figures are in docs/ai.md, "Why the instant level
# wins less under the house rules".
PINNED = "10c1fe3fc86c70af48ad768f293413adfb437a36b5919b89a7b8b8b60d897214"


def choices_digest(play: Callable[[FastState, int], FastPlay]) -> str:
    """sha256 over ``play``'s choices on the pinned positions."""
    digest = hashlib.sha256()
    rng = random.Random(2026_12_03)
    for spec in RULE_SPECS:
        rules = Rules.from_spec(spec)
        for players in (3, 4):
            for _deal in range(3):
                state = DealState.from_seed(rules, rng.randbytes(32), players)
                while not state.is_over:
                    sim = FastState.from_view(state.view(state.turn))
                    for variant in range(3):
                        probe = sim.copy()
                        if variant:
                            # A hand of the same size from the cards not yet played.
                            me = probe.turn
                            unplayed = cards_of(FULL_DECK_MASK & ~probe.played)
                            hand = mask_of(rng.sample(unplayed, probe.counts[me]))
                            if probe.required and not hand & probe.required:
                                continue  # (the opening play needs the opening card)
                            probe.hands[me] = hand
                        for stance in (NORMAL, CHASE, PROTECT):
                            mask, key = play(probe.copy(), stance)
                            digest.update(f"{mask}:{key};".encode())
                    mask, _key = play(sim.copy(), NORMAL)
                    state.apply(Move(mask) if mask else PASS)
    return digest.hexdigest()


def test_the_heuristics_choices_are_as_pinned() -> None:
    assert choices_digest(heuristic_play) == PINNED
