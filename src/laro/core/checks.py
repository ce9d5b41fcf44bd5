"""Checks of the values in a saved state, shared by every game's ``from_json``: each raises :class:`StateError`.

>>> whole_number(3, "round"), seat_number(1, 4, "current_player"), per_seat([0, 0], "scores", 2)
(3, 1, [0, 0])
>>> seat_number(4, 4, "current_player")
Traceback (most recent call last):
...
laro.core.errors.StateError: current_player must be a seat 0..3; got 4
"""

from __future__ import annotations

from typing import Any

from laro.core.errors import StateError

__all__ = ["per_seat", "seat_number", "whole_number"]


def whole_number(value: Any, name: str, minimum: int = 0) -> int:
    """``value`` if it is a whole number of at least ``minimum`` (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise StateError(f"{name} must be a whole number of at least {minimum}; got {value!r}")
    return value


def seat_number(value: Any, num_players: int, name: str) -> int:
    """``value`` if it names a seat of a ``num_players`` game."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < num_players:
        raise StateError(f"{name} must be a seat 0..{num_players - 1}; got {value!r}")
    return value


def per_seat(value: Any, name: str, num_players: int) -> list[Any]:
    """``value`` if it is a list with one entry per seat."""
    if not isinstance(value, list) or len(value) != num_players:
        raise StateError(f"{name} must be a list with one entry per seat ({num_players})")
    return value
