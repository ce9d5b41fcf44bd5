"""Typed errors shared by every game and adapter."""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "LaroError",
    "MalformedActionError",
    "OptionError",
    "RecordError",
    "StateError",
    "UnknownGameError",
]


class LaroError(Exception):
    """Base class of every error laro raises on purpose."""


class UnknownGameError(LaroError, KeyError):
    """No game is registered under that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class OptionError(LaroError, ValueError):
    """A game option is unknown or has a value the game does not allow."""


class MalformedActionError(LaroError, ValueError):
    """An action text or index that does not name any action of the game."""


class IllegalActionError(LaroError, ValueError):
    """A well-formed action that the rules do not allow in this state."""


class StateError(LaroError, ValueError):
    """A serialised state that is malformed or breaks the game's invariants."""


class RecordError(LaroError, ValueError):
    """A game record that is malformed or does not replay."""
