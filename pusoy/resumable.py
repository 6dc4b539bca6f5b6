"""Where a stopped benchmark run takes up again: the checks shared by every log of arena
deals that can be resumed (``ai_points --resume``, ``ratings_calibrate --resume``).

A log is a first line of settings, then a line per deal, deals 0, 1, 2, ... in order as
``run_arena`` records them. Each command reads its own format (``parse``); the checks
that decide whether the second sitting may append to the first are the same for all:
the log holds what a resume needs, was played by the same engine and bots
(``compiled.fingerprint``, so both halves play the same moves), has no gap and is not
complete. A last line that the stop left half-written is cut off, but only from a file
that passed every check: a file that is no log is left as it was.

This module lies outside ``pusoy/ai`` on purpose: the fingerprint hashes that package's
sources, so moving these checks in there would refuse every log played before."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pusoy import compiled

# A command's reader of its own log format: the settings and the logged deals' indices
# from the text of the whole lines; ValueError (or KeyError, TypeError) if it is no log.
Parse = Callable[[str], tuple[dict[str, Any], Sequence[int]]]


class NotResumable(ValueError):
    """The log cannot be resumed; the message says why, for the command to show."""


def resume_point(
    path: str, kind: str, parse: Parse, needs: Iterable[str]
) -> tuple[dict[str, Any], int]:
    """The settings of the log at ``path`` and how many deals it holds; ``kind`` names
    such logs in a refusal ("a ratings_calibrate log"); ``needs``: the settings a resume
    reads (``deals`` and ``code`` among them)."""
    try:
        with open(path, encoding="utf-8") as log:
            text = log.read()
    except OSError as error:
        raise NotResumable(f"{path}: {error.strerror}") from None
    whole = text[: text.rfind("\n") + 1]
    try:
        settings, indices = parse(whole)
    except (ValueError, KeyError, TypeError) as error:
        raise NotResumable(f"{path} is not {kind} ({error})") from None
    missing = sorted(set(needs) - set(settings))
    if missing:
        raise NotResumable(
            f"{path} was logged without what a resume needs (no {', '.join(missing)})"
        )
    if settings["code"] != compiled.fingerprint():
        raise NotResumable(
            f"{path} was played by other engine or bot sources or another build of the "
            f"search (log {settings['code']!r}, now {compiled.fingerprint()!r})"
        )
    if list(indices) != list(range(len(indices))):
        raise NotResumable(f"{path}: its deals are not 0, 1, 2, ... in order")
    if len(indices) >= settings["deals"]:
        raise NotResumable(f"{path}: all {settings['deals']} deals are in it already")
    if whole != text:
        with open(path, "w", encoding="utf-8") as log:
            log.write(whole)
    return settings, len(indices)
