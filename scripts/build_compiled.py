"""Compile the search's hot modules with mypyc (``pusoy.compiled``; docs/ai.md).

    python scripts/build_compiled.py           # build into pusoy.compiled.build_dir()
    python scripts/build_compiled.py --check   # exit 1 unless a current build is there

The build is optional: without mypy or a C compiler this says so and exits 0, and the
bots run as plain Python. It is redone only when a source of the engine or the bots
changed (the manifest's hashes), so running it again is cheap.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Only this script's own view of the modules: the sources, never an older build.
os.environ["PUSOY_COMPILED"] = "0"

from pusoy import compiled  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    parser.add_argument("--force", action="store_true", help="rebuild even when current")
    args = parser.parse_args()
    directory = compiled.build_dir()
    hashes = compiled.source_hashes()
    current = compiled.status(directory, True, hashes)
    if args.check:
        print(f"compiled search: {current}")
        return 0 if current == "compiled" else 1
    if current == "compiled" and not args.force:
        print(f"compiled search: current in {directory}")
        return 0
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as exc:
        print(f"compiled search: not built ({exc}; pip install -e '.[compiled]')")
        return 0
    if shutil.which(os.environ.get("CC", "cc")) is None:
        print("compiled search: not built (no C compiler); the bots run as plain Python")
        return 0
    start = time.perf_counter()
    sources = [
        str(Path(*module.split(".")).with_suffix(".py")) for module in compiled.COMPILED_MODULES
    ]
    with tempfile.TemporaryDirectory() as work:
        # An empty mypy configuration: the project's pyproject.toml loads the Django
        # plugins, which these pure modules neither need nor may import.
        config = Path(work) / "mypy.ini"
        config.write_text("[mypy]\n")
        staging = Path(work) / "out"
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            extensions = mypycify(
                ["--config-file", str(config), "--strict", *sources],
                opt_level="3",
                group_name=compiled.GROUP,
                target_dir=str(Path(work) / "c"),
            )
            dist = Distribution({"name": compiled.GROUP, "ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_lib = str(staging)
            command.build_temp = str(Path(work) / "temp")
            command.ensure_finalized()
            command.run()
        finally:
            os.chdir(cwd)
        # Replace the whole directory at once: a half-written build is never current.
        compiled.write_manifest(staging, hashes)
        if directory.exists():
            shutil.rmtree(directory)
        directory.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(staging, directory)
    if compiled.source_hashes() != hashes:
        print("compiled search: the sources changed during the build; run it again")
        return 1
    print(f"compiled search: built in {directory} ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
