"""``verify_record`` as a pure function: read record files, print one line each, return
the exit code (0 only when every file is a valid record). The Django management command
``python manage.py verify_record`` is a thin wrapper around ``run``."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from pusoy.engine.record import Verification, verify_record


def verify_file(path: str) -> Verification:
    """Verify one file; a file that cannot be read or parsed is ``unreadable``."""
    try:
        with open(path, encoding="utf-8") as handle:
            obj = json.load(handle)
    except OSError as error:
        return Verification(False, None, "unreadable_file", str(error), readable=False)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return Verification(False, None, "bad_json", f"not JSON: {error}", readable=False)
    return verify_record(obj)


def line_for(path: str, verdict: Verification) -> str:
    """``FILE: valid``, ``FILE: invalid at move I: CODE``, ``FILE: invalid: CODE`` (a
    problem of the deal itself, such as ``seed_mismatch``) or ``FILE: unreadable: CODE``."""
    if verdict.valid:
        return f"{path}: valid"
    if not verdict.readable:
        return f"{path}: unreadable: {verdict.code}"
    if verdict.move_index is None:
        return f"{path}: invalid: {verdict.code}"
    return f"{path}: invalid at move {verdict.move_index}: {verdict.code}"


def json_line_for(path: str, verdict: Verification) -> str:
    obj: dict[str, Any] = {
        "file": path,
        "valid": verdict.valid,
        "move_index": verdict.move_index,
        "code": verdict.code,
    }
    return json.dumps(obj)


def run(paths: Iterable[str], as_json: bool, out: TextIO) -> int:
    """Verify every file, one line each on ``out``; 0 when all are valid, else 1."""
    exit_code = 0
    for path in paths:
        verdict = verify_file(path)
        out.write((json_line_for if as_json else line_for)(path, verdict) + "\n")
        if not verdict.valid:
            exit_code = 1
    return exit_code
