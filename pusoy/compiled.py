"""The search's hot modules compiled to C by mypyc, used when a current build exists.

The bots spend their time in a few pure, typed modules (move generation, the tables,
scoring, the heuristic and the expert's search). ``scripts/build_compiled.py`` compiles
exactly these with mypyc, from the same sources, into ``build_dir()``; the build is used
only while it is current: its manifest holds the SHA-256 of every source file of
``pusoy.engine`` and ``pusoy.ai`` it was built from, and any change to any of them (or
another Python) makes the interpreter run the sources instead. Without a build, or with
``PUSOY_COMPILED=0``, everything runs as plain Python and plays the same moves, only
slower (docs/ai.md, "The compiled search").

``install()`` is an opt-in, called before any of these modules is imported (the service
in ``games/__init__.py``, the benchmarks in ``benchmarks/__init__.py``); it
puts a finder in front of the import system that answers for these modules, and for
the shared library mypyc builds them into, from the build directory. It changes nothing
else: every other module is imported as usual.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
# The modules the search spends its time in. Each is pure Python that mypy --strict
# accepts; a process that opts in imports none of them before ``install()`` runs.
COMPILED_MODULES = (
    "pusoy.engine.tables",
    "pusoy.engine.movegen",
    "pusoy.engine.fast",
    "pusoy.engine.scoring",
    "pusoy.ai.plan",
    "pusoy.ai.heuristic",
    "pusoy.ai.inference",
    "pusoy.ai.worlds",
    "pusoy.ai.match",
    "pusoy.ai.greedy",
    "pusoy.ai.opponents",
    "pusoy.ai.expert",
)
# mypyc puts the code of every module in one shared library of this name; each module
# is a small shim that imports it.
GROUP = "pusoy_compiled"
SHARED_LIBRARY = f"{GROUP}__mypyc"
# The sources whose hashes decide whether a build is current: all of the engine and the
# bots, since compiled modules inline the types and constants of the modules they import.
SOURCE_PACKAGES = ("pusoy/engine", "pusoy/ai")
MANIFEST = "manifest.json"


def enabled() -> bool:
    """Whether a current build may be used: ``PUSOY_COMPILED`` is not ``0``."""
    return os.environ.get("PUSOY_COMPILED", "1") != "0"


def build_dir() -> Path:
    """Where builds for this interpreter live: ``$PUSOY_COMPILED_DIR`` or
    ``build/compiled`` in the checkout, one subdirectory per Python ABI."""
    base = os.environ.get("PUSOY_COMPILED_DIR") or str(ROOT / "build" / "compiled")
    return Path(base) / str(sysconfig.get_config_var("SOABI"))


def source_hashes() -> dict[str, str]:
    """SHA-256 of every Python file of the engine and the bots, by path in the checkout."""
    hashes = {}
    for package in SOURCE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            hashes[path.relative_to(ROOT).as_posix()] = hashlib.sha256(
                path.read_bytes()
            ).hexdigest()
    return hashes


def fingerprint() -> str:
    """The engine's and the bots' sources (``source_hashes``) and whether the search runs
    compiled: what a benchmark run resumed in another process must share with the run it
    continues, so that both halves play the same moves."""
    sources = json.dumps(source_hashes(), sort_keys=True).encode()
    return f"{hashlib.sha256(sources).hexdigest()[:16]} {STATUS}"


def write_manifest(directory: Path, hashes: dict[str, str]) -> None:
    manifest = {"modules": list(COMPILED_MODULES), "python": sys.version, "sources": hashes}
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def extension_path(directory: Path, module: str) -> Path:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return directory.joinpath(*module.split(".")).with_name(module.rsplit(".", 1)[-1] + suffix)


def status(directory: Path, use: bool, hashes: dict[str, str] | None = None) -> str:
    """``"compiled"`` when the build in ``directory`` is current and may be used, else
    ``"python (why not)"``; ``hashes``: the sources' (``source_hashes``), when known."""
    if not use:
        return "python (PUSOY_COMPILED=0)"
    try:
        manifest = json.loads((directory / MANIFEST).read_text())
    except FileNotFoundError:
        return f"python (no build in {directory}: python scripts/build_compiled.py)"
    except (OSError, ValueError) as exc:
        return f"python (unreadable build manifest: {exc})"
    if manifest.get("modules") != list(COMPILED_MODULES):
        return "python (the build has other modules: rebuild)"
    if manifest.get("python") != sys.version:
        return "python (the build is for another Python: rebuild)"
    if manifest.get("sources") != (hashes if hashes is not None else source_hashes()):
        return "python (the sources changed since the build: rebuild)"
    missing = [
        m for m in (*COMPILED_MODULES, SHARED_LIBRARY) if not extension_path(directory, m).exists()
    ]
    if missing:
        return f"python (the build lacks {', '.join(missing)}: rebuild)"
    return "compiled"


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and their shared library) in one build directory."""

    def __init__(self, directory: Path) -> None:
        self.files = {
            name: extension_path(directory, name) for name in (*COMPILED_MODULES, SHARED_LIBRARY)
        }

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


STATUS = "python (not installed)"


def install() -> str:
    """Use the compiled modules when the build is current; returns ``STATUS``."""
    global STATUS
    if any(isinstance(f, _CompiledFinder) for f in sys.meta_path):
        return STATUS
    directory = build_dir()
    STATUS = status(directory, enabled())
    if STATUS == "compiled":
        sys.meta_path.insert(0, _CompiledFinder(directory))
    return STATUS


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled build."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)
