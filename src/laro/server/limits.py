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
from collections.abc import Iterable
from dataclasses import dataclass

from laro.server.tables import Refusal

__all__ = ["Buckets", "Held", "RateLimit", "ServerLimits", "admit_table"]


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The server's limits (per address: per client IP address as the server sees it)."""

    creates_per_minute: float = 6.0  # new tables per address, after a burst of ``create_burst``
    create_burst: int = 10
    seat_calls_per_second: float = 2.0  # joins, leaves, hand-overs and rematches per address, after a burst
    seat_call_burst: int = 20
    open_tables_per_address: int = 10  # tables waiting for players, made by one address
    open_tables: int = 1000  # tables waiting for players, in all
    tables: int = 5000  # open and running tables, in all
    bot_tables: int = 4  # running tables without a human seat, in all
    bot_tables_per_address: int = 1
    open_table_ttl: float = 24 * 3600.0  # seconds a table may wait for its players before it expires
    sockets_per_address: int = 32  # WebSocket connections from one address
    sockets_per_table: int = 64  # WebSocket connections to one table, players and spectators
    lobby_page: int = 50  # tables in one page of the lobby (a client may ask for up to ``lobby_page_max``)
    lobby_page_max: int = 100
    body_bytes: int = 65536  # of a request body
    record_bytes: int = 1048576  # of a game record sent to be replayed
    finished_cache: int = 256  # finished tables kept in memory once read back from the store


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
    laro.server.tables.Refusal: at most 1 of your tables may be bots alone
    """
    tables = list(held)
    if len(tables) >= limits.tables:
        raise Refusal("busy", f"the server holds {limits.tables} tables, its most; try again later")
    if has_humans:
        waiting = [table for table in tables if not table.started]
        if len(waiting) >= limits.open_tables:
            raise Refusal("busy", f"{limits.open_tables} tables wait for players already; join one of them")
        if address is not None and sum(table.address == address for table in waiting) >= limits.open_tables_per_address:
            raise Refusal(
                "too_many", f"at most {limits.open_tables_per_address} of your tables may wait for players at once"
            )
        return
    bots_only = [table for table in tables if not table.has_humans]
    if len(bots_only) >= limits.bot_tables:
        raise Refusal("busy", f"at most {limits.bot_tables} tables of bots alone play at once; try again later")
    if address is not None and sum(table.address == address for table in bots_only) >= limits.bot_tables_per_address:
        raise Refusal("too_many", f"at most {limits.bot_tables_per_address} of your tables may be bots alone")


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
