"""An unfinished game continues where it stopped: ``laro play GAME --resume FILE``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from laro.core import GameRecord, replay

Run = Callable[..., Result]
EVERY_KEY = "1\n2\n3\n4\n5\n6\nL\nd\nquit\n" * 150  # quit in full: q alone asks first


def _stopped_game(run: Run, tmp_path: Path) -> Path:
    args = ["play", "lama", "--players", "3", "--bots", "random,heuristic", "--delay", "0", "--seed", "77"]
    result = run(*args, "--name", "Ana", "--records", str(tmp_path), input="quit\n")
    assert result.exit_code == 1, result.output
    (path,) = tmp_path.glob("*.json")
    return path


def test_resume_finishes_the_game_in_the_same_file(run: Run, tmp_path: Path) -> None:
    """The resumed game keeps its seats, bots, options and moves, and is saved to the same record."""
    path = _stopped_game(run, tmp_path)
    before = GameRecord.load(path)
    assert before.bots == {1: "random", 2: "heuristic"} and before.players[0] == "Ana"
    assert before.result is None and before.actions
    result = run("play", "lama", "--resume", str(path), "--delay", "0", input=EVERY_KEY)
    assert result.exit_code == 0, result.output
    assert f"after {len(before.actions)} moves" in result.output
    after = GameRecord.load(path)
    assert after.actions[: len(before.actions)] == before.actions
    assert len(after.actions) > len(before.actions)
    assert after.options == before.options and after.bots == before.bots
    assert replay(after).is_over and after.result is not None
    assert "Seed: 77" in result.output  # shown now that the game is over
    assert list(tmp_path.glob("*.json")) == [path]


def test_resume_refuses_a_finished_game(run: Run, tmp_path: Path) -> None:
    """A finished game cannot be resumed; the message points to replay."""
    path = _stopped_game(run, tmp_path)
    run("play", "lama", "--resume", str(path), "--delay", "0", input=EVERY_KEY)
    result = run("play", "lama", "--resume", str(path))
    assert result.exit_code == 2 and "laro replay" in result.output


def test_resume_refuses_changes_and_bad_files(run: Run, tmp_path: Path) -> None:
    """Options that would change the game are refused, and so are corrupt records; nothing is written."""
    path = _stopped_game(run, tmp_path)
    saved = path.read_text()
    result = run("play", "lama", "--resume", str(path), "--players", "5")
    assert result.exit_code == 2 and "--players cannot be changed" in result.output
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    result = run("play", "lama", "--resume", str(broken))
    assert result.exit_code == 2 and "not valid JSON" in result.output
    data = json.loads(saved)
    data["bots"] = {"1": "random", "2": "random", "0": "random"}
    everybody_bots = tmp_path / "bots.json"
    everybody_bots.write_text(json.dumps(data))
    result = run("play", "lama", "--resume", str(everybody_bots))
    assert result.exit_code == 2 and "which seat was yours" in result.output
    assert path.read_text() == saved
