"""The checks every resumable log of arena deals shares (``pusoy.resumable``); the two
commands that use them are tested end to end in test_arena.py and
tests/ratings/test_ratings_calibrate.py."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pusoy import compiled
from pusoy.resumable import NotResumable, resume_point

NEEDS = ("deals", "code")


def parse(text: str) -> tuple[dict[str, Any], list[int]]:
    first, _newline, rest = text.partition("\n")
    return json.loads(first), [json.loads(line)["index"] for line in rest.splitlines()]


def write(path: Path, indices: list[int], tail: str = "", **settings: Any) -> str:
    lines = [json.dumps({"deals": 5, "code": compiled.fingerprint(), **settings})]
    lines += [json.dumps({"index": i}) for i in indices]
    text = "\n".join(lines) + "\n" + tail
    path.write_text(text)
    return text


def test_a_good_log_resumes_after_its_last_whole_line(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    write(log, [0, 1, 2], tail='{"index": 3, "half')
    settings, done = resume_point(str(log), "a test log", parse, NEEDS)
    assert (settings["deals"], done) == (5, 3)
    assert log.read_text().splitlines()[-1] == '{"index": 2}'


@pytest.mark.parametrize(
    ("indices", "settings", "refusal"),
    [
        ([0, 2], {}, "not 0, 1, 2, ... in order"),
        ([1, 0], {}, "not 0, 1, 2, ... in order"),
        ([0, 1, 2, 3, 4], {}, "all 5 deals are in it already"),
        ([0], {"code": "0123456789abcdef python"}, "other engine or bot sources"),
    ],
)
def test_a_log_with_a_gap_of_other_sources_or_complete_is_refused_and_left_as_it_was(
    tmp_path: Path, indices: list[int], settings: dict[str, Any], refusal: str
) -> None:
    log = tmp_path / "log.jsonl"
    text = write(log, indices, tail='{"ind', **settings)
    with pytest.raises(NotResumable, match=re.escape(refusal)):
        resume_point(str(log), "a test log", parse, NEEDS)
    assert log.read_text() == text


def test_a_log_without_what_a_resume_needs_names_what_it_lacks(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    write(log, [0])
    with pytest.raises(NotResumable, match=r"without what a resume needs \(no budget, seats\)"):
        resume_point(str(log), "a test log", parse, (*NEEDS, "seats", "budget"))


def test_what_is_no_log_or_no_file_is_refused_by_its_kind(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("some notes\n")
    with pytest.raises(NotResumable, match=re.escape("notes.txt is not a test log")):
        resume_point(str(notes), "a test log", parse, NEEDS)
    with pytest.raises(NotResumable, match="No such file"):
        resume_point(str(tmp_path / "none"), "a test log", parse, NEEDS)
