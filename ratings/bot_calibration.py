"""Each AI level's starting rating, measured in the arena (`manage.py ratings_calibrate`,
docs/ai.md has the run that made these). A level's row starts here the first time a rated
game seats it, and from then on moves with its results against people."""

from __future__ import annotations

# level: (mu, sigma). `manage.py ratings_calibrate --deals 3000 --workers 2` (philippine, 4
# seats, one of each level rotated, expert 100 ms per move compiled, 2 cores), 2026-12-07,
# the expert reading its opponents' styles: the levels rated as fixed entrants over 8
# orders of the deals (sigma 0.68-0.71 then), sigma floored at 2.0 so a level still moves
# with its results against people.
CALIBRATED: dict[str, tuple[float, float]] = {
    "random": (19.83, 2.00),
    "greedy": (24.91, 2.00),
    "heuristic": (25.92, 2.00),
    "expert": (28.46, 2.00),
}
