"""What a game declares about itself for the server, the browser and the terminal: its :class:`GameTraits`.

A game object may carry ``traits = GameTraits(...)``; one that declares nothing gets the defaults, which fit a
plain game: nothing can be taken back as a step, a turn is the run of actions one seat takes in a row, no scored
rounds, no component options. :func:`traits_of` is the one place that reads them.

>>> import laro
>>> sorted(traits_of(laro.get_game("kamara")).steps)
['move', 'poke', 'port']
>>> traits_of(laro.get_game("lama")).scored_rounds
True
>>> traits_of(object()) == GameTraits()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from laro.core.game import Game, GameState, JSONDict

__all__ = ["ComponentSource", "GameTraits", "RoundedState", "component_data", "round_of", "traits_of"]


@dataclass(frozen=True, slots=True)
class GameTraits:
    """The facts a game declares (all optional).

    - ``steps``: the first words of the actions that reveal nothing new (no card drawn, shown or dealt), so that
      the player may take one back within their own turn: Kamara's ``move``, ``port`` and ``poke``.
    - ``whole_turns``: the first words of the actions that are a whole turn by themselves, ``"*"`` for every
      action; otherwise a turn is the run of actions one seat takes in a row.
    - ``scored_rounds``: the game is played in rounds that end with a result (L.A.M.A.'s); its states then have
      a whole-number ``round`` (:class:`RoundedState`), and a table shows each round's end before the next.
    - ``component_options``: the options that give component data (Kamara's ``tiles``, ``yellow_cards``,
      ``green_cards``): JSON data rather than a choice, so a form does not offer them, and a client draws with
      the table's own data where it gives some. A game with components implements :class:`ComponentSource`.
    """

    steps: frozenset[str] = frozenset()
    whole_turns: frozenset[str] = frozenset()
    scored_rounds: bool = False
    component_options: tuple[str, ...] = ()

    def is_step(self, action: str) -> bool:
        """Whether ``action`` (its text) may be taken back as a step."""
        return _word(action) in self.steps

    def is_whole_turn(self, action: str) -> bool:
        """Whether ``action`` (its text) ends its seat's turn by itself."""
        return "*" in self.whole_turns or _word(action) in self.whole_turns

    def to_json(self) -> JSONDict:
        return {
            "steps": sorted(self.steps),
            "whole_turns": sorted(self.whole_turns),
            "scored_rounds": self.scored_rounds,
            "component_options": list(self.component_options),
        }


def _word(action: str) -> str:
    return action.split(" ", 1)[0]


@runtime_checkable
class ComponentSource(Protocol):
    """A game with components to draw (tiles, cards), given as JSON data."""

    def component_data(self, options: Mapping[str, Any] | None = None) -> JSONDict:
        """The public JSON data of the components a game with these ``options`` plays with."""
        ...


@runtime_checkable
class RoundedState(Protocol):
    """The state of a game with ``scored_rounds``: the number of the round being played (1, 2, …)."""

    @property
    def round(self) -> int: ...


def traits_of(game: object) -> GameTraits:
    """What ``game`` declares in its ``traits`` attribute, or the defaults if it declares nothing."""
    traits = getattr(game, "traits", None)
    if traits is None:
        return _DEFAULT
    if not isinstance(traits, GameTraits):
        raise TypeError(f"a game's traits must be a laro.core.GameTraits; got {type(traits).__name__}")
    return traits


_DEFAULT = GameTraits()


def component_data(game: Game, options: Mapping[str, Any] | None = None) -> JSONDict | None:
    """The component data of ``game`` played with ``options``, or None for a game without components."""
    return game.component_data(options) if isinstance(game, ComponentSource) else None


def round_of(state: GameState) -> int | None:
    """The scored round ``state`` is in, or None for a game without scored rounds (:attr:`GameTraits.scored_rounds`).

    >>> import laro
    >>> round_of(laro.get_game("lama").new_game(2, seed=1)), round_of(laro.get_game("kamara").new_game(2, seed=1))
    (1, None)
    """
    if not traits_of(state.game).scored_rounds or not isinstance(state, RoundedState):
        return None
    return state.round
