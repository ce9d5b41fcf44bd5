"""``laro replay FILE``: step through a record, print it all, and fail cleanly on a bad file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from laro.cli import replay as replay_module
from laro.cli.saved import load_resumable
from laro.cli.views import GenericView

Run = Callable[..., Result]
MakeRecord = Callable[..., Path]


def test_replay_all_shows_every_move_and_the_result(run: Run, make_record: MakeRecord) -> None:
    path = make_record()
    moves = len(load_resumable(path).actions)
    result = run("replay", "--all", str(path))
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"{moves} moves" in out
    assert f"Move {moves}/{moves}:" in out
    assert "Hand" in out  # every hand is shown in a replay
    assert "Round 1 is over" in out and "Game over" in out
    assert "Ana" in out and ("wins with" in out or "Shared win" in out)
    assert "differs" not in out


def test_replay_steps_and_stops_on_q(run: Run, make_record: MakeRecord) -> None:
    path = make_record()
    result = run("replay", str(path), input="\n\nq\n")
    assert result.exit_code == 0
    assert "Move 2/" in result.output and "Move 3/" not in result.output
    assert "Stopped after move 2" in result.output


def test_replay_stops_at_end_of_input(run: Run, make_record: MakeRecord) -> None:
    result = run("replay", str(make_record()), input="\n")
    assert result.exit_code == 0
    assert "Stopped after move 1" in result.output


def test_replay_of_an_unfinished_game(run: Run, make_record: MakeRecord) -> None:
    result = run("replay", "-a", str(make_record(moves=5)))
    assert result.exit_code == 0
    assert "not finished" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json at all", "is not valid JSON"),
        ('{"format": "something else"}', "not a laro game record"),
        ('{"format": "laro-record/1", "game": "lama"}', "lacks the field"),
    ],
)
def test_a_corrupt_file_is_one_clear_line(run: Run, tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and message in result.output
    assert result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_a_missing_file(run: Run, tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nope.json"))
    assert result.exit_code == 1
    assert "Error: cannot read" in result.output and "Traceback" not in result.output


def test_a_record_whose_action_does_not_replay(run: Run, make_record: MakeRecord) -> None:
    path = make_record(moves=3)
    data = json.loads(path.read_text())
    data["actions"].append("play 9")
    path.write_text(json.dumps(data))
    result = run("replay", "--all", str(path))
    assert result.exit_code == 1
    assert "Error: action 4 ('play 9') does not replay" in result.output
    assert "Move 3/4" in result.output  # what replayed is shown first


def test_a_record_of_an_unknown_game(run: Run, make_record: MakeRecord) -> None:
    path = make_record(moves=1)
    data = json.loads(path.read_text())
    data["game"] = "chess"
    path.write_text(json.dumps(data))
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "unknown game 'chess'" in result.output


def test_a_game_without_its_own_view_replays_as_json(
    run: Run, make_record: MakeRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replay_module, "view_for", GenericView)
    result = run("replay", "--all", str(make_record()))
    assert result.exit_code == 0, result.output
    assert '"draw_pile"' in result.output  # the full state, as JSON
    assert "Game over" in result.output and "Winner(s):" in result.output


def test_a_record_made_by_play_replays(run: Run, tmp_path: Path) -> None:
    args = ["play", "lama", "--bots", "random", "--delay", "0", "--records", str(tmp_path), "-o", "end_score=8"]
    assert run(*args, input="quit\n" * 30).exit_code == 0
    (path,) = tmp_path.glob("*.json")
    result = run("replay", "--all", str(path))
    assert result.exit_code == 0 and "Game over" in result.output and "You" in result.output
