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

__all__ = ["Shared", "share_of_win"]

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
