"""The load benchmarks' server models and `--baseline` (benchmarks.load.api), shared by
`benchmarks.load.api` and `benchmarks.load.scale_out`: which models run, in which order,
and from which checkout."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from benchmarks.load import api as bench


@pytest.fixture
def parser(monkeypatch):
    monkeypatch.setattr(bench, "BASELINE", None)  # server_models sets it
    parser = argparse.ArgumentParser()
    parser.add_argument("--servers", default="by-kind,asgi")
    bench.add_baseline_argument(parser, "runs from it too")
    return parser


def models(parser: argparse.ArgumentParser, *argv: str) -> list[str]:
    return bench.server_models(parser, parser.parse_args(argv))


def test_the_models_named_in_their_order_from_this_checkout(parser):
    assert models(parser) == ["by-kind", "asgi"]
    assert models(parser, "--servers", "gthread,by-kind") == ["gthread", "by-kind"]
    assert bench.BASELINE is None
    assert bench.model_described("asgi") == bench.MODELS["asgi"].describe


def test_a_baseline_runs_each_model_from_that_checkout_first(parser, tmp_path):
    (tmp_path / "sub").mkdir()
    got = models(parser, "--servers", "asgi,gthread", "--baseline", f"{tmp_path}/sub/..")
    assert got == ["asgi@base", "asgi", "gthread@base", "gthread"]
    assert tmp_path.resolve() == bench.BASELINE  # resolved: the servers run elsewhere
    assert bench.model_described("asgi@base") == (
        f"{bench.MODELS['asgi'].describe} (from {tmp_path.resolve()})"
    )
    assert bench.model_described("asgi") == bench.MODELS["asgi"].describe


def test_an_unknown_model_is_a_usage_error(parser, capsys):
    with pytest.raises(SystemExit) as exited:
        models(parser, "--servers", "by-kind,nope", "--baseline", ".")
    assert exited.value.code == 2
    assert "unknown server model(s) ['nope']" in capsys.readouterr().err
    assert bench.BASELINE is None  # refused before anything is set


def test_the_baseline_help_says_how_its_runs_stand(parser):
    assert "the code before a change): each model runs from it too" in " ".join(
        parser.format_help().split()
    )
    assert parser.parse_args([]).baseline is None
    assert isinstance(parser.parse_args(["--baseline", "x"]).baseline, Path)
