"""Run by tests/ai/test_compiled.py in a fresh interpreter, compiled or not
(``PUSOY_COMPILED``): plays the bots on fixed deals and prints, as JSON, which search
modules it ran and a digest of every choice, so two runs can be compared."""

from __future__ import annotations

import hashlib
import json
import random
import sys

from pusoy import compiled

compiled.install()  # the opt-in, before the engine is imported

from pusoy.ai import Budget, choose_move, expert  # noqa: E402
from pusoy.ai.arena import run_arena  # noqa: E402
from pusoy.engine import DealState, Rules  # noqa: E402

# A rollout bound, never the clock: both runs must search exactly as far.
BUDGET = Budget.of_rollouts(40)
SPECS = (
    "philippine",
    "hong-kong",
    {"preset": "philippine-online", "scoring": "cards-left-tiered"},
    {"preset": "philippine", "scoring": "deuces-double"},
)


def main() -> None:
    deals = int(sys.argv[1])
    digest = hashlib.sha256()
    moves = 0
    for index in range(deals):
        spec = SPECS[index % len(SPECS)]
        players = 3 if index % 5 == 4 else 4
        rng = random.Random(f"probe-{index}")
        state = DealState.from_seed(Rules.from_spec(spec), rng.randbytes(32), players)
        while not state.is_over:
            seat = state.turn
            assert seat is not None
            level = "expert" if seat == index % players else "heuristic"
            move = choose_move(level, state.view(seat), rng, budget=BUDGET)
            digest.update(f"{index}:{seat}:{move}|".encode())
            state.apply(move)
            moves += 1
    # The arena's worker processes start fresh interpreters (spawn) and pickle budgets
    # and outcomes across: they must find the same build and play the same deals.
    report = run_arena(
        ["expert", "heuristic", "heuristic", "heuristic"],
        4,
        Rules.from_spec("philippine"),
        seed="probe",
        budget=BUDGET,
        workers=2,
    )
    for outcome in report.outcomes:
        digest.update(f"{outcome.index}:{outcome.places}:{outcome.points}|".encode())
    print(
        json.dumps(
            {
                "status": compiled.STATUS,
                "expert_compiled": compiled.is_compiled(expert),
                "digest": digest.hexdigest(),
                "moves": moves,
                "arena_deals": len(report.outcomes),
            }
        )
    )


if __name__ == "__main__":
    main()
