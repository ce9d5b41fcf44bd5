"""Undo at the terminal: the moves in force of a ``laro play`` game and what the person may take back.

The rules are the server's (:mod:`laro.server.undo`): ``undo`` takes back the last step of your turn that
revealed nothing (Kamara's move, port or poke), or — in a game started with ``--takebacks``, an unrated practice
game — your last turn, whatever it revealed; ``undo turn`` always asks for the turn. The game is then replayed
from its start without the undone moves.

>>> import laro
>>> state = laro.get_game("lama").new_game(2, seed=3)
>>> moves = Moves("lama", human=0, allowed=True)
>>> seat = state.current_player
>>> moves.add(seat, "draw", person=seat == 0, bot=None if seat == 0 else "random")
>>> moves.kind_for("undo", to_act=1 - seat) if seat == 0 else "takeback"
'takeback'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from laro.core import GameRecord, GameState, get_game
from laro.server.undo import Move, Why, next_turn, step_refusal, takeback_refusal, turn_back

__all__ = ["UNDO_HELP", "Moves", "UndoRefused"]

UNDO_HELP = """
**Undo**: `undo` takes back your last step of this turn when it revealed nothing (in Kamara a move, port or poke;
never a flip, a match, an exchange or a card played; in L.A.M.A. no action is such a step). In a game started with
`--takebacks` (a practice game) `undo` — or `undo turn` — takes back your whole last turn, the bots' moves after it
too. The time on your clock is not given back.
"""


class UndoRefused(ValueError):
    """The undo asked for may not be taken now; the message says why."""


@dataclass
class Moves:
    """The moves in force of a game, and whether takebacks are allowed (every other seat is a bot's here)."""

    game: str
    human: int
    allowed: bool = False
    moves: list[Move] = field(default_factory=list)

    @classmethod
    def of_record(cls, record: GameRecord, human: int) -> Moves:
        """The moves of a saved game: the person's seat played its own moves (a stand-in's are not told apart)."""
        moves = cls(record.game, human, allowed=record.practice)
        state = get_game(record.game).new_game(record.num_players, seed=record.seed, options=record.options)
        for action in record.actions:
            seat = state.current_player
            assert seat is not None
            moves.add(seat, action, person=seat == human, bot=None if seat == human else record.bots.get(seat))
            state = state.apply(action)
        return moves

    def add(self, seat: int, action: str, person: bool, bot: str | None) -> None:
        turn = next_turn(self.game, self.moves, seat)
        self.moves.append(Move(len(self.moves) + 1, seat, action, person=person, turn=turn, bot=bot))

    def offered(self, to_act: int | None) -> bool:
        """Whether ``undo`` would take something back now."""
        try:
            self.kind_for("undo", to_act)
        except UndoRefused:
            return False
        return True

    def kind_for(self, command: str, to_act: int | None) -> str:
        """``step`` or ``takeback`` for the command typed (``undo`` or ``undo turn``), or :class:`UndoRefused`."""
        step = step_refusal(self.game, self.moves, self.human, to_act)
        turn = takeback_refusal(self.allowed, True, self.moves, self.human)
        if command.split()[1:] == ["turn"]:
            if turn is not None:
                raise UndoRefused(_why(turn))
            return "takeback"
        if step is None:
            return "step"
        if turn is None:
            return "takeback"
        raise UndoRefused(_why(turn) if self.allowed else _why(step) + " (takebacks need --takebacks)")

    def take_back(self, kind: str) -> list[Move]:
        """Take the moves of a ``step`` or ``takeback`` out of force; the undone moves."""
        undone = self.moves[-1:] if kind == "step" else turn_back(self.moves, self.human)
        del self.moves[len(self.moves) - len(undone) :]
        return undone

    def replayed(self, record: GameRecord) -> GameState:
        """The game of ``record`` replayed from its start with the moves in force."""
        state = get_game(record.game).new_game(record.num_players, seed=record.seed, options=record.options)
        for move in self.moves:
            state = state.apply(move.action)
        return state


# the server's reasons said for the terminal, where a game has no table and takebacks come from an option
_TERMINAL_WORDS = {
    "no_takebacks": "This game was started without takebacks: a game started with --takebacks (laro play … "
    "--takebacks, an unrated practice game) lets you take back your last turn",
}


def _why(reason: Why) -> str:
    """The refusal as the terminal says it.

    >>> _why(Why("no_turn", "you have no turn to take back"))
    'You have no turn to take back.'
    >>> _why(Why("no_takebacks", "this table was created without takebacks")).split(":")[0]
    'This game was started without takebacks'
    """
    text = _TERMINAL_WORDS.get(reason.code, reason)
    return text[0].upper() + text[1:] + "."
