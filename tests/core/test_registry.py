"""The game registry: list_games, get_game and register_game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import laro
from laro.core import LaroError, UnknownGameError, get_game, list_games, register_game
from laro.core import registry as registry_module
from laro.games.lama import GAME


@pytest.fixture
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A registry whose changes are undone after the test."""
    monkeypatch.setattr(registry_module, "_BUILTIN", dict(registry_module._BUILTIN))
    monkeypatch.setattr(registry_module, "_loaded", dict(registry_module._loaded))
    yield


def test_list_games() -> None:
    """list_games names every registered game, sorted; L.A.M.A. is built in."""
    names = list_games()
    assert "lama" in names and names == sorted(names) == laro.list_games()


def test_get_game_returns_the_game_object() -> None:
    """get_game loads a built-in game on first use and returns the same object every time."""
    assert get_game("lama") is GAME is laro.get_game("lama")
    assert GAME.name == "lama"


def test_unknown_game_lists_the_known_ones() -> None:
    """Asking for an unknown game raises UnknownGameError listing the known games."""
    with pytest.raises(UnknownGameError) as info:
        get_game("chess")
    message = str(info.value)
    assert message == f"unknown game 'chess'; known games: {', '.join(list_games())}"
    assert isinstance(info.value, LaroError) and isinstance(info.value, KeyError)


def test_game_names_are_exact() -> None:
    """Game names are matched exactly."""
    for name in ("LAMA", " lama", "lama ", ""):
        with pytest.raises(UnknownGameError):
            get_game(name)


def test_register_a_game_object(clean_registry: None) -> None:
    """A game object registered under a name is listed and returned."""
    register_game("llama-copy", GAME)
    assert "llama-copy" in list_games() and get_game("llama-copy") is GAME


def test_register_a_module_path(clean_registry: None) -> None:
    """A "module:attribute" path is loaded on first use."""
    register_game("lama-again", "laro.games.lama:GAME")
    assert "lama-again" in list_games()
    assert get_game("lama-again") is GAME


def test_reregistering_a_path_replaces_a_loaded_game(clean_registry: None) -> None:
    """Registering a path under a loaded name replaces the loaded game."""
    sentinel = object()
    register_game("mine", sentinel)  # type: ignore[arg-type]
    assert get_game("mine") is sentinel
    register_game("mine", "laro.games.lama:GAME")
    assert get_game("mine") is GAME


def test_registry_changes_were_undone() -> None:
    """Tests that register games leave the registry as it was."""
    assert not {"llama-copy", "lama-again", "mine"} & set(list_games())
