"""Fixtures for auth tests: a fresh cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle and backoff state lives in the (per-process) cache: no test sees
    another's."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
