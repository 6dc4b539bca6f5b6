"""Reads of push: a player's devices and preferences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from . import content
from .models import Device, Preferences

MUTED_GAMES_MAX = 500


def devices_of(*, player: Any) -> QuerySet[Device]:
    return Device.objects.filter(player=player).order_by("-created_at", "-id")


@dataclass(frozen=True)
class PreferencesView:
    kinds: dict[str, bool]
    muted_games: list[str]


def preferences_of(*, player: Any) -> PreferencesView:
    """Every pushed kind with whether it is on, and the muted games (defaults: all on)."""
    prefs = Preferences.objects.filter(player=player).first()
    off = set(prefs.kinds_off) if prefs else set()
    return PreferencesView(
        kinds={kind: kind not in off for kind in content.PUSHED_KINDS},
        muted_games=list(prefs.muted_games) if prefs else [],
    )
