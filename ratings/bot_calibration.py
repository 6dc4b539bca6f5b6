"""Each AI level's starting rating, measured in the arena (`manage.py ratings_calibrate`,
docs/ai.md has the run that made these). A level's row starts here the first time a rated
game seats it, and from then on moves with its results against people."""

from __future__ import annotations

# level: (mu, sigma). `manage.py ratings_calibrate --deals 800 --workers 2` (philippine, 4
# seats, one of each level rotated, expert 100 ms per move, 2 cores), rerun 2026-11-30
# after the expert read the history by chains and the heuristic kept its 2s to go out on;
# sigma floored at 2.0 so a level still moves with its results against people.
CALIBRATED: dict[str, tuple[float, float]] = {
    "random": (19.66, 2.00),
    "greedy": (23.62, 2.00),
    "heuristic": (26.98, 2.00),
    "expert": (29.21, 2.00),
}
