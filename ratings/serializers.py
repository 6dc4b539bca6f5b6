"""How ratings are answered: a rating, a player's rating inside their profile, and one
rated deal's change."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ratings.selectors import RatingView, rating_of
from ratings.system import Skill


class RatingSerializer(serializers.Serializer):
    """A rating (openskill Plackett-Luce): `display` = mu - 3 sigma, the conservative
    estimate leaderboards order by (0 for a newcomer)."""

    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    display = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated deals played.")

    def to_representation(self, instance: RatingView) -> dict[str, Any]:
        skill = instance.skill
        return {
            "mu": round(skill.mu, 4),
            "sigma": round(skill.sigma, 4),
            "display": skill.display,
            "games": instance.deals,
        }


@extend_schema_field(RatingSerializer)
class PlayerRatingField(serializers.Field):
    """The player's rating read through the one-to-one row (absent: never rated)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, player: Any) -> dict[str, Any]:
        # A player never rated has no row (the reverse accessor raises AttributeError).
        row = getattr(player, "rating", None)
        return RatingSerializer(rating_of(row)).data


class RatingChangeSerializer(serializers.Serializer):
    """One rated deal's effect on a player's rating."""

    game = serializers.UUIDField(source="game_id")
    deal = serializers.IntegerField(source="deal_number")
    place = serializers.IntegerField(help_text="1 = went out first.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    display = serializers.SerializerMethodField()
    change = serializers.SerializerMethodField(help_text="`display` after minus before.")
    created_at = serializers.DateTimeField()

    @extend_schema_field(OpenApiTypes.DOUBLE)
    def get_display(self, change: Any) -> float:
        return Skill(mu=change.mu, sigma=change.sigma).display

    @extend_schema_field(OpenApiTypes.DOUBLE)
    def get_change(self, change: Any) -> float:
        before = Skill(mu=change.mu_before, sigma=change.sigma_before).display
        return round(Skill(mu=change.mu, sigma=change.sigma).display - before, 2)
