"""Which games exist: built-in ones by module path, loaded on first use; and what installed packages offer
through entry points (:func:`plugin`).

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


def register_game(name: str, target: str | Game) -> None:
    """Register a game object, or a ``"module:attribute"`` path loaded on first use."""
    if isinstance(target, str):
        _BUILTIN[name] = target
        _loaded.pop(name, None)
    else:
        _loaded[name] = target


def list_games() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(set(_BUILTIN) | set(_loaded))


def get_game(name: str) -> Game:
    """The game registered as ``name``; :class:`UnknownGameError` names the known ones otherwise."""
    game = _loaded.get(name)
    if game is not None:
        return game
    target = _BUILTIN.get(name)
    if target is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(list_games())}")
    module_name, _, attribute = target.partition(":")
    game = cast(Game, getattr(importlib.import_module(module_name), attribute))
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
