"""Positions for the learned policy to imitate, and their cache (``python -m
pusoy.ai.learned.train`` makes them; docs/ai.md, "The learned level").

A position is what the seat to move sees, as the ints of ``FastState.from_view`` (the
other hands unknown), with the move a teacher chose there: the ``heuristic``, or the
``expert`` at a fixed rollout count (a fixed count, not a time budget, so a dataset
does not depend on the machine's load). Positions come from deals played by heuristics
that each make a uniformly random legal move now and then (``explore``), so the policy
also meets positions the heuristic itself would not reach. Only positions with two
legal moves or more are kept.

Chunks of positions are written to ``cache_dir()`` (git-ignored), one file per chunk,
each from its own seed: a run stopped early keeps the chunks it finished, and running
it again makes only the missing ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pusoy.ai.budget import Budget
from pusoy.ai.expert import expert_move
from pusoy.ai.heuristic import heuristic_move
from pusoy.engine.fast import FastState
from pusoy.engine.rules import Rules
from pusoy.engine.state import DealState, PlayerView

ROOT = Path(__file__).resolve().parents[3]
# Columns of a position row: the FastState fields a seat's view fixes.
COLUMNS = (
    "n",
    "turn",
    "hand",
    "played",
    "beat_mask",
    "beat_key",
    "last",
    "leader",
    "passed",
    "active",
    "required",
    "count0",
    "count1",
    "count2",
    "count3",
)
IntArray = npt.NDArray[np.int64]


def cache_dir() -> Path:
    """``$PUSOY_LEARNED_CACHE`` or ``.cache/learned`` in the checkout (git-ignored)."""
    return Path(os.environ.get("PUSOY_LEARNED_CACHE") or ROOT / ".cache" / "learned")


def state_row(sim: FastState) -> list[int]:
    counts = [*sim.counts, *([0] * (4 - sim.n))]
    return [
        sim.n,
        sim.turn,
        sim.hands[sim.turn],
        sim.played,
        sim.beat_mask,
        sim.beat_key,
        sim.last,
        sim.leader,
        sim.passed,
        sim.active,
        sim.required,
        *counts,
    ]


def state_from_row(rules: Rules, row: list[int]) -> FastState:
    """The seat-to-move's ``FastState`` (other hands empty) a row was made from."""
    n = row[0]
    sim = FastState.at_start(rules, [0] * n, list(row[11 : 11 + n]), row[1])
    sim.hands[row[1]] = row[2]
    sim.played = row[3]
    sim.beat_mask = row[4]
    sim.beat_key = row[5]
    sim.last = row[6]
    sim.leader = row[7]
    sim.passed = row[8]
    sim.active = row[9]
    sim.required = row[10]
    return sim


@dataclass(frozen=True)
class Teacher:
    """``heuristic``, or ``expert`` at ``rollouts`` per move."""

    name: str
    rollouts: int = 0

    @property
    def label(self) -> str:
        return self.name if self.name == "heuristic" else f"{self.name}-{self.rollouts}"

    def move(self, view: PlayerView, rng: random.Random) -> int:
        """The mask of the teacher's move (0: a pass)."""
        if self.name == "heuristic":
            return heuristic_move(view, rng).mask
        return expert_move(view, rng, Budget.of_rollouts(self.rollouts)).mask


def generate_chunk(
    rules: Rules, teacher: Teacher, seed: str, positions: int, explore: float = 0.1
) -> tuple[IntArray, IntArray]:
    """``positions`` rows and, per row, the mask the teacher chose: 4-player deals
    played from ``seed``."""
    rng = random.Random(seed)
    rows: list[list[int]] = []
    chosen: list[int] = []
    deal = 0
    while len(rows) < positions:
        state = DealState.from_seed(
            rules, hashlib.sha256(f"learned:{seed}:{deal}".encode()).digest(), 4
        )
        deal += 1
        while not state.is_over and len(rows) < positions:
            seat = state.turn
            assert seat is not None
            view = state.view(seat)
            moves = view.legal_moves()
            if len(moves) > 1:
                rows.append(state_row(FastState.from_view(view)))
                chosen.append(teacher.move(view, rng))
            if rng.random() < explore:
                state.apply(rng.choice(moves))
            else:
                state.apply(heuristic_move(view, rng))
    return np.array(rows, dtype=np.int64), np.array(chosen, dtype=np.int64)


def chunk_path(rules: Rules, teacher: Teacher, index: int) -> Path:
    spec = hashlib.sha256(json.dumps(rules.to_spec(), sort_keys=True).encode()).hexdigest()[:8]
    return cache_dir() / f"{teacher.label}-{spec}" / f"chunk-{index:04d}.npz"


def ensure_chunks(
    rules: Rules, teacher: Teacher, chunks: int, per_chunk: int, log: bool = True
) -> list[Path]:
    """Make the chunks ``0 .. chunks - 1`` that are not cached yet; their paths."""
    paths = []
    for index in range(chunks):
        path = chunk_path(rules, teacher, index)
        if not path.exists():
            rows, chosen = generate_chunk(rules, teacher, f"{teacher.label}:{index}", per_chunk)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, rows=rows, chosen=chosen)
            tmp.replace(path)
            if log:
                print(f"  {path.relative_to(cache_dir())}: {len(rows)} positions", flush=True)
        paths.append(path)
    return paths


def load_chunks(paths: list[Path]) -> tuple[IntArray, IntArray]:
    rows = []
    chosen = []
    for path in paths:
        with np.load(path) as data:
            rows.append(data["rows"])
            chosen.append(data["chosen"])
    return np.concatenate(rows), np.concatenate(chosen)
