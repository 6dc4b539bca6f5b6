from __future__ import annotations

from collections.abc import Iterator

import pytest

from .receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A push service on a free port (files that need VAPID keys bind their own)."""
    made = Receiver()
    yield made
    made.close()
