"""The README's "Build a client", run as written: every shell block of the section, in
order, in one bash against the real server, each printing what the README shows after it
(`…` stands for anything within a line).

curl reads a `.curlrc` made here with `fail-with-body`: the README's commands stay as an
app developer types them, and a 4xx or 5xx still stops the run at the block that got it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.faults.helpers import need

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
README_ORIGIN = "http://127.0.0.1:8000"
MARK = "@@block "


def walkthrough() -> list[tuple[str, str | None]]:
    """The section's shell blocks, each with the output shown right after it (or None)."""
    readme = (ROOT / "README.md").read_text()
    start = readme.index("\n## Build a client\n")
    section = readme[start : readme.index("\n## ", start + 1)]
    blocks: list[tuple[str, str | None]] = []
    for kind, body in re.findall(r"^```(sh|text)\n(.*?)^```$", section, re.DOTALL | re.MULTILINE):
        if kind == "sh":
            blocks.append((body, None))
        else:
            assert blocks, f"output before any command: {body}"
            assert blocks[-1][1] is None, f"two outputs after one command: {body}"
            blocks[-1] = (blocks[-1][0], body)
    return blocks


def shown(output: str) -> re.Pattern[str]:
    parts = re.split("(…)", output.rstrip("\n"))
    return re.compile("".join(".*?" if part == "…" else re.escape(part) for part in parts))


def by_block(text: str) -> list[str]:
    """Output split at the markers the script prints before each block."""
    return re.split(rf"^{MARK}\d+\n", text, flags=re.MULTILINE)[1:]


def test_the_walkthrough_is_a_whole_game_and_says_what_each_step_prints():
    blocks = walkthrough()
    assert blocks[0] == (f"BASE={README_ORIGIN}/api/v1\n", None)
    commands = "".join(body for body, _ in blocks)
    for step in ("auth/register", "/state", "events?since=", "events/stream?ticket=",
                 "Idempotency-Key", "expected_seq", "/record", "records/verify"):  # fmt: skip
        assert step in commands, step
    assert sum(output is not None for _, output in blocks) >= 6


def test_every_command_of_build_a_client_prints_what_the_readme_shows(server_url, tmp_path):
    need(bool(shutil.which("curl") and shutil.which("jq")), "curl and jq")
    blocks = walkthrough()
    script = ["set -euo pipefail"]
    for number, (commands, _) in enumerate(blocks):
        script += [f"echo '{MARK}{number}'; echo '{MARK}{number}' >&2", commands]
    script[2] = script[2].replace(README_ORIGIN, server_url)
    (tmp_path / ".curlrc").write_text("fail-with-body\nmax-time = 60\n")
    run = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=tmp_path,
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path), "CURL_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    outputs, errors = by_block(run.stdout), by_block(run.stderr)
    reached = len(outputs) - 1
    assert run.returncode == 0, (
        f"block {reached} failed ({run.returncode}):\n{blocks[reached][0]}\n"
        f"stdout: {outputs[-1]}\nstderr: {errors[-1]}"
    )
    assert len(outputs) == len(blocks)
    for (commands, expected), output, error in zip(blocks, outputs, errors, strict=True):
        assert error == "", f"{commands}\nwrote to stderr: {error}"
        # Headers end in CRLF (`curl -D -`); a terminal shows them as plain lines.
        output = output.replace("\r\n", "\n")
        if expected is None:
            assert output == "", f"{commands}\nprinted what the README does not show: {output}"
        else:
            assert shown(expected).fullmatch(output.rstrip("\n")), (
                f"{commands}\nprinted:\n{output}\nthe README shows:\n{expected}"
            )
