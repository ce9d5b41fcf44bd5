"""The nine L.A.M.A. actions, as singletons with a canonical text and a dense index.

>>> parse_action(" Play l ")
LamaAction('play L')
>>> action_from_index(7)
LamaAction('draw')
>>> [str(a) for a in ACTIONS]
['play 1', 'play 2', 'play 3', 'play 4', 'play 5', 'play 6', 'play L', 'draw', 'quit']
"""

from __future__ import annotations

from laro.core.errors import MalformedActionError
from laro.games.lama.cards import CARD_TEXT, NUM_KINDS

__all__ = ["ACTIONS", "DRAW", "PLAY", "QUIT", "LamaAction", "action_from_index", "parse_action"]


class LamaAction:
    """One of the nine actions; compare by identity or equality, both hold."""

    __slots__ = ("card", "index", "text")

    def __init__(self, index: int, text: str, card: int | None) -> None:
        self.index = index
        self.text = text
        self.card = card  # the card played, or None for draw / quit

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"LamaAction({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return action_from_index, (self.index,)


PLAY: tuple[LamaAction, ...] = tuple(LamaAction(card, f"play {CARD_TEXT[card]}", card) for card in range(NUM_KINDS))
DRAW = LamaAction(NUM_KINDS, "draw", None)
QUIT = LamaAction(NUM_KINDS + 1, "quit", None)
ACTIONS: tuple[LamaAction, ...] = (*PLAY, DRAW, QUIT)
_BY_TEXT = {action.text.lower(): action for action in ACTIONS}
_ALLOWED = ", ".join(action.text for action in ACTIONS)


def parse_action(text: str) -> LamaAction:
    """The action named by ``text`` (case and spacing are forgiven)."""
    action = _BY_TEXT.get(" ".join(str(text).split()).lower())
    if action is None:
        raise MalformedActionError(f"{text!r} is not a L.A.M.A. action; actions are: {_ALLOWED}")
    return action


def action_from_index(index: int) -> LamaAction:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(ACTIONS):
        raise MalformedActionError(f"action index must be 0..{len(ACTIONS) - 1}; got {index!r}")
    return ACTIONS[index]
