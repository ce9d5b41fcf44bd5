"""A game from an installed package (Ember, see installing.py) is a game like laro's own: listed, its declarations
read, played in the terminal with the generic view and undo, and rated in a tournament."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import laro
from laro.bots import get_bot, list_bots, standin_bot
from laro.cli.main import cli
from laro.core import GameRecord, UnknownGameError, component_data, registry, replay, round_of, traits_of


def test_an_installed_game_is_listed_and_declares_itself(installed: Path) -> None:
    assert laro.list_games() == ["ember", "kamara", "lama"]
    game = laro.get_game("ember")
    assert game.title == "Ember" and type(game).__module__ == "ember"
    traits = traits_of(game)
    assert traits.steps == {"pick"} and traits.whole_turns == {"draw", "play"} and not traits.scored_rounds
    assert component_data(game) is None and round_of(game.new_game(2, seed=1)) is None
    assert standin_bot("ember") == "random" and "random" in list_bots("ember")


def test_without_the_package_there_is_no_such_game() -> None:
    assert "ember" not in laro.list_games()
    with pytest.raises(UnknownGameError, match="unknown game 'ember'"):
        laro.get_game("ember")


def test_bots_play_it_from_observations_only(installed: Path) -> None:
    """The random bot and the searching one (which draws the hidden hands from a seat's observation) finish games
    whose records replay to the same end; no observation shows another seat's hand."""
    game = laro.get_game("ember")
    for kind in ("random", "easy"):
        bot, rng = get_bot(kind, "ember"), random.Random(7)
        state = game.new_game(3, seed=11)
        record = GameRecord.start(state, 11)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            seen = state.observation(seat)
            assert seen["hand"] == state.to_json()["hands"][seat] and isinstance(seen["deck"], int)
            assert "hands" not in seen and "seed" not in seen
            action = bot.choose(seen, state.legal_actions(), rng)
            record.actions.append(str(action))
            state = state.apply(action)
        assert replay(record).to_json() == state.to_json() and state.winners


def test_laro_play_shows_it_through_the_generic_view_and_takes_a_step_back(installed: Path, tmp_path: Path) -> None:
    """One person against two random bots: 1 picks a card, undo takes the pick back (a step), then the person
    always takes the first choice until the game is over; the record is saved and replays."""
    typed = "1\nundo\n" + "1\n" * 300
    args = ["play", "ember", "-n", "3", "--bots", "random", "--seed", "5", "--delay", "0", "--records", str(tmp_path)]
    result = CliRunner().invoke(cli, args, input=typed, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "You to play" in result.output and '"hand": [' in result.output  # the generic view: the observation
    assert "undo takes back pick" in result.output and "You take back pick" in result.output
    assert "Game over" in result.output and "Winner(s):" in result.output
    (saved,) = tmp_path.glob("ember_*.json")
    record = GameRecord.load(saved)
    assert record.game == "ember" and record.result is not None
    assert replay(record).is_over


def test_laro_tournament_rates_its_bots(installed: Path) -> None:
    """Two worker processes (which find Ember through PYTHONPATH) play the games; lower scores win in Ember."""
    args = ["tournament", "ember", "--bots", "easy,random", "--games", "6", "--seed", "1", "--jobs", "2"]
    result = CliRunner().invoke(cli, [*args, "--quiet"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "ember: 2 players, 6 games, seed 1" in result.output
    assert "avg score: lower is better" in result.output


def test_a_package_cannot_replace_a_game_or_rename_one(
    installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry point named after a built-in game leaves the built-in one in place; one whose game calls itself
    by another name, or that cannot be loaded, is refused with a message that says so."""
    info = tmp_path / "impostor-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: impostor\nVersion: 1.0\n", encoding="utf-8")
    entries = "[laro.games]\nlama = ember:GAME\nfire = ember:GAME\nash = no_such_module:GAME\n"
    (info / "entry_points.txt").write_text(entries, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_installed", None)
    assert laro.list_games() == ["ash", "ember", "fire", "kamara", "lama"]
    assert laro.get_game("lama").title == "L.A.M.A."
    with pytest.raises(UnknownGameError, match="entry point 'fire' is a game that calls itself 'ember'"):
        laro.get_game("fire")
    with pytest.raises(UnknownGameError, match="the game 'ash' of an installed package cannot be loaded: No module"):
        laro.get_game("ash")
    monkeypatch.setattr(registry, "_installed", None)
