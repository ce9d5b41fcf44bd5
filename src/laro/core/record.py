"""Game records: game, rules version, options, seed and actions — enough to replay a game exactly.

The actions are those in force: an action taken back (an undo) is not in the record. A game played with
takebacks allowed says so (``practice``, and ``takebacks``: how many turns were taken back): it is unrated.

>>> import laro
>>> state = laro.get_game("lama").new_game(3, seed=11)
>>> record = GameRecord.start(state, seed=11)
>>> state = state.apply("quit"); record.actions.append("quit")
>>> replay(GameRecord.from_json(record.to_json())).to_json() == state.to_json()
True
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from laro.core.errors import LaroError, RecordError
from laro.core.game import GameState, JSONDict
from laro.core.registry import get_game

__all__ = ["RECORD_FORMAT", "GameRecord", "iter_replay", "read_json", "replay", "result_of"]

RECORD_FORMAT = "laro-record/1"


def result_of(state: GameState) -> JSONDict:
    """The outcome of a state as stored in records: winners, scores, and whether the game is over."""
    return {"over": state.is_over, "winners": list(state.winners), "scores": list(state.scores)}


@dataclass(slots=True)
class GameRecord:
    """What was played: everything needed to replay the game, plus who sat where and how it ended."""

    game: str
    rules_version: str
    num_players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    bots: dict[int, str] = field(default_factory=dict)  # seat -> bot name, for the seats bots played
    result: JSONDict | None = None
    practice: bool = False  # takebacks were allowed: an unrated practice game
    takebacks: int = 0  # how many turns were taken back (their actions are not in ``actions``)

    @classmethod
    def start(
        cls, state: GameState, seed: int, players: list[str] | None = None, bots: dict[int, str] | None = None
    ) -> GameRecord:
        """A record for a newly created ``state`` (made with ``seed``)."""
        data = state.to_json()
        return cls(
            game=state.game.name,
            rules_version=state.game.rules_version,
            num_players=state.num_players,
            seed=seed,
            options=dict(data.get("options", {})),
            players=list(players or []),
            bots=dict(bots or {}),
        )

    def to_json(self) -> JSONDict:
        practice = {"practice": True, "takebacks": self.takebacks} if self.practice else {}
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "num_players": self.num_players,
            "options": self.options,
            "seed": self.seed,
            "players": self.players,
            "bots": {str(seat): name for seat, name in sorted(self.bots.items())},
            "actions": self.actions,
            "result": self.result,
            **practice,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a laro game record (format {data.get('format')!r}, expected {RECORD_FORMAT})")
        if "view" in data and data.get("seed") is None:
            raise RecordError(
                "this record was taken while the game was being played: it holds only the moves its reader was "
                "told, not the seed, so it cannot be replayed (the record of the finished game can)"
            )
        try:
            record = cls(
                game=_typed(data, "game", str),
                rules_version=_typed(data, "rules_version", str),
                num_players=_typed(data, "num_players", int),
                seed=_typed(data, "seed", int),
                options=_typed(data, "options", dict),
                actions=_typed(data, "actions", list),
                players=data.get("players") or [],
                bots=_bots(data.get("bots") or {}),
                result=data.get("result"),
                practice=data.get("practice") is True,
                takebacks=data.get("takebacks", 0),
            )
        except KeyError as missing:
            raise RecordError(f"game record lacks the field {missing}") from None
        if not all(isinstance(a, str) for a in record.actions):
            raise RecordError("game record actions must all be texts")
        if isinstance(record.takebacks, bool) or not isinstance(record.takebacks, int) or record.takebacks < 0:
            raise RecordError("game record field 'takebacks' must be a whole number of turns taken back")
        return record

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the record as JSON, atomically (a crash never leaves half a file)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as tmp:
            json.dump(self.to_json(), tmp, indent=1)
            tmp.write("\n")
        os.replace(tmp.name, path)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        return cls.from_json(read_json(path))


def read_json(path: str | os.PathLike[str]) -> Any:
    """The JSON a record file holds; :class:`RecordError` for a file that cannot be read or is not JSON."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a game record: it is not text (UTF-8)") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not valid JSON: {error}") from None


def _typed(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"game record field {key!r} must be of type {kind.__name__}")
    return value


def _bots(value: Any) -> dict[int, str]:
    if not isinstance(value, dict) or not all(
        isinstance(seat, str) and seat.isdigit() and isinstance(name, str) for seat, name in value.items()
    ):
        raise RecordError("game record field 'bots' must map seat numbers to bot names")
    return {int(seat): name for seat, name in value.items()}


def iter_replay(record: GameRecord) -> Iterator[tuple[str | None, GameState]]:
    """Yield ``(None, start)`` then ``(action, state after it)`` for every recorded action."""
    try:
        game = get_game(record.game)
    except LaroError as error:
        raise RecordError(str(error)) from None
    if record.rules_version != game.rules_version:
        raise RecordError(
            f"record was made with {record.game} rules {record.rules_version}, "
            f"this laro implements {game.rules_version}"
        )
    try:
        state = game.new_game(record.num_players, seed=record.seed, options=record.options)
    except ValueError as error:
        raise RecordError(f"record cannot start a game: {error}") from None
    yield None, state
    for number, action in enumerate(record.actions, start=1):
        try:
            state = state.apply(action)
        except ValueError as error:
            raise RecordError(f"action {number} ({action!r}) does not replay: {error}") from None
        yield action, state


def replay(record: GameRecord) -> GameState:
    """The final state of a record."""
    final: GameState | None = None
    for _, state in iter_replay(record):
        final = state
    assert final is not None
    return final
