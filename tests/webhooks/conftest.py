from __future__ import annotations

from collections.abc import Iterator

import pytest

from .helpers import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A webhook receiver on a free port, recording what it is sent (statuses 200)."""
    made = Receiver()
    yield made
    made.close()
