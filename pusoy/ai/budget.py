"""How long a search bot may think per move.

Its own module, outside the modules ``pusoy.compiled`` may build: a compiled frozen
dataclass does not pickle back into a plain one, and the arena sends budgets to worker
processes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# The wall time of a search bounded by rollouts alone: far beyond any search of the
# league's or the training's sizes, so only the count bounds it and a loaded machine
# plays the same moves, only slower.
NO_TIME_LIMIT: Final = 3600.0


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search bot may think per move: ``seconds`` of wall time, and at most
    ``iterations`` rollouts when given (whichever ends first)."""

    seconds: float = 1.0
    iterations: int | None = None

    def __post_init__(self) -> None:
        if not self.seconds > 0:
            raise ValueError(f"a budget needs seconds > 0, not {self.seconds!r}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"a budget needs iterations >= 1, not {self.iterations!r}")

    @classmethod
    def of_rollouts(cls, count: int) -> Budget:
        """At most ``count`` rollouts, whatever the time they take."""
        return cls(seconds=NO_TIME_LIMIT, iterations=count)


DEFAULT_BUDGET = Budget()
