"""A rating per player and per AI level, and the history of every change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from ratings.system import MU, SIGMA, Skill


class Rating(models.Model):
    """The rating of one player or one AI level (exactly one of the two)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating",
    )
    bot_level = models.CharField(max_length=20, null=True, blank=True, unique=True)
    mu = models.FloatField(default=MU)
    sigma = models.FloatField(default=SIGMA)
    deals = models.PositiveIntegerField(default=0, help_text="Rated deals played.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(player__isnull=False, bot_level__isnull=True)
                | Q(player__isnull=True, bot_level__isnull=False),
                name="rating_player_xor_bot",
            )
        ]
        indexes = [models.Index(models.F("mu") - 3 * models.F("sigma"), name="rating_display")]

    def __str__(self) -> str:
        return f"{self.player_id or self.bot_level}: {self.skill.display}"

    @property
    def skill(self) -> Skill:
        return Skill(mu=self.mu, sigma=self.sigma)


class RatingChange(models.Model):
    """One rated deal's effect on one rating: the audit trail of every number shown."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    deal_number = models.PositiveIntegerField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["rating", "game", "deal_number"], name="rating_change_once_per_deal"
            )
        ]
        indexes = [models.Index(fields=["rating", "-id"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.rating_id} {self.game_id}/{self.deal_number}: {self.mu:.2f}"
