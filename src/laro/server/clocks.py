"""Turn clocks: a time bank per seat with an increment per turn, or a limit per turn. Pure: every figure follows
from the table's events and their stored times, and from a ``now`` the caller passes in.

A seat's clock runs while it is that seat's turn and a person plays it; a turn is everything a seat does until
another seat is to act (Kamara's five actions are one turn). When the turn passes on, the seat gains the
increment. Bots are never timed, and nor is anyone while a round's end is shown (``pause``). When a seat's time
runs out the hub writes a ``timeout`` event and the seat's stand-in bot plays the rest of that turn; the seat
starts its next turn with a small bank (``grace``). Two time-outs in a row hand the seat to its stand-in until the
player comes back (``away``). After a restart the seat to act starts its turn afresh (``resume``): the outage is
never charged to anyone.

>>> spec = clock_spec("fast")
>>> spec.bank, spec.increment, spec.per_turn
(90.0, 5.0, None)
>>> clocks = Clocks(spec, 2)
>>> clocks.start_turn(0, at=100.0)
>>> clocks.deadline(), clocks.remaining(0, now=130.0)
(190.0, 60.0)
>>> clocks.end_turn(at=130.0)   # seat 0 moved after 30 s and the turn passes on: 60 s left + 5 s increment
>>> clocks.banks[0]
65.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "HANDOVER_AFTER",
    "PROFILES",
    "ClockError",
    "ClockSpec",
    "Clocks",
    "clock_spec",
    "default_profile",
    "profiles",
]

ROUND_PAUSE = 8.0  # seconds a round's end is shown before the next round starts (sooner when everyone is ready)
RESUME_GRACE = 30.0  # at least this many seconds for the seat to act after a restart
AWAY_AFTER = 120.0  # seconds without a connection, on its turn, before a seat is handed to its stand-in
HANDOVER_AFTER = 60.0  # seconds without a connection before another player may hand a seat to its stand-in
CORRESPONDENCE = 3600.0  # a clock giving each turn this long or longer is played over days (``daily``)
BOUNDS = {"bank": (10.0, 86400.0), "increment": (0.0, 3600.0), "per_turn": (10.0, 7 * 86400.0)}


class ClockError(ValueError):
    """A clock that cannot be (an unknown profile, a figure out of bounds)."""


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """A clock: ``bank`` seconds per seat plus ``increment`` per turn, or ``per_turn`` seconds each turn."""

    name: str
    bank: float | None = None
    increment: float = 0.0
    per_turn: float | None = None

    @property
    def grace(self) -> float:
        """The small bank a seat gets after a time-out, or when its player takes it back."""
        if self.per_turn is not None:
            return self.per_turn
        assert self.bank is not None
        return min(self.bank, max(30.0, 3 * self.increment))

    @property
    def correspondence(self) -> bool:
        """A clock of an hour or more a turn (``daily``): its players come and go between their turns, so a player
        without a connection is neither taken for away nor handed over before their turn's time runs out."""
        return self.per_turn is not None and self.per_turn >= CORRESPONDENCE

    def gone_limit(self, seconds: float) -> float:
        """How long a player may be without a connection before it counts (``seconds``; never, at a
        :attr:`correspondence` clock)."""
        return math.inf if self.correspondence else seconds

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bank": self.bank, "increment": self.increment, "per_turn": self.per_turn}


# the named clocks (data: GET /api/games lists them, docs/protocol.md and the rules pages describe them)
PROFILES: dict[str, ClockSpec] = {
    "none": ClockSpec("none"),
    "fast": ClockSpec("fast", bank=90.0, increment=5.0),
    "normal": ClockSpec("normal", bank=180.0, increment=10.0),
    "relaxed": ClockSpec("relaxed", bank=600.0, increment=30.0),
    "daily": ClockSpec("daily", per_turn=86400.0),
}


def profiles() -> list[dict[str, Any]]:
    return [spec.to_json() for spec in PROFILES.values()]


def default_profile(humans: int) -> str:
    """``normal`` for a table of several people, ``none`` for one person against bots."""
    return "normal" if humans > 1 else "none"


def clock_spec(value: object) -> ClockSpec:
    """A clock from a profile's name or from figures: ``{"bank": 60, "increment": 5}`` or ``{"per_turn": 86400}``.

    >>> clock_spec({"bank": 60, "increment": 5})
    ClockSpec(name='custom', bank=60.0, increment=5.0, per_turn=None)
    >>> clock_spec("blitz")
    Traceback (most recent call last):
      ...
    laro.server.clocks.ClockError: no clock 'blitz': none, fast, normal, relaxed, daily, or figures
    """
    if isinstance(value, str):
        if value not in PROFILES:
            raise ClockError(f"no clock {value[:20]!r}: {', '.join(PROFILES)}, or figures")
        return PROFILES[value]
    if isinstance(value, dict):
        if set(value) - {"name", "bank", "increment", "per_turn"}:
            raise ClockError('a clock has "bank" and "increment", or "per_turn" (seconds)')
        named = PROFILES.get(str(value.get("name")))
        if named is not None and named.to_json() == value:
            return named
        keys = ("bank", "increment", "per_turn")
        figures = {key: _seconds(key, value[key]) for key in keys if value.get(key) is not None}
        if "per_turn" in figures and "bank" not in figures and not figures.get("increment"):
            return ClockSpec(str(value.get("name", "custom"))[:20], per_turn=figures["per_turn"])
        if "bank" in figures and "per_turn" not in figures:
            return ClockSpec(
                str(value.get("name", "custom"))[:20], bank=figures["bank"], increment=figures.get("increment", 0.0)
            )
    raise ClockError(
        'a clock is a name (fast, normal, relaxed, daily, none), {"bank": …, "increment": …} or {"per_turn": …}'
    )


def _seconds(key: str, value: object) -> float:
    low, high = BOUNDS[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ClockError(f"a clock's {key} is a number of seconds from {low:g} to {high:g}")
    return float(value)


@dataclass(slots=True)
class Clocks:
    """The clocks of a table's seats as its events left them (a table keeps one, changed as it applies events)."""

    spec: ClockSpec
    seats: int
    banks: list[float] = field(default_factory=list)
    turn_seat: int | None = None  # whose clock runs (None: nobody's)
    turn_started: float = 0.0  # when it started running
    paused_until: float | None = None  # a round's end is being shown until then

    def __post_init__(self) -> None:
        if not self.banks:
            start = self.spec.per_turn if self.spec.per_turn is not None else self.spec.bank
            self.banks = [float(start or 0.0)] * self.seats

    @property
    def timed(self) -> bool:
        return self.spec.bank is not None or self.spec.per_turn is not None

    def start_turn(self, seat: int | None, at: float) -> None:
        """``seat``'s clock starts at ``at`` (None: nobody's runs, e.g. a bot's turn)."""
        self.turn_seat = seat if self.timed else None
        self.turn_started = at
        if seat is not None and self.spec.per_turn is not None:
            self.banks[seat] = self.spec.per_turn

    def charge(self, at: float) -> None:
        """Take the time since the turn started (or since the last charge) off the running clock."""
        seat = self.turn_seat
        if seat is None:
            return
        started = self._running_since()
        self.banks[seat] = max(0.0, self.banks[seat] - max(0.0, at - started))
        self.turn_started = max(at, started)

    def end_turn(self, at: float) -> None:
        """The running turn is over at ``at``: charge it and add the increment."""
        seat = self.turn_seat
        if seat is None:
            return
        self.charge(at)
        self.banks[seat] += self.spec.increment
        self.turn_seat = None

    def stop(self, at: float) -> None:
        """The running turn is taken from its player at ``at`` (handed to a stand-in): charged, with no increment."""
        self.charge(at)
        self.turn_seat = None

    def timed_out(self, seat: int) -> None:
        """``seat`` ran out: its stand-in plays this turn; its next turn starts from the small ``grace`` bank."""
        self.banks[seat] = self.spec.grace
        if self.turn_seat == seat:
            self.turn_seat = None

    def resume(self, at: float) -> None:
        """After a restart: the running turn starts again at ``at`` with what it had, and at least a grace."""
        seat = self.turn_seat
        if seat is not None:
            self.banks[seat] = max(self.banks[seat], min(RESUME_GRACE, self.spec.grace))
            self.turn_started = at
        if self.paused_until is not None:
            self.paused_until = max(self.paused_until, at)

    def pause(self, until: float) -> None:
        self.paused_until = until

    def deadline(self) -> float | None:
        """When the running clock runs out (None when none runs)."""
        seat = self.turn_seat
        if seat is None:
            return None
        return self._running_since() + self.banks[seat]

    def _running_since(self) -> float:
        """When the running clock started to run: its turn's start, or the end of a round's pause after it."""
        return max(self.turn_started, self.paused_until or self.turn_started)

    def remaining(self, seat: int, now: float) -> float | None:
        """``seat``'s time left at ``now`` (None without a clock)."""
        if not self.timed:
            return None
        if seat != self.turn_seat:
            return self.banks[seat]
        deadline = self.deadline()
        assert deadline is not None
        return max(0.0, min(self.banks[seat], deadline - now))
