"""What one stranger may ask of the server, and what it holds in all: rates and counts, pure and clock-free.

Every rule here is a function of what the caller passes in, ``now`` included, so it is tested without sleeping; the
app and the hub ask it and act on the answer. The figures are the defaults of ``laro serve`` (its options change
them) and are documented in docs/protocol.md, "Limits".

>>> buckets = Buckets(per_second=1.0, burst=2)
>>> [buckets.wait("10.0.0.1", now=0.0) for _ in range(3)]
[0.0, 0.0, 1.0]
>>> buckets.wait("10.0.0.1", now=1.0), buckets.wait("10.0.0.2", now=1.0)
(0.0, 0.0)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from laro.server.errors import Code, Refusal

__all__ = ["Buckets", "Held", "Option", "RateLimit", "ServerLimits", "admit_table", "options"]


@dataclass(frozen=True, slots=True)
class Option:
    """How ``laro serve`` sets a limit: its ``flag`` and ``help``, the range its value may take, and the ``unit`` of
    that value in the limit's (60: the flag counts minutes of a limit in seconds)."""

    flag: str
    help: str
    lowest: float
    highest: float
    unit: float = 1.0


def _limit(default: Any, option: Option | None = None) -> Any:
    return field(default=default, metadata={} if option is None else {"option": option})


_COUNT = 100_000  # the most of any count an operator may set


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The server's limits (per address: per client IP address as the server sees it), each declared once with
    the ``laro serve`` option that sets it, if any (:func:`options`).

    >>> limits = ServerLimits.from_options({"bot_tables": 12, "bot_table_seconds": 5.0})
    >>> limits.bot_tables_per_address, limits.bot_table_seconds, limits.tables
    (3, 300.0, 5000)
    """

    creates_per_minute: float = _limit(  # new tables per address, after a burst of ``create_burst``
        6.0,
        Option(
            "--tables-per-minute", "New tables one address may make a minute (after a first burst of 10).", 0.01, 1e6
        ),
    )
    create_burst: int = 10
    seat_calls_per_second: float = _limit(  # joins, leaves, hand-overs and rematches per address, after a burst
        2.0,
        Option(
            "--seat-requests-per-second",
            "Joins, leaves, hand-overs and rematches one address may ask for a second (after a burst of 20).",
            0.01,
            1e6,
        ),
    )
    seat_call_burst: int = 20
    open_tables_per_address: int = _limit(  # tables waiting for players, made by one address
        10, Option("--tables-per-address", "Tables one address may have waiting for players at once.", 1, _COUNT)
    )
    open_tables: int = 1000  # tables waiting for players, in all
    tables: int = 5000  # open and running tables, in all
    bot_tables: int = _limit(  # running tables without a human seat, in all
        4,
        Option(
            "--bot-tables",
            "Tables that only bots play, running at once (one address may have a quarter of them, at least one).",
            0,
            _COUNT,
        ),
    )
    bot_tables_per_address: int = 1  # laro serve: a quarter of ``bot_tables``, at least one
    bot_table_seconds: float = _limit(  # a table only bots play ends this long after it was made (time_up)
        1800.0,
        Option(
            "--bot-table-minutes",
            "Minutes a table that only bots play may run (it ends then: time_up).",
            1,
            24 * 60 * 365,
            unit=60,
        ),
    )
    open_table_ttl: float = _limit(  # seconds a table may wait for its players before it expires
        24 * 3600.0,
        Option(
            "--open-table-hours", "Hours a table waits for its players before it expires.", 0.01, 24 * 365, unit=3600
        ),
    )
    sockets_per_address: int = _limit(  # WebSocket connections from one address
        32,
        Option(
            "--websockets-per-address",
            "WebSocket connections (players and spectators) one address may have.",
            1,
            _COUNT,
        ),
    )
    sockets_per_table: int = _limit(  # spectators of one table (its players always get in)
        64,
        Option(
            "--spectators-per-table",
            "WebSocket connections of spectators to one table (its players always get in).",
            0,
            _COUNT,
        ),
    )
    hellos_per_address: int = _limit(  # WebSocket connections from one address that have not said hello yet
        16,
        Option(
            "--hellos-per-address",
            "WebSocket connections from one address that have 5 s to say hello (any more have 1 s).",
            1,
            _COUNT,
        ),
    )
    lobby_page: int = 50  # tables in one page of the lobby (a client may ask for up to ``lobby_page_max``)
    lobby_page_max: int = 100
    body_bytes: int = 65536  # of a request body
    record_bytes: int = 1048576  # of a game record sent to be replayed
    analyses_per_address: int = _limit(  # analyses one address may have under way at once
        1, Option("--analyses-per-address", "Move analyses one address may have under way at once (4 in all).", 1, 64)
    )
    replays_at_once: int = _limit(  # replays made at once (in a worker), with four times as many waiting
        2,
        Option(
            "--replays-at-once",
            "Replays made at once in a worker (four times as many may wait; one address has one at a time).",
            1,
            64,
        ),
    )
    finished_cache: int = 256  # finished tables kept in memory once read back from the store
    table_events: int = _limit(  # events a table may have (far more than any real game): then it ends, too_long
        10_000,
        Option(
            "--table-events",
            "Events a table may hold (far more than any real game needs); then it ends (too_long).",
            100,
            1_000_000,
        ),
    )

    sign_ups_per_hour: float = _limit(  # new accounts per address, after a burst of ``sign_up_burst``
        10.0,
        Option("--sign-ups-per-hour", "Accounts one address may make an hour (after a first burst of 3).", 0.01, 1e6),
    )
    sign_up_burst: int = 3
    sign_ins_per_minute: float = _limit(  # sign-in attempts (and account deletions) per address, after a burst
        6.0,
        Option(
            "--sign-ins-per-minute",
            "Sign-in attempts one address may make a minute (after a first burst of 10).",
            0.01,
            1e6,
        ),
    )
    sign_in_burst: int = 10
    sign_ins_per_account_per_hour: float = _limit(  # sign-in attempts on one name, from every address
        20.0,
        Option(
            "--sign-ins-per-account-per-hour",
            "Sign-in attempts on one account's name an hour, from all addresses together (after a first burst of 10).",
            0.01,
            1e6,
        ),
    )
    sign_in_account_burst: int = 10
    chat_per_minute: float = _limit(  # lines of chat one seat of a table may write, after a burst of ``chat_burst``
        12.0,
        Option(
            "--chat-per-minute",
            "Lines of chat one seat (or one spectator's address) may write a minute at a table (after a first burst "
            "of 5).",
            0.01,
            1e6,
        ),
    )
    chat_burst: int = 5
    chat_lines: int = _limit(  # lines of chat a table may hold in all: then its chat is full (too_many)
        2000, Option("--chat-lines", "Lines of chat a table may hold in all.", 1, 1_000_000)
    )
    chat: bool = True  # chat at the tables (laro serve --no-chat turns it off)

    @classmethod
    def from_options(cls, values: Mapping[str, float]) -> ServerLimits:
        """The limits ``laro serve``'s options give, by field name, each in its option's unit; the rest stay as
        they are, but for the tables of bots alone one address may have: a quarter of them, at least one."""
        given: dict[str, Any] = {}
        for name, option, default in options():
            if name in values:
                value = values[name] * option.unit
                given[name] = round(value) if isinstance(default, int) else float(value)
        if "bot_tables" in given:
            given["bot_tables_per_address"] = max(1, int(given["bot_tables"]) // 4)
        return cls(**given)


def options() -> list[tuple[str, Option, float | int]]:
    """Every limit ``laro serve`` may set: its field's name, its option, and its default in the option's unit."""
    found = []
    for limit in fields(ServerLimits):
        option = limit.metadata.get("option")
        if option is not None:
            default = limit.default
            assert isinstance(default, int | float)
            found.append((limit.name, option, default if option.unit == 1 else default / option.unit))
    return found


@dataclass(frozen=True, slots=True)
class Held:
    """A table not over that the server holds, as its bounds count it: begun or waiting for players, with people
    or bots alone, and who made it (None: nobody known, as after a restart)."""

    started: bool
    has_humans: bool
    address: str | None = None


def admit_table(limits: ServerLimits, has_humans: bool, address: str | None, held: Iterable[Held]) -> None:
    """Refuse (:class:`Refusal` ``busy`` or ``too_many``) a new table beyond the server's bounds: every table in
    all; with people, the tables waiting for players in all and per address; of bots alone, those in all and per
    address.

    >>> mine = [Held(started=True, has_humans=False, address="10.0.0.1")]
    >>> admit_table(ServerLimits(), True, "10.0.0.1", mine)
    >>> admit_table(ServerLimits(), False, "10.0.0.1", mine)
    Traceback (most recent call last):
    laro.server.errors.Refusal: at most 1 of your tables may be bots alone
    """
    tables = list(held)
    if len(tables) >= limits.tables:
        raise Refusal(Code.BUSY, f"the server holds {limits.tables} tables, its most; try again later")
    if has_humans:
        waiting = [table for table in tables if not table.started]
        if len(waiting) >= limits.open_tables:
            raise Refusal(Code.BUSY, f"{limits.open_tables} tables wait for players already; join one of them")
        if address is not None and sum(table.address == address for table in waiting) >= limits.open_tables_per_address:
            raise Refusal(
                Code.TOO_MANY, f"at most {limits.open_tables_per_address} of your tables may wait for players at once"
            )
        return
    bots_only = [table for table in tables if not table.has_humans]
    if len(bots_only) >= limits.bot_tables:
        raise Refusal(Code.BUSY, f"at most {limits.bot_tables} tables of bots alone play at once; try again later")
    if address is not None and sum(table.address == address for table in bots_only) >= limits.bot_tables_per_address:
        raise Refusal(Code.TOO_MANY, f"at most {limits.bot_tables_per_address} of your tables may be bots alone")


class RateLimit:
    """A token bucket: ``burst`` at once, then ``per_second``.

    >>> bucket = RateLimit(per_second=2, burst=2)
    >>> [bucket.allow(now=0.0) for _ in range(3)], bucket.allow(now=1.0)
    ([True, True, False], True)
    """

    __slots__ = ("burst", "last", "per_second", "tokens")

    def __init__(self, per_second: float, burst: int) -> None:
        self.per_second = per_second
        self.burst = burst
        self.tokens = float(burst)
        self.last: float | None = None

    def wait(self, now: float | None = None) -> float:
        """Take one token and return 0.0, or return the seconds until one is there (taking nothing)."""
        now = time.monotonic() if now is None else now
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.per_second if self.per_second > 0 else float("inf")

    def allow(self, now: float | None = None) -> bool:
        return self.wait(now) == 0.0


class Buckets:
    """One :class:`RateLimit` per key (an address), at most ``max_keys`` of them: the least recently used goes
    first, so a flood of addresses cannot fill the memory (a forgotten address starts again with a full bucket)."""

    def __init__(self, per_second: float, burst: int, max_keys: int = 100_000) -> None:
        self.per_second = per_second
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def wait(self, key: str, now: float | None = None) -> float:
        """0.0 if ``key`` may go on now (one token taken), else the seconds it must wait."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = RateLimit(self.per_second, self.burst)
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.wait(now)

    def __len__(self) -> int:
        return len(self._buckets)
