"""Undo: what a seat may take back, decided from the moves in force. Pure: no table, no I/O, no clock.

Two kinds, both named in the protocol, the log and the terminal:

- a **step** (``step``): within your own turn, the last action you took yourself, when it revealed nothing new.
  Only the actions the game declares as its ``steps`` (:class:`~laro.core.GameTraits`) qualify — in Kamara
  ``move``, ``port`` and ``poke`` (a flip may draw a green card, a match or an exchange shows or draws a yellow
  one, a green card played is shown, and ``end`` lets the next player draw); in L.A.M.A. none, since every
  action plays a card (shown to all), draws one, or ends the turn. A step is offered at every table.
- a **takeback** (``takeback``): back to the start of your last turn (the one you are in, if you acted in it),
  with every move after it undone — the bots' ones and those that revealed cards too. Only at a table created
  with takebacks allowed and where every other seat is a bot; such a game is an unrated practice game.

A move is undone by replaying the game without it: the engine's states are never changed.

>>> moves = [Move(1, 0, "move N", person=True, turn=0), Move(2, 0, "flip", person=True, turn=0),
...          Move(3, 0, "move E", person=True, turn=0)]
>>> step_back("kamara", moves, seat=0, to_act=0).action
'move E'
>>> step_refusal("kamara", moves[:2], seat=0, to_act=0)
'flip cannot be taken back: only a move, poke or port can, before anything is drawn or shown'
>>> [move.action for move in turn_back(moves, seat=0)]
['move N', 'flip', 'move E']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from laro.core import GameTraits, get_game, traits_of

__all__ = [
    "KINDS",
    "Move",
    "Why",
    "next_turn",
    "step_back",
    "step_refusal",
    "takeback_refusal",
    "turn_back",
]

KINDS = ("step", "takeback")


def _traits(game: str) -> GameTraits:
    """What ``game`` declares: its steps and whole turns (:class:`~laro.core.GameTraits`)."""
    return traits_of(get_game(game))


@dataclass(frozen=True, slots=True)
class Move:
    """An action in force: the ``seq`` of its event, who took it, whether the seat's own person chose it (else
    ``bot`` names the bot that did: the seat's, or a stand-in), and the number of the turn it belongs to (0, 1, …
    in the game's order)."""

    seq: int
    seat: int
    action: str
    person: bool
    turn: int
    bot: str | None = None


def next_turn(game: str, moves: Sequence[Move], seat: int) -> int:
    """The turn number of a move by ``seat`` following ``moves``: a turn goes on while the same seat acts,
    unless its last action was a whole turn (the game's ``whole_turns``).

    >>> first = Move(1, 0, "move N", person=True, turn=0)
    >>> next_turn("kamara", [first], 0), next_turn("kamara", [first], 1), next_turn("lama", [first], 0)
    (0, 1, 1)
    """
    if not moves:
        return 0
    last = moves[-1]
    return last.turn if last.seat == seat and not _traits(game).is_whole_turn(last.action) else last.turn + 1


class Why(str):
    """Why an undo is refused: its words (English, as in the protocol's messages), with a ``code`` and the
    ``action`` it names (if any), so that a client can say it in its own language.

    >>> why = Why("no_step", "you have taken no step this turn")
    >>> why == "you have taken no step this turn", why.code, why.action
    (True, 'no_step', None)
    """

    code: str
    action: str | None

    def __new__(cls, code: str, text: str, action: str | None = None) -> Why:
        why = super().__new__(cls, text)
        why.code, why.action = code, action
        return why

    def to_json(self) -> dict[str, str | None]:
        return {"code": self.code, "action": self.action}


def step_refusal(game: str, moves: Sequence[Move], seat: int, to_act: int | None) -> Why | None:
    """Why ``seat`` may not take a step back now (None: it may). ``to_act`` is the seat to act now."""
    if to_act != seat:
        return Why("not_your_turn", "a step can be taken back only during your own turn")
    traits = _traits(game)
    if not moves or moves[-1].seat != seat or traits.is_whole_turn(moves[-1].action):
        return Why("no_step", "you have taken no step this turn")
    last = moves[-1]
    if not last.person:
        return Why("stand_in", f"{last.action} was played by a bot for you; it cannot be taken back", last.action)
    if not traits.is_step(last.action):
        steps = sorted(traits.steps)
        text = f"{last.action} cannot be taken back: only {_either(steps)} can, before anything is drawn or shown"
        return Why("reveals", text, last.action)
    return None


def _either(words: list[str]) -> str:
    """
    >>> _either(["move", "poke", "port"]), _either([])
    ('a move, poke or port', 'nothing')
    """
    if not words:
        return "nothing"
    return "a " + (words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}")


def step_back(game: str, moves: Sequence[Move], seat: int, to_act: int | None) -> Move | None:
    """The move a step back by ``seat`` undoes, if it may take one now."""
    return moves[-1] if step_refusal(game, moves, seat, to_act) is None else None


def turn_back(moves: Sequence[Move], seat: int) -> list[Move]:
    """The moves a takeback by ``seat`` undoes: from the first move of its last turn in which its person acted,
    to the end (empty if its person has not acted yet)."""
    mine = [move for move in moves if move.seat == seat and move.person]
    if not mine:
        return []
    turn = mine[-1].turn
    start = next(at for at, move in enumerate(moves) if move.turn == turn)
    return list(moves[start:])


def takeback_refusal(allowed: bool, others_bots: bool, moves: Sequence[Move], seat: int) -> Why | None:
    """Why ``seat`` may not take its last turn back now (None: it may). ``allowed``: the table was created with
    takebacks allowed; ``others_bots``: every other seat is a bot's."""
    if not allowed:
        return Why("no_takebacks", "this table was created without takebacks")
    if not others_bots:
        return Why("against_people", "takebacks are for games against bots only")
    if not turn_back(moves, seat):
        return Why("no_turn", "you have no turn to take back")
    return None
