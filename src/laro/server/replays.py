"""A finished game step by step, for the browser's replay page: pure, no I/O.

The server replays a record with the rules themselves (the one implementation of them) and gives, after every
action, the table as one reader saw it: a seat's observation, a spectator's, or every hand open (``"open"``: the
spectator's observation, and for each seat what only it saw then). The page draws each step with the game's own
renderer, as if it were a live ``state`` message.

>>> import laro
>>> from laro.core import GameRecord
>>> state = laro.get_game("lama").new_game(2, seed=4)
>>> record = GameRecord.start(state, seed=4, players=["Ana", "Ben"])
>>> record.actions = ["draw", "quit"]
>>> steps = replay_steps(record, "open")["steps"]
>>> [(step["seat"], step["action"]) for step in steps]
[(None, None), (1, 'draw'), (0, 'quit')]
>>> sorted(steps[0]["open"][1]), steps[0]["observation"]["hand"]
(['hand'], [])
"""

from __future__ import annotations

from typing import Any

from laro.core import GameRecord, GameState, JSONDict, LaroError, RecordError, get_game, iter_replay, result_of
from laro.server.errors import Code, Refusal
from laro.server.table import Table, scored_round

__all__ = ["MAX_STEPS", "VIEWS", "parse_view", "replay_of_table", "replay_steps", "table_knows", "with_table"]

MAX_STEPS = 5000  # actions a replayed record may hold
VIEWS = ("open", "spectator")  # besides a seat's number


def parse_view(value: object, num_players: int) -> int | str:
    """A replay's point of view: ``open``, ``spectator`` or a seat's number; :class:`Refusal` otherwise."""
    text = str(value)
    if text in VIEWS:
        return text
    if text.isdigit() and len(text) < 4 and int(text) < num_players:
        return int(text)
    raise Refusal(Code.BAD_REQUEST, f"a view is open, spectator or a seat 0..{num_players - 1}; got {text[:20]!r}")


def _seen(state: GameState, view: int | str) -> JSONDict:
    return state.observation(view) if isinstance(view, int) else state.public_observation()


def _hidden(state: GameState, public: JSONDict) -> list[JSONDict]:
    """For each seat, what its observation holds that a spectator's does not (its hand, its cards)."""
    found = []
    for seat in range(state.num_players):
        own = state.observation(seat)
        found.append({key: value for key, value in own.items() if key != "seat" and public.get(key) != value})
    return found


def replay_steps(record: GameRecord, view: int | str) -> JSONDict:
    """Every step of ``record`` as ``view`` saw it: the start, then the state after each action, with who acted
    and what (the whole action: the game is over). :class:`Refusal` for a record that does not replay."""
    if len(record.actions) > MAX_STEPS:
        raise Refusal(Code.TOO_LARGE, f"a replayed record holds at most {MAX_STEPS} actions")
    steps: list[JSONDict] = []
    before: GameState | None = None
    try:
        game = get_game(record.game)
    except LaroError as error:
        raise Refusal(Code.BAD_RECORD, str(error)) from None
    try:
        for action, state in iter_replay(record):
            observation = _seen(state, view)
            step: JSONDict = {"seat": None, "action": action, "observation": observation}
            if before is not None and action is not None:
                step["seat"] = before.current_player
                told = game.public_text(action)
                if told != action:
                    step["told"] = told  # what the others were told at the table: the action's hidden parts left out
                if scored_round(before) != scored_round(state):
                    step["round_over"] = scored_round(before)
            if view == "open":
                step["open"] = _hidden(state, observation)
            steps.append(step)
            before = state
    except RecordError as error:
        raise Refusal(Code.BAD_RECORD, str(error)) from None
    except (ValueError, TypeError, KeyError) as error:  # options a game could not take
        raise Refusal(Code.BAD_RECORD, f"the record does not replay: {error}") from None
    assert before is not None
    return {
        "game": game.name,
        "title": game.title,
        "num_players": record.num_players,
        "options": record.options,
        "players": _names(record),
        "bots": {str(seat): name for seat, name in sorted(record.bots.items())},
        "view": view,
        "seed": record.seed,
        "result": result_of(before),
        "steps": steps,
    }


def replay_of_table(table: Table, record: GameRecord, view: int | str) -> JSONDict:
    """:func:`replay_steps` of a finished table's ``record``, with what the table knew and the record does not:
    the bot that made each move a bot made (``bot``: the seat's own, or the stand-in of its absent player), and
    why the table ended before its game did (``ended``, else None)."""
    return with_table(replay_steps(record, view), *table_knows(table))


def table_knows(table: Table) -> tuple[list[str | None], str | None]:
    """What a finished table knows of its game that its record does not: the bot behind each move in force (None
    for a person's), and why the table ended before its game did (None if it did not)."""
    return [move.bot for move in table.moves], table.ended


def with_table(replayed: JSONDict, bots: list[str | None], ended: str | None) -> JSONDict:
    """``replayed`` with what its table knew (see :func:`table_knows`)."""
    for step, bot in zip(replayed["steps"][1:], bots, strict=True):
        if bot is not None:
            step["bot"] = bot
    replayed["ended"] = ended
    return replayed


def _names(record: GameRecord) -> list[Any]:
    names: list[Any] = [str(name) for name in record.players[: record.num_players]]
    return names + [None] * (record.num_players - len(names))
