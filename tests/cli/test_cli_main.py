"""``laro`` itself: version, help, the rules command and the lazily loaded bench command."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from click.testing import Result

import laro
from laro.cli import main as main_module

Run = Callable[..., Result]


def test_version(run: Run) -> None:
    result = run("--version")
    assert result.exit_code == 0 and laro.__version__ in result.output


def test_help_lists_the_commands(run: Run) -> None:
    out = run("--help").output
    for command in ("play", "replay", "rules", "bench"):
        assert f"  {command} " in out


def test_play_help_explains_the_options(run: Run) -> None:
    out = run("play", "--help").output
    for option in ("--players", "--seat", "--bots", "--seed", "--option", "--name", "--delay", "--records"):
        assert option in out
    assert "hard" in out and "ismcts:N" in out  # the search bots are named where the bots are chosen


def test_rules_in_english_and_korean(run: Run) -> None:
    english = run("rules", "lama")
    assert english.exit_code == 0 and "Cards and tokens" in english.output
    korean = run("rules", "LAMA", "--lang", "ko")
    assert korean.exit_code == 0 and "라마" in korean.output


def test_rules_in_a_missing_language(run: Run) -> None:
    result = run("rules", "lama", "--lang", "xx")
    assert result.exit_code == 2 and "no L.A.M.A. rules in language 'xx'" in result.output


def test_rules_of_an_unknown_game(run: Run) -> None:
    result = run("rules", "chess")
    assert result.exit_code == 2 and "known games: kamara, lama" in result.output


def test_bench_is_registered(run: Run) -> None:
    result = run("bench", "--help")
    assert result.exit_code == 0 and "GAME" in result.output


def test_a_lazy_command_that_fails_to_import_is_reported(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(main_module._LAZY_COMMANDS, "broken", "laro.no_such_module:broken")
    result = run("broken", "anything")
    assert result.exit_code == 1
    assert "laro broken is not available" in result.output
