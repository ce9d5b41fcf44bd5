"""``laro bench rl`` as a user runs it: the engines measured in one run (the batched one in both editions), with
the ratios."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from laro.rl import lama_v0
from laro.rl.bench import bench_rl, pettingzoo_turns_per_second


def _laro(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "laro", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "COLUMNS": "200"},  # one table row a line
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_laro_bench_rl_prints_every_figure_and_the_ratios() -> None:
    out = _laro("bench", "rl", "--seconds", "0.3", "--batch", "256", "--players", "3")
    for name in (
        "batched engine steps/s",
        "scalar engine via PettingZoo steps/s",
        "batched ÷ scalar via PettingZoo",
        "PettingZoo leduc_holdem_v4 steps/s",
        "batched engine, Party Edition steps/s",
        "batched Party ÷ classic",
        "bare scalar engine steps/s",
        "Gymnasium vector env learner steps/s",
        "batched ÷ bare scalar engine",
        "scalar observation encoding ns/step",
        "batched observation ns/game-step",
        "OpenSpiel bridge ns/action",
        "OpenSpiel bridge ÷ laro's apply",
        "this process's share of a core, %",
        "B = 256, 3 players",
        "edition=party, B = 256, 3 players",
    ):
        assert name in " ".join(out.split()), out
    assert "≥ 10×" in out and "measured now" in out


def test_the_json_figures_agree_with_each_other() -> None:
    figures = {f["name"]: f for f in json.loads(_laro("bench", "rl", "--seconds", "0.2", "--batch", "4096", "--json"))}
    batched = figures["batched engine steps/s"]
    scalar = figures["scalar engine via PettingZoo steps/s"]
    ratio = figures["batched ÷ scalar via PettingZoo"]
    assert batched["target"] == 3_000_000 and batched["value"] > 0 and scalar["value"] > 0
    assert ratio["ratio"] == pytest.approx(batched["value"] / scalar["value"])
    assert ratio["met"] == (ratio["ratio"] >= 10)
    party = figures["batched engine, Party Edition steps/s"]
    assert party["value"] > 0 and "games finished" in party["detail"]
    assert figures["batched Party ÷ classic"]["ratio"] == pytest.approx(party["value"] / batched["value"])
    bare = figures["bare scalar engine steps/s"]["value"]
    assert figures["batched ÷ bare scalar engine"]["ratio"] == pytest.approx(batched["value"] / bare)
    bridge = figures["OpenSpiel bridge ns/action"]["value"]
    assert figures["OpenSpiel bridge ÷ laro's apply"]["ratio"] == pytest.approx(bridge * bare / 1e9)
    assert figures["scalar observation encoding ns/step"]["value"] > 0
    assert 0 < figures["this process's share of a core, %"]["value"] <= 100 * 1.05


def test_the_pettingzoo_loop_counts_turns_of_whole_games() -> None:
    env = lama_v0.env(num_players=2)
    assert pettingzoo_turns_per_second(env, 0.1) > 100
    assert len(bench_rl(seconds=0.05, batch=8, players=2)) == 15
