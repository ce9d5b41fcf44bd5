"""Records of a game still being played: only what their reader may know, so they cannot be replayed.

A finished game's record (:class:`~laro.core.record.GameRecord`) holds the seed, and the seed deals every hidden
card. While a game runs, its record is given without the seed, as one reader may know it: a spectator or one
seat. Such a record is in the same format with ``"seed": null`` and a ``"view"``: whose it is (``seat``, ``null``
for a spectator), who made each move (``seats``) and the reader's observation of the table now. Its ``actions``
are the moves as that reader was told them (another's ``keep Y3`` is told as ``keep``), so nothing in it is
hidden from its reader.

>>> import laro
>>> state = laro.get_game("kamara").new_game(2, seed=3)
>>> record = PartialRecord(game="kamara", rules_version="1", num_players=2, options={}, seat=None,
...     players=["Ana", "Ben"], actions=["keep"], seats=[1], observation=state.public_observation())
>>> again = read_record(record.to_json())
>>> isinstance(again, PartialRecord), again.actions, again.seat
(True, ['keep'], None)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from laro.core.errors import RecordError
from laro.core.game import JSONDict
from laro.core.record import RECORD_FORMAT, GameRecord, read_json

__all__ = ["PartialRecord", "load_record", "read_record"]


@dataclass(slots=True)
class PartialRecord:
    """A running game as one reader (a ``seat``, or ``None`` for a spectator) may know it: no seed, no hidden card."""

    game: str
    rules_version: str
    num_players: int
    options: dict[str, Any]
    seat: int | None
    actions: list[str] = field(default_factory=list)  # each move as the reader was told it
    seats: list[int] = field(default_factory=list)  # the seat that made each move
    players: list[str] = field(default_factory=list)
    bots: dict[int, str] = field(default_factory=dict)
    observation: JSONDict = field(default_factory=dict)  # the reader's observation of the table now
    practice: bool = False  # takebacks allowed: an unrated practice game (see GameRecord)
    takebacks: int = 0

    def to_json(self) -> JSONDict:
        whole = GameRecord(
            self.game, self.rules_version, self.num_players, 0, self.options, self.actions, self.players, self.bots
        )
        whole.practice, whole.takebacks = self.practice, self.takebacks
        view = {"seat": self.seat, "seats": self.seats, "observation": self.observation}
        return {**whole.to_json(), "seed": None, "view": view}

    @classmethod
    def from_json(cls, data: Any) -> PartialRecord:
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a laro game record (expected the format {RECORD_FORMAT})")
        view = data.get("view")
        if not isinstance(view, dict):
            raise RecordError("a record without its seed must say whose view it is (its 'view')")
        full = GameRecord.from_json({**data, "seed": 0})  # the same fields, checked the same way
        seat, seats, observation = view.get("seat"), view.get("seats"), view.get("observation") or {}
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise RecordError("a record's view names a seat by its number, or null for a spectator")
        if not isinstance(seats, list) or len(seats) != len(full.actions) or not all(_seat(s) for s in seats):
            raise RecordError("a record's view gives the seat of every move ('seats')")
        if not isinstance(observation, dict):
            raise RecordError("a record's view holds its reader's observation as a JSON object")
        return cls(
            game=full.game,
            rules_version=full.rules_version,
            num_players=full.num_players,
            options=full.options,
            seat=seat,
            actions=full.actions,
            seats=list(seats),
            players=[str(name) for name in full.players],
            bots=full.bots,
            observation=observation,
            practice=full.practice,
            takebacks=full.takebacks,
        )


def _seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def read_record(data: Any) -> GameRecord | PartialRecord:
    """The record ``data`` holds: a whole game's (with its seed), or a running game's as one reader knew it.

    :class:`RecordError` if it is neither.
    """
    if isinstance(data, dict) and "view" in data and data.get("seed") is None:
        return PartialRecord.from_json(data)
    return GameRecord.from_json(data)


def load_record(path: str | os.PathLike[str]) -> GameRecord | PartialRecord:
    """The record in the file ``path`` (see :func:`read_record`)."""
    return read_record(read_json(path))
