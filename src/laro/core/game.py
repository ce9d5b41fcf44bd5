"""The contract every game keeps: tests, bots, the server and users rely on it.

>>> import laro
>>> game = laro.get_game("lama")
>>> state = game.new_game(num_players=3, seed=7)
>>> action = state.legal_actions()[0]
>>> game.parse_action(str(action)) == action
True
>>> game.action_from_index(action.index) == action
True
>>> state.apply(action) is not state
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, Self, runtime_checkable

from laro.core.options import OptionSpec

__all__ = ["Action", "ActionLike", "Game", "GameState", "JSONDict"]

JSONDict = dict[str, Any]


@runtime_checkable
class Action(Protocol):
    """An action: ``str(action)`` is its canonical text, ``index`` its dense integer form."""

    @property
    def index(self) -> int: ...

    def __str__(self) -> str: ...


ActionLike = Action | str | int


class GameState(Protocol):
    """An immutable game state; ``apply`` returns a new one."""

    @property
    def game(self) -> Game: ...

    @property
    def num_players(self) -> int: ...

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]:
        """Winning seats (several share a win); empty until the game is over."""
        ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Per-seat score in the game's own sense (see ``Game.score_order``)."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """The actions the current player may take, in a stable order; empty once over."""
        ...

    def parse_action(self, action: ActionLike) -> Action:
        """The action that ``action`` (an action, its text in any accepted spelling, or its index) names, whether
        legal now or not; its ``str`` is the canonical text. A ``ValueError`` subclass if it names none."""
        ...

    def apply(self, action: ActionLike) -> Self:
        """The state after ``action`` (an action, its text or its index); raises a ``ValueError`` subclass
        and leaves this state unchanged when the action is malformed or illegal."""
        ...

    def observation(self, seat: int) -> JSONDict:
        """A JSON-ready dict of exactly what ``seat`` may know."""
        ...

    def public_observation(self) -> JSONDict:
        """A JSON-ready dict of what a spectator may know (no seat's hidden cards)."""
        ...

    def to_json(self) -> JSONDict:
        """The full state, hidden parts and randomness included; ``game.from_json`` restores it exactly."""
        ...


class Game(Protocol):
    """A registered game: its name, limits, options, actions and rules."""

    name: str
    title: str
    rules_version: str
    min_players: int
    max_players: int
    option_specs: tuple[OptionSpec, ...]
    num_actions: int
    score_order: Literal["low", "high"]

    def new_game(
        self, num_players: int, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> GameState: ...

    def from_json(self, data: Mapping[str, Any]) -> GameState: ...

    def parse_action(self, text: str) -> Action: ...

    def action_from_index(self, index: int) -> Action: ...

    def public_text(self, action: str) -> str:
        """The text of ``action`` as other players and spectators may be told it (hidden parts left out)."""
        ...

    def sampler(self, observation: Mapping[str, Any]) -> Callable[[random.Random], GameState]:
        """Determinisations of a seat's ``observation``: each call draws a full state that agrees with everything
        the observing seat knows, with the hidden cards (and the seed of any later randomness) drawn at random."""
        ...

    def rules_text(self, language: str = "en", options: Mapping[str, Any] | None = None) -> str:
        """The rules page in ``language``, for the game played with ``options`` (an edition has its own page)."""
        ...
