"""The tamper-evident move log: each move's `chain` is
SHA-256(previous chain + the move's canonical JSON), starting from the deal's seed
commitment, so changing, dropping or reordering any move breaks every later link."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence


def move_canonical_json(
    *, deal_number: int, seq: int, seat: int, action: str, cards: Sequence[str]
) -> str:
    """Sorted keys, no spaces, cards in canonical order: one byte string per move."""
    body = {"deal": deal_number, "seq": seq, "seat": seat, "action": action, "cards": list(cards)}
    return json.dumps(body, sort_keys=True, separators=(",", ":"))


def chain_next(previous: str, canonical_json: str) -> str:
    return hashlib.sha256((previous + canonical_json).encode()).hexdigest()


def chain_genesis(commitment: str) -> str:
    """The link before move 1: the deal's public seed commitment."""
    return commitment
