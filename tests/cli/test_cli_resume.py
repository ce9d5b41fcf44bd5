"""An unfinished game continues where it stopped: ``laro play GAME --resume FILE``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from laro.cli.saved import load_resumable
from laro.core import replay

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
    before = load_resumable(path)
    assert before.bots == {1: "random", 2: "heuristic"} and before.players[0] == "Ana"
    assert before.result is None and before.actions
    result = run("play", "lama", "--resume", str(path), "--delay", "0", input=EVERY_KEY)
    assert result.exit_code == 0, result.output
    assert f"after {len(before.actions)} moves" in result.output
    after = load_resumable(path)
    assert after.actions[: len(before.actions)] == before.actions
    assert len(after.actions) > len(before.actions)
    assert after.options == before.options and after.bots == before.bots
    assert replay(after).is_over and after.result is not None
    assert "Seed: 77" in result.output  # shown now that the game is over
    assert list(tmp_path.glob("*.json")) == [path]
    assert json.loads(path.read_text())["seed"] == 77 and not (tmp_path / ".unfinished").exists()


def test_an_unfinished_games_file_holds_only_what_its_player_saw(run: Run, tmp_path: Path) -> None:
    """Stopped before its end, the game's file has no seed and the bots' moves as the player was told them, so
    replaying it shows no hidden card; the whole record, kept apart for resuming, agrees with it."""
    path = _stopped_game(run, tmp_path)
    data = json.loads(path.read_text())
    whole = load_resumable(path)
    assert data["seed"] is None and data["view"]["seat"] == 0 and whole.seed == 77
    assert data["actions"] == whole.actions  # L.A.M.A.'s moves hide nothing: draw, not the card drawn
    assert (tmp_path / ".unfinished" / path.name).is_file()
    shown = " ".join(run("replay", "--all", str(path)).output.split())
    assert "Record of a lama game being played, as seat 0 (Ana) saw it" in shown
    assert f"Continue it with: laro play lama --resume {path}" in shown
    everything = " ".join(run("replay", "--all", str(tmp_path / ".unfinished" / path.name)).output.split())
    assert "Replay of a lama game" in everything and "Replay of" not in shown  # the bots' hands stay unseen


def test_a_missing_whole_record_is_said_and_nothing_is_written(run: Run, tmp_path: Path) -> None:
    path = _stopped_game(run, tmp_path)
    (tmp_path / ".unfinished" / path.name).unlink()
    saved = path.read_text()
    result = run("play", "lama", "--resume", str(path))
    assert result.exit_code == 2 and "and that file is missing" in " ".join(result.output.split())
    assert path.read_text() == saved


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
    data = load_resumable(path).to_json()
    data["bots"] = {"1": "random", "2": "random", "0": "random"}
    everybody_bots = tmp_path / "bots.json"
    everybody_bots.write_text(json.dumps(data))
    result = run("play", "lama", "--resume", str(everybody_bots))
    assert result.exit_code == 2 and "which seat was yours" in result.output
    assert path.read_text() == saved
