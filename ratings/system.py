"""The rating system: openskill's Plackett-Luce model, a multiplayer Bayesian rating
(mu, sigma) updated from a finishing order, maintained as a library rather than written
here (pyproject.toml says why this one; docs/api.md "Ratings" how it is used). No
Django: pure functions over numbers."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# Rated games and the calibration place a deal's seats by the engine's own function,
# which the league reports too: one definition, so a bot's measured place is its rated one.
from pusoy.engine.scoring import deal_ranks as deal_ranks

MODEL = PlackettLuce()
MU: float = MODEL.mu  # 25
SIGMA: float = MODEL.sigma  # 25 / 3
# Without drift, for entrants whose skill does not change (the bots' calibration). Set
# on the model: ``rate(tau=0)`` would fall back to the default (openskill tests ``if tau``).
FIXED_MODEL = PlackettLuce(tau=0.0)


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> float:
        """The conservative estimate the leaderboard orders by: 99.7% sure the skill is at
        least this (mu - 3 sigma; 0 for a newcomer)."""
        return round(self.mu - 3 * self.sigma, 2)


def rate(skills: Sequence[Skill], ranks: Sequence[int], *, drift: bool = True) -> list[Skill]:
    """New skills after one deal; ``ranks[i]`` is seat i's place (1 = went out first;
    equal ranks tie). Every entity is a team of one. ``drift``: a player's skill may
    change over time (the model's tau, 25/300); without it, the skills are held fixed."""
    model = MODEL if drift else FIXED_MODEL
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = model.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(mu=team[0].mu, sigma=team[0].sigma) for team in rated]


def rate_fixed(
    deals: Iterable[tuple[Sequence[str], Sequence[int]]], orders: int = 8, seed: int = 0
) -> dict[str, Skill]:
    """The skills of entrants that do not change (bots), from deals given as (the
    entrant in each seat, each seat's place).

    Rated deal after deal without drift, so every deal counts alike and sigma keeps
    shrinking: with the drift rated games use, sigma levels off near 1.6 after a few
    hundred deals and the result is mostly the last few hundred, so a longer run is no
    sharper. An update is not commutative (the first deals, rated while sigma is wide,
    move mu most), so the deals are rated in ``orders`` shuffled orders and each mu is
    the mean over them (sigma too)."""
    listed = list(deals)
    rng = random.Random(seed)
    runs: list[dict[str, Skill]] = []
    for _ in range(orders):
        rng.shuffle(listed)
        skills: dict[str, Skill] = {}
        for names, ranks in listed:
            before = [skills.get(name, Skill()) for name in names]
            skills.update(zip(names, rate(before, ranks, drift=False), strict=True))
        runs.append(skills)
    return {
        name: Skill(
            mu=sum(run[name].mu for run in runs) / orders,
            sigma=sum(run[name].sigma for run in runs) / orders,
        )
        for name in runs[0]
    }
