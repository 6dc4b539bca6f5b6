"""factory-boy factories for test data."""

from __future__ import annotations

import factory

from players.models import Player

TEST_PASSWORD = "correct-horse-battery-staple"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password(TEST_PASSWORD)
