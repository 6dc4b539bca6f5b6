"""Rating reads: a player's or an AI level's rating and a player's history."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db.models import QuerySet

from ratings.bot_calibration import CALIBRATED
from ratings.models import Rating, RatingChange
from ratings.system import Skill


@dataclass(frozen=True)
class RatingView:
    skill: Skill
    deals: int


def rating_of(rating: Rating | None) -> RatingView:
    """A rating row as shown (a player never rated shows the starting rating)."""
    if rating is None:
        return RatingView(skill=Skill(), deals=0)
    return RatingView(skill=rating.skill, deals=rating.deals)


def bot_ratings(levels: tuple[str, ...]) -> dict[str, RatingView]:
    """Each AI level's rating: its row once a rated game has seated it, else the arena's
    calibration."""
    rows = {r.bot_level: r for r in Rating.objects.filter(bot_level__in=levels)}
    views = {}
    for level in levels:
        if level in rows:
            views[level] = rating_of(rows[level])
        else:
            mu, sigma = CALIBRATED.get(level, (Skill().mu, Skill().sigma))
            views[level] = RatingView(skill=Skill(mu=mu, sigma=sigma), deals=0)
    return views


def rating_history(*, player_id: uuid.UUID) -> QuerySet[RatingChange]:
    """A player's rated deals, newest first."""
    return RatingChange.objects.filter(rating__player_id=player_id).order_by("-id")
