"""What a bot is: it gets an observation, the legal actions and its own ``random.Random``, never the full state.

>>> import random, laro
>>> state = laro.get_game("lama").new_game(3, seed=5)
>>> bot = get_bot("random", "lama")
>>> seat = state.current_player
>>> bot.choose(state.observation(seat), state.legal_actions(), random.Random(1)) in state.legal_actions()
True
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from laro.core.errors import LaroError
from laro.core.game import Action, JSONDict
from laro.core.registry import plugin

__all__ = [
    "Bot",
    "BotError",
    "Follower",
    "RandomBot",
    "TableBound",
    "check_table",
    "get_bot",
    "level_of_bot",
    "list_bots",
    "offered_bots",
    "register_bot",
    "standin_bot",
]

A = TypeVar("A", bound=Action)


class BotError(LaroError, ValueError):
    """No bot of that name plays that game."""


class Bot(Protocol):
    """A player: chooses one of ``legal`` from what its seat may know."""

    name: str

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A: ...


@runtime_checkable
class Follower(Protocol):
    """A bot whose memory of a game can be rebuilt: ``follow`` reads an observation of one of its seat's earlier
    decisions just as :meth:`Bot.choose` would, without deciding (a server does it after moves were taken back)."""

    def follow(self, observation: JSONDict) -> None: ...


@runtime_checkable
class TableBound(Protocol):
    """A bot that plays some tables only (a trained policy: one edition, one number of players): ``check_table``
    raises :class:`BotError`, saying why, for a table it cannot play."""

    def check_table(self, num_players: int, options: Mapping[str, Any]) -> None: ...


def check_table(bot: Bot, num_players: int, options: Mapping[str, Any]) -> None:
    """Refuse a bot that cannot play a table of ``num_players`` with ``options``, before its game begins (see
    :class:`TableBound`); every other bot plays every table."""
    if isinstance(bot, TableBound):
        bot.check_table(num_players, options)


class RandomBot:
    """Uniformly random over the legal actions; plays every game."""

    name = "random"

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A:
        return legal[int(rng.random() * len(legal))]


BotFactory = Callable[[], Bot]

# (bot name, game name or "*") -> "module:factory" or a factory
_BOTS: dict[tuple[str, str], str | BotFactory] = {
    ("random", "*"): RandomBot,
    ("heuristic", "lama"): "laro.bots.lama_heuristic:LamaHeuristicBot",
    ("heuristic", "kamara"): "laro.bots.kamara_heuristic:KamaraHeuristicBot",
    ("easy", "*"): "laro.bots.ismcts:easy",
    ("medium", "*"): "laro.bots.ismcts:medium",
    ("hard", "*"): "laro.bots.ismcts:hard",
    # Kamara's levels, between its heuristic and its hard: the paired search over Exchanges, then whole turns
    ("easy", "kamara"): "laro.bots.kamara_turns:easy",
    ("medium", "kamara"): "laro.bots.kamara_turns:medium",
    ("hard", "kamara"): "laro.bots.kamara_turns:hard",
    ("ismcts", "*"): "laro.bots.ismcts:hard",
    ("ismcts", "kamara"): "laro.bots.kamara_turns:easy",
    ("turns", "kamara"): "laro.bots.kamara_turns:hard",
    ("learned", "lama"): "laro.bots.lama_learned:LearnedBot",
}
# bots that take a budget after a colon: "ismcts:500" (simulations per decision) or "ismcts:2s" (seconds)
_BUDGETED: dict[str, str] = {"ismcts": "laro.bots.ismcts:budgeted"}


def register_bot(name: str, game: str, factory: str | BotFactory) -> None:
    """Register a bot for one game (or ``"*"`` for every game)."""
    _BOTS[(name, game)] = factory


def standin_bot(game: str) -> str:
    """The bot that plays for an absent person by default: the game's heuristic bot, else the random one.

    >>> standin_bot("lama")
    'heuristic'
    """
    return "heuristic" if "heuristic" in list_bots(game) else "random"


def list_bots(game: str) -> list[str]:
    """Names of the bots that play ``game``, other names of the same bot included."""
    return sorted({name for name, for_game in _BOTS if for_game in (game, "*")})


def _factory(name: str, game: str) -> str | BotFactory | None:
    return _BOTS.get((name, game)) or _BOTS.get((name, "*"))


def level_of_bot(name: str, game: str) -> str:
    """The name a bot of ``game`` goes by: the first name registered for the same bot. ``ismcts`` (the search's
    ``hard`` level) is L.A.M.A.'s ``hard`` and Kamara's ``easy``; Kamara's ``turns`` is its ``hard``.

    >>> level_of_bot("ismcts", "lama"), level_of_bot("ismcts", "kamara"), level_of_bot("turns", "kamara")
    ('hard', 'easy', 'hard')
    """
    factory = _factory(name, game)
    if factory is None:
        return name
    return next(other for other, _ in _BOTS if _factory(other, game) == factory)


def offered_bots(game: str) -> list[str]:
    """The bots of ``game``, each by the name it goes by (:func:`level_of_bot`): what a player chooses from.

    >>> offered_bots("kamara")
    ['easy', 'hard', 'heuristic', 'medium', 'random']
    """
    return [name for name in list_bots(game) if level_of_bot(name, game) == name]


def _plugin(kind: str) -> Callable[[str, str], object] | None:
    """A bot kind that an installed package offers in the ``laro.bots`` entry-point group: ``kind:ARGUMENT`` is
    made by calling it with the argument and the game's name (laro's rl extra offers ``policy:PATH``)."""
    return cast(Callable[[str, str], object] | None, plugin("laro.bots", kind))


def get_bot(name: str, game: str) -> Bot:
    """A new bot called ``name`` for ``game``; :class:`BotError` names the available ones otherwise.

    >>> get_bot("ismcts:500", "lama").name
    'ismcts:500'
    """
    base, colon, budget = name.partition(":")
    if colon:
        plugin = None if base in _BUDGETED else _plugin(base)
        if plugin is not None:  # e.g. policy:PATH from the rl extra
            return cast(Bot, plugin(budget, game))
        if base not in _BUDGETED:
            raise BotError(f"no bot {base!r} with a budget; try ismcts:500 (simulations) or ismcts:2s (seconds)")
        module_name, _, attribute = _BUDGETED[base].partition(":")
        make = getattr(importlib.import_module(module_name), attribute)
        try:
            return cast(Bot, make(budget))
        except ValueError as error:
            raise BotError(str(error)) from None
    factory = _factory(name, game)
    if factory is None:
        raise BotError(f"no bot {name!r} for {game}; available: {', '.join(list_bots(game))}")
    if isinstance(factory, str):
        module_name, _, attribute = factory.partition(":")
        factory = cast(BotFactory, getattr(importlib.import_module(module_name), attribute))
    return factory()
