"""Where a match stands while one of its deals is played (public to every seat).

A game is a match of deals that ends after a number of deals or when a seat's score
reaches a target (docs/rules.md "Matches"). Players see the scores, so a bot may play
for the match, not only for the deal: protect a lead, chase a deficit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pusoy.engine.scoring import higher_score_wins


@dataclass(frozen=True, slots=True)
class MatchStanding:
    """The match before the deal in play: each seat's score and deals won so far, the
    deals left (this one included; None when the match ends on a score only) and the
    target score (None when it ends after a number of deals only)."""

    scores: tuple[int, ...]
    deals_won: tuple[int, ...]
    deals_left: int | None = None
    target_score: int | None = None

    def __post_init__(self) -> None:
        if len(self.scores) != len(self.deals_won):
            raise ValueError("a standing needs one score and one win count per seat")
        if self.deals_left is None and self.target_score is None:
            raise ValueError("a match ends after a number of deals or at a target score")
        if self.deals_left is not None and self.deals_left < 1:
            raise ValueError(f"deals_left counts the deal in play: >= 1, not {self.deals_left}")

    def after(self, points: Sequence[int], winner: int) -> MatchStanding:
        """The standing once this deal is scored (``points`` per seat)."""
        won = list(self.deals_won)
        won[winner] += 1
        return MatchStanding(
            scores=tuple(s + p for s, p in zip(self.scores, points, strict=True)),
            deals_won=tuple(won),
            deals_left=None if self.deals_left is None else max(1, self.deals_left - 1),
            target_score=self.target_score,
        )

    def ends_with(self, points: Sequence[int]) -> bool:
        """Whether the match is over once this deal's ``points`` are added."""
        if self.deals_left == 1:
            return True
        if self.target_score is None:
            return False
        return max(s + p for s, p in zip(self.scores, points, strict=True)) >= self.target_score

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "deals_won": list(self.deals_won),
            "deals_left": self.deals_left,
            "target_score": self.target_score,
        }


def match_order(scores: Sequence[int], deals_won: Sequence[int], scoring: str) -> list[int]:
    """Seats best first: the most points under ``deuces-double``, the fewest under the
    ``cards-left`` systems; ties go to more deals won, then the lower seat."""
    sign = -1 if higher_score_wins(scoring) else 1
    return sorted(range(len(scores)), key=lambda s: (sign * scores[s], -deals_won[s], s))
