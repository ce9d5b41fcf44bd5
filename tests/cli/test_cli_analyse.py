"""``laro analyse RECORD --seat N``: the table, the JSON, the plot, and clean errors."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from laro.cli.analyse import move_words
from laro.core import GameRecord
from laro.games.kamara import GAME as KAMARA
from laro.games.lama import GAME

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


def test_analyse_says_the_moves_as_the_game_view_does(run: Run, make_record: MakeRecord) -> None:
    result = run("analyse", str(make_record()), "--seat", "0", "--budget", "10")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if re.match(r"^\s+\d+\s{3}\S", line)]
    assert rows, result.output
    for row in rows:
        played = row.split(None, 1)[1]
        assert re.match(r"(played |drew a card|quit the round)", played), row
        assert not re.search(r"\b(play [1-6L]|draw|quit)\b(?! the round)", played), row
    assert "best: " in result.output


def test_analyse_tells_only_what_the_seat_saw() -> None:
    """The card a draw brought is told for the draw the seat played, not for a draw it only compared."""
    record = GameRecord.start(GAME.new_game(2, seed=4), seed=4)
    record.actions = ["play 5", "draw", "draw", "play 6"]  # seat 1, seat 0, seat 1, seat 0
    decisions = [{"move": 2, "played": "draw", "best": "play 6"}, {"move": 4, "played": "play 6", "best": "draw"}]
    said = move_words(record, {"seat": 0, "decisions": decisions})
    assert said[2, "draw"].plain.startswith("drew a card: ")
    assert said[4, "draw"].plain == "drew a card"  # never drawn: the deck's next card is not shown
    assert said[2, "play 6"].plain.split() == ["played", "6"]


def test_analyse_says_kamara_moves_in_words(run: Run, tmp_path: Path) -> None:
    state = KAMARA.new_game(2, seed=3)
    record = GameRecord.start(state, 3, players=["Ana", "Bo"])
    rng = random.Random(3)
    while len(record.actions) < 70:
        action = str(rng.choice(state.legal_actions()))
        state = state.apply(action)
        record.actions.append(action)
    path = record.save(tmp_path / "kamara.json")
    result = run("analyse", str(path), "--seat", "0", "--budget", "2")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if re.match(r"^\s+\d+\s{3}\S", line)]
    assert rows, result.output
    raw = re.compile(r"^(place|diwa|move|port|poke|flip|match|exchange|end|order|keep|play) ")
    for row in rows:
        played = row.split(None, 1)[1]
        assert not raw.match(played), row
        assert re.match(
            r"(places|takes|moves|ports|pokes|flips|matches|exchanges|ends|puts|keeps|discards|plays) ", played
        ), row
