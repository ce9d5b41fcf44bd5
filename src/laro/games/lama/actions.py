"""The L.A.M.A. actions, as singletons with a canonical text and a dense index.

The classic game has nine actions, indices 0..8. The Party Edition keeps them and adds seven more: the plus
cards ``play 1+`` .. ``play 6+`` (9..14) and the pink llama ``play P`` (15), so a classic index never changes.
Every text and index names an action of the game; a state says which are legal (in the classic game the Party
Edition's never are).

>>> parse_action(" Play l ")
LamaAction('play L')
>>> action_from_index(7)
LamaAction('draw')
>>> [str(a) for a in ACTIONS]
['play 1', 'play 2', 'play 3', 'play 4', 'play 5', 'play 6', 'play L', 'draw', 'quit']
>>> parse_action("play 3+"), action_from_index(15)
(LamaAction('play 3+'), LamaAction('play P'))
"""

from __future__ import annotations

from laro.core.errors import MalformedActionError
from laro.games.lama.cards import ALL_CARD_TEXT, NUM_KINDS, NUM_PARTY_KINDS, PINK, PLUS

__all__ = [
    "ACTIONS",
    "ALL_ACTIONS",
    "DRAW",
    "PLAY",
    "QUIT",
    "LamaAction",
    "action_from_index",
    "parse_action",
]


class LamaAction:
    """One of the actions; compare by identity or equality, both hold."""

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


def _play(card: int, index: int) -> LamaAction:
    return LamaAction(index, f"play {ALL_CARD_TEXT[card]}", card)


DRAW = LamaAction(NUM_KINDS, "draw", None)
QUIT = LamaAction(NUM_KINDS + 1, "quit", None)
# PLAY[card] plays that card, for every card of both editions
PLAY: tuple[LamaAction, ...] = (
    *(_play(card, card) for card in range(NUM_KINDS)),
    *(_play(card, card + 2) for card in range(PLUS, NUM_PARTY_KINDS)),  # after draw and quit
)
ACTIONS: tuple[LamaAction, ...] = (*PLAY[:NUM_KINDS], DRAW, QUIT)  # the classic game's
ALL_ACTIONS: tuple[LamaAction, ...] = (*ACTIONS, *PLAY[NUM_KINDS:])  # by index; the Party Edition's are all
assert PLAY[PINK].index == len(ALL_ACTIONS) - 1 and all(a.index == i for i, a in enumerate(ALL_ACTIONS))
_BY_TEXT = {action.text.lower(): action for action in ALL_ACTIONS}
_ALLOWED = ", ".join(action.text for action in ACTIONS)


def parse_action(text: str) -> LamaAction:
    """The action named by ``text`` (case and spacing are forgiven)."""
    action = _BY_TEXT.get(" ".join(str(text).split()).lower())
    if action is None:
        raise MalformedActionError(
            f"{text!r} is not a L.A.M.A. action; actions are: {_ALLOWED} "
            "(and in the Party Edition play 1+ ... play 6+, play P)"
        )
    return action


def action_from_index(index: int) -> LamaAction:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(ALL_ACTIONS):
        raise MalformedActionError(f"action index must be 0..{len(ALL_ACTIONS) - 1}; got {index!r}")
    return ALL_ACTIONS[index]
