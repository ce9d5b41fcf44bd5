"""A table's events: each a small frozen record with its own JSON form, the form the store keeps.

Every change of a table is one event numbered by ``seq``: a person takes a seat (:class:`Join`), leaves it
(:class:`Leave`) or hands it to a bot (:class:`BotSeat`); a seat acts (:class:`Act`) or takes moves back
(:class:`Undo`, see :mod:`laro.server.undo`); the clock runs out (:class:`Timeout`), a seat is handed to its
stand-in (:class:`Away`), a player is ready for the next round (:class:`Ready`) or a restarted server starts the
running clock afresh (:class:`Resume`, see :mod:`laro.server.clocks`); the table ends before its game does
(:class:`End`). A line of chat (:class:`Chat`) is an event too, so it is kept and shared as the table is, but it
changes nothing of the game and is never part of its record. The store keeps each one's JSON form, with the time
the hub stored it (``"time"``) beside it.

>>> event = Act(seq=3, seat=1, action="play 4")
>>> event.to_json()
{'seq': 3, 'type': 'act', 'seat': 1, 'action': 'play 4'}
>>> event_from_json({**event.to_json(), "time": 1.5}) == event
True
>>> event_from_json({"seq": 4, "type": "away", "seat": 0, "reason": "handed", "by": 1}).by
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from laro.core import JSONDict

__all__ = [
    "Act",
    "Away",
    "BotSeat",
    "Chat",
    "End",
    "Event",
    "Join",
    "Leave",
    "Ready",
    "Resume",
    "Timeout",
    "Undo",
    "event_from_json",
]


class EventError(ValueError):
    """A stored event that cannot be read: an unknown type, a field missing or of the wrong kind."""


def _field(data: JSONDict, key: str, kind: type[Any]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise EventError(f"event {data.get('seq')!r}: {key!r} must be {kind.__name__}, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Join:
    """A person takes (or takes back) their seat, under ``name``."""

    type: ClassVar[str] = "join"
    seq: int
    seat: int
    name: str

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type, "seat": self.seat, "name": self.name}

    @classmethod
    def from_json(cls, data: JSONDict) -> Join:
        return cls(_field(data, "seq", int), _field(data, "seat", int), _field(data, "name", str))


@dataclass(frozen=True, slots=True)
class Leave:
    """A person leaves their seat (it waits for them, or for another with its token)."""

    type: ClassVar[str] = "leave"
    seq: int
    seat: int

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type, "seat": self.seat}

    @classmethod
    def from_json(cls, data: JSONDict) -> Leave:
        return cls(_field(data, "seq", int), _field(data, "seat", int))


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A person hands their seat to the bot ``bot`` (joining again takes it back)."""

    type: ClassVar[str] = "bot"
    seq: int
    seat: int
    bot: str

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type, "seat": self.seat, "bot": self.bot}

    @classmethod
    def from_json(cls, data: JSONDict) -> BotSeat:
        return cls(_field(data, "seq", int), _field(data, "seat", int), _field(data, "bot", str))


@dataclass(frozen=True, slots=True)
class Act:
    """``seat`` takes ``action`` (its canonical text: the client's spelling could carry hidden cards)."""

    type: ClassVar[str] = "act"
    seq: int
    seat: int
    action: str

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type, "seat": self.seat, "action": self.action}

    @classmethod
    def from_json(cls, data: JSONDict) -> Act:
        return cls(_field(data, "seq", int), _field(data, "seat", int), _field(data, "action", str))


@dataclass(frozen=True, slots=True)
class Undo:
    """``seat`` takes back a ``step`` or its last turn (``takeback``): the moves of events ``undone``."""

    type: ClassVar[str] = "undo"
    seq: int
    seat: int
    kind: str
    undone: tuple[int, ...]

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type, "seat": self.seat, "kind": self.kind, "undone": list(self.undone)}

    @classmethod
    def from_json(cls, data: JSONDict) -> Undo:
        undone = _field(data, "undone", list)
        if not all(isinstance(seq, int) and not isinstance(seq, bool) for seq in undone):
            raise EventError(f"event {data.get('seq')!r}: 'undone' must list seqs, not {undone!r}")
        return cls(_field(data, "seq", int), _field(data, "seat", int), _field(data, "kind", str), tuple(undone))


@dataclass(frozen=True, slots=True)
class Timeout:
    """``seat``'s clock ran out: its stand-in plays the rest of the turn."""

    type: ClassVar[str] = "timeout"
    seq: int
    seat: int

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type, "seat": self.seat}

    @classmethod
    def from_json(cls, data: JSONDict) -> Timeout:
        return cls(_field(data, "seq", int), _field(data, "seat", int))


@dataclass(frozen=True, slots=True)
class Away:
    """``seat`` is handed to its stand-in until its player comes back: ``disconnected`` (no connection on its turn
    for a while) or ``handed`` (by the player of seat ``by``)."""

    type: ClassVar[str] = "away"
    seq: int
    seat: int
    reason: str
    by: int | None = None

    def to_json(self) -> JSONDict:
        event: JSONDict = {"seq": self.seq, "type": self.type, "seat": self.seat, "reason": self.reason}
        if self.by is not None:
            event["by"] = self.by
        return event

    @classmethod
    def from_json(cls, data: JSONDict) -> Away:
        by = None if data.get("by") is None else _field(data, "by", int)
        return cls(_field(data, "seq", int), _field(data, "seat", int), _field(data, "reason", str), by)


@dataclass(frozen=True, slots=True)
class Ready:
    """``seat`` is ready for the next round; ``last``: the last of the players there, so the round's end is over."""

    type: ClassVar[str] = "ready"
    seq: int
    seat: int
    last: bool

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type, "seat": self.seat, "last": self.last}

    @classmethod
    def from_json(cls, data: JSONDict) -> Ready:
        return cls(_field(data, "seq", int), _field(data, "seat", int), bool(data.get("last")))


@dataclass(frozen=True, slots=True)
class Resume:
    """A restarted server drives the table again: the running clock starts its turn afresh."""

    type: ClassVar[str] = "resume"
    seq: int

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type}

    @classmethod
    def from_json(cls, data: JSONDict) -> Resume:
        return cls(_field(data, "seq", int))


@dataclass(frozen=True, slots=True)
class End:
    """The table ends before its game does: ``expired``, ``abandoned``, ``too_long`` or ``time_up``."""

    type: ClassVar[str] = "end"
    seq: int
    reason: str

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type, "reason": self.reason}

    @classmethod
    def from_json(cls, data: JSONDict) -> End:
        return cls(_field(data, "seq", int), _field(data, "reason", str))


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of chat, cleaned (:func:`laro.server.chat.clean_text`), by ``seat`` or a spectator (``None``)."""

    type: ClassVar[str] = "chat"
    seq: int
    seat: int | None
    text: str

    def to_json(self) -> JSONDict:
        return {"seq": self.seq, "type": self.type, "seat": self.seat, "text": self.text}

    @classmethod
    def from_json(cls, data: JSONDict) -> Chat:
        seat = None if data.get("seat") is None else _field(data, "seat", int)
        return cls(_field(data, "seq", int), seat, _field(data, "text", str))


Event = Join | Leave | BotSeat | Act | Undo | Timeout | Away | Ready | Resume | End | Chat

_KINDS: dict[str, type[Event]] = {
    kind.type: kind for kind in (Join, Leave, BotSeat, Act, Undo, Timeout, Away, Ready, Resume, End, Chat)
}


def event_from_json(data: JSONDict) -> Event:
    """The event of a stored JSON form (its ``"time"`` is the store's, not the event's); :class:`EventError` for
    one that is not an event.

    >>> event_from_json({"seq": 1, "type": "dance"})
    Traceback (most recent call last):
      ...
    laro.server.table.events.EventError: event 1: unknown event type 'dance'
    """
    kind = _KINDS.get(str(data.get("type")))
    if kind is None:
        raise EventError(f"event {data.get('seq')!r}: unknown event type {str(data.get('type'))[:40]!r}")
    return kind.from_json(data)
