"""Each AI level's starting rating, measured in the arena (`manage.py ratings_calibrate`,
docs/ai.md has the run that made these). A level's row starts here the first time a rated
game seats it, and from then on moves with its results against people."""

from __future__ import annotations

# level: (mu, sigma)
CALIBRATED: dict[str, tuple[float, float]] = {}
