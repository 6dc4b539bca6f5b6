"""The rating system: openskill's Plackett-Luce model, a multiplayer Bayesian rating
(mu, sigma) updated from a finishing order, maintained as a library rather than written
here (docs/ratings.md says why this one). No Django: pure functions over numbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU: float = MODEL.mu  # 25
SIGMA: float = MODEL.sigma  # 25 / 3


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> float:
        """The conservative estimate the leaderboard orders by: 99.7% sure the skill is at
        least this (mu - 3 sigma; 0 for a newcomer)."""
        return round(self.mu - 3 * self.sigma, 2)


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """New skills after one deal; ``ranks[i]`` is seat i's place (1 = went out first;
    equal ranks tie). Every entity is a team of one."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(mu=team[0].mu, sigma=team[0].sigma) for team in rated]


def deal_ranks(
    *, winner: int, cards_left: Sequence[int], places: Sequence[int], play_out: bool
) -> list[int]:
    """Each seat's place in a deal. With ``play_out`` the deal is played to the end and
    ``places`` is the real order; otherwise only the winner went out, and the others are
    placed by the cards they were left with (equal counts tie)."""
    if play_out:
        return [places.index(seat) + 1 for seat in range(len(cards_left))]
    others = sorted({n for seat, n in enumerate(cards_left) if seat != winner})
    return [1 if seat == winner else 2 + others.index(n) for seat, n in enumerate(cards_left)]
