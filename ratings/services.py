"""Rating writes. They run inside the transaction of the game write that caused them
(a deal's end, a resignation), under that game's row lock, so a rating moves exactly
when the deal's result commits."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from ratings.bot_calibration import CALIBRATED
from ratings.models import Rating, RatingChange
from ratings.system import Skill, rate


@dataclass(frozen=True)
class Entrant:
    """Who a seat's result counts for: a player, or an AI level."""

    player_id: uuid.UUID | None = None
    bot_level: str | None = None

    @property
    def is_human(self) -> bool:
        return self.player_id is not None


def _ratings_locked(entrants: Sequence[Entrant]) -> dict[Entrant, Rating]:
    """The entrants' rating rows, created at their starting values if new, locked.

    Rows are created and then locked in one fixed order (players by id, then levels by
    name), so two deals finishing at once with a player in common wait for each other
    instead of deadlocking, and neither loses the other's update."""
    players = sorted({e.player_id for e in entrants if e.player_id is not None}, key=str)
    levels = sorted({e.bot_level for e in entrants if e.bot_level is not None})
    new_rows = [Rating(player_id=p) for p in players]
    for level in levels:
        mu, sigma = CALIBRATED.get(level, (Skill().mu, Skill().sigma))
        new_rows.append(Rating(bot_level=level, mu=mu, sigma=sigma))
    Rating.objects.bulk_create(new_rows, ignore_conflicts=True)
    rows = (
        Rating.objects.select_for_update()
        .filter(Q(player_id__in=players) | Q(bot_level__in=levels))
        .order_by("pk")
    )
    by_key = {(r.player_id, r.bot_level): r for r in rows}
    return {e: by_key[(e.player_id, e.bot_level)] for e in entrants}


def ratings_apply_deal(
    *,
    game_id: uuid.UUID,
    deal_number: int,
    entrants: Sequence[Entrant | None],
    ranks: Sequence[int],
) -> None:
    """Rate one finished deal: ``entrants[seat]`` (None for a seat that counts for nobody,
    e.g. one whose player resigned) placed ``ranks[seat]``. A deal rates only when a
    person took part, and needs two entrants to compare."""
    seats = [seat for seat, e in enumerate(entrants) if e is not None]
    present = [e for e in entrants if e is not None]
    if len(present) < 2 or not any(e.is_human for e in present):
        return
    rows = _ratings_locked(present)
    after = rate([rows[e].skill for e in present], [ranks[seat] for seat in seats])
    # An AI level may hold several seats of one deal: each seat is rated as a copy of
    # the level, and the level moves by their mean change (its best place is recorded).
    results: dict[Entrant, list[tuple[Skill, int]]] = {}
    for entrant, skill, seat in zip(present, after, seats, strict=True):
        results.setdefault(entrant, []).append((skill, ranks[seat]))
    changes = []
    for entrant, outcomes in results.items():
        row = rows[entrant]
        mu = row.mu + sum(s.mu - row.mu for s, _ in outcomes) / len(outcomes)
        sigma = sum(s.sigma for s, _ in outcomes) / len(outcomes)
        changes.append((row, Skill(mu=mu, sigma=sigma), min(place for _, place in outcomes)))
    _save(game_id, deal_number, changes)


def ratings_apply_resignation(
    *, game_id: uuid.UUID, deal_number: int, resigner: Entrant, others: Sequence[Entrant]
) -> None:
    """A resigner is rated as last in the deal they walked away from; the others keep
    their ratings (their deal goes on, and is rated when it ends)."""
    if not others:
        return
    rows = _ratings_locked([resigner, *others])
    skills = [rows[resigner].skill, *(rows[e].skill for e in others)]
    last = len(skills)
    after = rate(skills, [last, *[1] * len(others)])
    _save(game_id, deal_number, [(rows[resigner], after[0], last)])


def _save(
    game_id: uuid.UUID, deal_number: int, changes: Sequence[tuple[Rating, Skill, int]]
) -> None:
    history = []
    now = timezone.now()  # bulk_update leaves auto_now fields alone
    for row, skill, place in changes:
        history.append(
            RatingChange(
                rating=row,
                game_id=game_id,
                deal_number=deal_number,
                place=place,
                mu_before=row.mu,
                sigma_before=row.sigma,
                mu=skill.mu,
                sigma=skill.sigma,
            )
        )
        row.mu, row.sigma, row.deals, row.updated_at = skill.mu, skill.sigma, row.deals + 1, now
    Rating.objects.bulk_update(
        [row for row, _, _ in changes], ["mu", "sigma", "deals", "updated_at"]
    )
    RatingChange.objects.bulk_create(history)
