"""``laro bench lama --option edition=party``: the same figures for the Party Edition, its playouts measured
against the classic game's in the same run, and bad options refused before anything is measured."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from laro.cli.main import cli
from laro.sim.bench import CLASSIC_RATIO, PARTY_AGAINST_CLASSIC, bench_game
from laro.sim.search_bench import bench_search

PARTY = {"edition": "party"}


def test_the_party_edition_is_measured_against_the_classic_game() -> None:
    report = bench_game("lama", seconds=0.1, players=4, memory_games=5, options=PARTY)
    assert report.options == PARTY
    ratio = report.figure(CLASSIC_RATIO)
    assert ratio.value > 0 and ratio.baseline is not None and ratio.baseline > 0
    assert ratio.target_ratio == PARTY_AGAINST_CLASSIC and ratio.meets_target in (True, False)
    names = {figure.baseline_name for figure in report.figures if figure.baseline}
    assert any("reference L.A.M.A. Party Edition" in name for name in names)
    assert report.figure("apply calls/s").value > 0
    classic = bench_game("lama", seconds=0.05, players=4, memory_games=5)
    assert CLASSIC_RATIO not in {figure.name for figure in classic.figures}


def test_the_search_figures_of_the_party_edition() -> None:
    figures = bench_search("lama", seconds=0.2, players=3, options=PARTY)
    assert figures[0].value > 0 and figures[1].value > 0 and figures[2].value > 0


def test_bad_options_are_refused_before_measuring() -> None:
    result = CliRunner().invoke(cli, ["bench", "lama", "-o", "edition=fun"])
    assert result.exit_code != 0 and "must be one of classic, party" in result.output
    result = CliRunner().invoke(cli, ["bench", "-o", "edition=party"])
    assert result.exit_code != 0 and "name the game" in result.output


@pytest.mark.slow
def test_laro_bench_lama_party_prints_every_figure() -> None:
    result = CliRunner().invoke(cli, ["bench", "lama", "-o", "edition=party", "--seconds", "0.1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["options"] == PARTY
    names = {figure["name"] for figure in data["figures"]}
    assert {CLASSIC_RATIO, "random playout moves/s", "ISMCTS simulations/s (hard level, game judge)"} <= names
    assert any(name.startswith("tournament games/s") for name in names)
