"""``laro analyse RECORD --seat N``: the table, the JSON, the plot, and clean errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

Run = Callable[..., Result]
MakeRecord = Callable[..., Path]


def test_analyse_prints_the_decisions_and_a_summary(run: Run, make_record: MakeRecord) -> None:
    path = make_record()
    result = run("analyse", str(path), "--seat", "0", "--budget", "20", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Analysis of Ana (seat 0)" in out and "budget 20, seed 3" in out
    assert "Accuracy" in out and "decisions graded" in out
    assert "The game ended: Ana" in out


def test_analyse_json_is_the_same_for_the_same_seed(run: Run, make_record: MakeRecord) -> None:
    path = make_record()
    first = run("analyse", str(path), "--seat", "1", "--budget", "15", "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["format"] == "laro-analysis/1" and data["seat"] == 1 and data["value"] == "win chance"
    assert data["summary"]["graded"] == len(data["decisions"]) > 0
    again = run("analyse", str(path), "--seat", "1", "--budget", "15", "--json")
    assert json.loads(again.output) == data


def test_analyse_draws_the_win_chance(run: Run, make_record: MakeRecord, tmp_path: Path) -> None:
    image = tmp_path / "game.svg"
    result = run("analyse", str(make_record()), "--budget", "10", "--plot", str(image))
    assert result.exit_code == 0, result.output
    assert image.read_text().lstrip().startswith("<?xml") and "<svg" in image.read_text()


def test_analyse_refuses_a_bad_seat_and_a_bad_file(run: Run, make_record: MakeRecord, tmp_path: Path) -> None:
    path = make_record()
    result = run("analyse", str(path), "--seat", "9")
    assert result.exit_code == 1 and "seat 9 is not in" in result.output
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    result = run("analyse", str(broken))
    assert result.exit_code == 1 and "not valid JSON" in result.output
