"""What both OpenSpiel games share.

OpenSpiel clones a Python state by deep-copying each attribute of its ``__dict__``. laro's states never change
once built, and the game object is shared by all states, so both are kept in a :class:`Shared` box that deep-copies
as itself.

>>> import copy
>>> box = Shared([1, 2])
>>> copy.deepcopy(box) is box
True
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import pyspiel

from laro.core import Game

__all__ = ["Shared", "game_info", "game_type", "share_of_win"]

T = TypeVar("T")


class Shared(Generic[T]):
    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared[T]:
        return self


def share_of_win(winners: tuple[int, ...], players: int) -> list[float]:
    """OpenSpiel's returns (zero-sum): each seat's share of the win less the fair share ``1 / players``.

    >>> share_of_win((1,), 4)
    [-0.25, 0.75, -0.25, -0.25]
    """
    if not winners:
        return [0.0] * players
    return [(1.0 / len(winners) if seat in winners else 0.0) - 1.0 / players for seat in range(players)]


def game_type(short_name: str, long_name: str, game: Game, parameters: dict[str, Any]) -> Any:
    """The ``GameType`` both games declare: sequential, explicit chance, imperfect information, zero-sum returns
    at the end, information-state and observation strings and tensors."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def game_info(actions: int, chance_outcomes: int, players: int, longest: int) -> Any:
    """The ``GameInfo`` of a game of ``players``, with the returns of :func:`share_of_win`."""
    share = 1.0 / players
    return pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=chance_outcomes,
        num_players=players,
        min_utility=-share,
        max_utility=1.0 - share,
        utility_sum=0.0,
        max_game_length=longest,
    )
