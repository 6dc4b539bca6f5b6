"""Two league bots that play the opposite styles of the heuristic, cheaply.

The heuristic plans its hand into the fewest plays, leads its lowest play and follows
with plays of its plan, keeping its 2s while the hand is long. These two do neither:

- ``hoarder``: keeps its high cards and its combinations for the end. Leading, it leads
  its lowest single that is not part of a pair or better (its lowest single otherwise);
  following, it beats only with plays that hold no ace or 2 and break no pair or triple,
  until its hand is down to ``HOARD_UNTIL`` cards or an opponent is (then it answers with
  the lowest play that beats the table, to block).
- ``shedder``: sheds as many cards as it can, as early as it can. Leading, it leads its
  biggest play (the lowest of the largest size it holds); following, it always beats the
  table when it can, with the lowest play that does, 2s included.

Both go out when a play empties the hand, and both are pure functions of the view.
League members (docs/ai.md, "The league"), not lobby levels.
"""

from __future__ import annotations

import random
from typing import Final

from pusoy.engine.fast import FastPlay, low_rank, play_size
from pusoy.engine.moves import PASS, Move
from pusoy.engine.state import PlayerView
from pusoy.engine.tables import rank_counts

ACE_RANK: Final = 11  # ranks 0..12 are 3..2
# The hoarder spends its high cards and breaks its combinations from this many cards.
HOARD_UNTIL: Final = 4


def _going_out(view: PlayerView, plays: list[FastPlay]) -> FastPlay | None:
    hand = view.hand_mask
    return next((p for p in plays if p[0] == hand), None)


def hoarder_move(view: PlayerView, rng: random.Random) -> Move:
    """The hoarder's move (module doc)."""
    plays = view.legal_plays_fast()
    out = _going_out(view, plays)
    if out is not None:
        return Move(out[0])
    counts = rank_counts(view.hand_mask)
    if view.to_beat is None:
        singles = [p for p in plays if play_size(p[1]) == 1]
        loose = [p for p in singles if counts[low_rank(p[0])] == 1]
        pool = loose or singles or plays  # the opening lead may force a combination
        return Move(min(pool, key=lambda p: p[1])[0])
    if not plays:
        return PASS
    close = min((c for s, c in enumerate(view.card_counts) if s != view.seat and c), default=99)
    if len(view.hand) <= HOARD_UNTIL or close <= HOARD_UNTIL:
        return Move(min(plays, key=lambda p: p[1])[0])
    kept = [p for p in plays if _keeps(p, counts)]
    return Move(min(kept, key=lambda p: p[1])[0]) if kept else PASS


def _keeps(play: FastPlay, counts: list[int]) -> bool:
    """Whether ``play`` holds no ace or 2 and uses whole ranks of the hand (it breaks no
    pair or triple) unless it is a five-card hand."""
    mask, key = play
    if mask >> (4 * ACE_RANK):
        return False
    if play_size(key) == 5:
        return True
    return counts[low_rank(mask)] == mask.bit_count()


def shedder_move(view: PlayerView, rng: random.Random) -> Move:
    """The shedder's move (module doc)."""
    plays = view.legal_plays_fast()
    out = _going_out(view, plays)
    if out is not None:
        return Move(out[0])
    if not plays:
        return PASS
    if view.to_beat is None:
        return Move(min(plays, key=lambda p: (-play_size(p[1]), p[1]))[0])
    return Move(min(plays, key=lambda p: p[1])[0])
