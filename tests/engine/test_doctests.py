"""The examples in the engine's docstrings run."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

MODULES = [
    "pusoy.engine",
    "pusoy.engine.cards",
    "pusoy.engine.rules",
    "pusoy.engine.moves",
    "pusoy.engine.fast",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, verbose=False)
    assert tried > 0
    assert failures == 0


def test_engine_page_examples() -> None:
    """docs/engine.md's examples (the fast API's bot loop) run."""
    path = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
    failures, tried = doctest.testfile(str(path), module_relative=False, verbose=False)
    assert tried > 0
    assert failures == 0
