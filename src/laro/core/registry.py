"""Which games exist: built-in ones by module path, those installed packages add in the ``laro.games``
entry-point group (``name = "module:GAME"``), each loaded on first use; and what installed packages offer
through other entry points (:func:`plugin`). A package's game never replaces a built-in one of the same name.

>>> "lama" in list_games()
True
>>> get_game("lama").title
'L.A.M.A.'
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import cast

from laro.core.errors import UnknownGameError
from laro.core.game import Game

__all__ = ["get_game", "list_games", "plugin", "register_game"]

_BUILTIN = {
    "kamara": "laro.games.kamara:GAME",
    "lama": "laro.games.lama:GAME",
}
_loaded: dict[str, Game] = {}
_installed: dict[str, str] | None = None  # the laro.games entry points, read once: name -> "module:attribute"
GROUP = "laro.games"


def _packaged() -> dict[str, str]:
    """The games installed packages add (read on first use)."""
    global _installed
    if _installed is None:
        _installed = {entry.name: entry.value for entry in entry_points(group=GROUP)}
    return _installed


def register_game(name: str, target: str | Game) -> None:
    """Register a game object, or a ``"module:attribute"`` path loaded on first use."""
    if isinstance(target, str):
        _BUILTIN[name] = target
        _loaded.pop(name, None)
    else:
        _loaded[name] = target


def list_games() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(set(_BUILTIN) | set(_loaded) | set(_packaged()))


def get_game(name: str) -> Game:
    """The game registered as ``name``; :class:`UnknownGameError` names the known ones otherwise."""
    game = _loaded.get(name)
    if game is not None:
        return game
    target = _BUILTIN.get(name)
    packaged = target is None
    if packaged:
        target = _packaged().get(name)
    if target is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(list_games())}")
    module_name, _, attribute = target.partition(":")
    try:
        game = cast(Game, getattr(importlib.import_module(module_name), attribute))
    except (ImportError, AttributeError) as error:
        if not packaged:
            raise
        raise UnknownGameError(f"the game {name!r} of an installed package cannot be loaded: {error}") from error
    if packaged and getattr(game, "name", None) != name:  # records and tables name a game by its name
        raise UnknownGameError(f"the {GROUP} entry point {name!r} is a game that calls itself {game.name!r}")
    _loaded[name] = game
    return game


def plugin(group: str, name: str) -> object | None:
    """What an installed package offers as ``name`` in the entry-point group ``group`` (loaded), or None.

    laro's own groups: ``laro.bots`` (bot kinds taking an argument, such as the rl extra's ``policy:PATH``) and
    ``laro.views`` (a game's picture as terminal text, which the command line offers to the rl environments).

    >>> plugin("laro.bots", "no-such-kind") is None
    True
    """
    for entry in entry_points(group=group):
        if entry.name == name:
            loaded: object = entry.load()
            return loaded
    return None
