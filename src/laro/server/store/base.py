"""What every store keeps and promises: tables as append-only event logs.

A table is its creation data (``TableMeta``) plus a log of JSON events numbered 1, 2, 3, … with no gaps. The
store checks only the numbering: ``append`` accepts an event whose ``"seq"`` is exactly the table's last seq + 1,
inside the database transaction that writes it, so two writers racing for the same seq (tasks, connections or
processes) get exactly one winner and one ``SeqConflict``. An accepted event is committed when ``append`` returns.

>>> meta = TableMeta(id=new_table_id(), game="lama", rules_version="1", num_players=2, options={}, seed=7,
...                  seats=[{"token_hash": None, "bot": "random"}] * 2, created=0.0)
>>> StoredTable(meta, events=[{"seq": 1, "type": "join", "seat": 0}]).last_seq
1
>>> str(SeqConflict("t1", got=5, expected=3))
'table t1: event seq 5 refused, the next seq is 3'
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any, Protocol, Self

from laro.core import JSONDict, LaroError

__all__ = [
    "SCHEMA_VERSION",
    "SeqConflict",
    "Store",
    "StoreError",
    "StoredTable",
    "TableExists",
    "TableFinished",
    "TableMeta",
    "TableNotFound",
    "TableSummary",
    "check_event",
    "check_meta",
    "check_result",
    "dump_json",
    "finish_refusal",
    "meta_from_row",
    "new_table_id",
    "refusal",
]

SCHEMA_VERSION = 1  # the layout of the database; bump it and add a migration when the tables change

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_MAX_SEQ = 2**62  # far beyond any game; keeps every seq inside the databases' 64-bit integers


class StoreError(LaroError):
    """The store refused an operation or cannot work with its database (the message says which and why)."""


class TableNotFound(StoreError, KeyError):
    """No table has that id."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class TableExists(StoreError):
    """``create_table`` with an id that is already taken."""


class TableFinished(StoreError):
    """The table is finished: its log is closed to new events and its result is set."""


class SeqConflict(StoreError):
    """An event whose seq is not the table's last seq + 1 (a gap, a duplicate, or a writer that lost a race)."""

    def __init__(self, table_id: str, got: object, expected: int) -> None:
        super().__init__(f"table {table_id}: event seq {got!r} refused, the next seq is {expected}")
        self.table_id = table_id
        self.got = got
        self.expected = expected


@dataclass(frozen=True, slots=True)
class TableMeta:
    """How a table was created. ``seats`` holds one JSON dict per seat, e.g. ``{"token_hash": …, "bot": …}``."""

    id: str
    game: str
    rules_version: str
    num_players: int
    options: JSONDict
    seed: int
    seats: list[JSONDict]
    created: float  # unix time


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as loaded: its creation data, every event in seq order, and how it ended (once finished)."""

    meta: TableMeta
    events: list[JSONDict]
    finished: bool = False
    result: JSONDict | None = None

    @property
    def last_seq(self) -> int:
        """The seq of the last event (0 for a table without events)."""
        return int(self.events[-1]["seq"]) if self.events else 0


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One line of a lobby listing: the table without its events."""

    meta: TableMeta
    finished: bool
    last_seq: int  # how many events the table has
    updated: float  # unix time of the last change (creation, event or finish)
    result: JSONDict | None = None


class Store(Protocol):
    """A place where tables live. Use it as ``async with store: …`` or call ``open`` and ``close``.

    Every method raises ``StoreError`` (or a subclass) for what it refuses and for database failures.
    """

    async def open(self) -> None:
        """Connect and create the schema if it is missing (safe to run on an existing store)."""

    async def close(self) -> None:
        """Release the database; the store can be opened again."""

    async def create_table(self, meta: TableMeta) -> None:
        """Add a new table without events; ``TableExists`` if its id is taken."""

    async def append(self, table_id: str, event: JSONDict) -> None:
        """Add ``event`` to the table's log, committed when this returns.

        ``SeqConflict`` unless ``event["seq"]`` is the table's last seq + 1; ``TableNotFound``;
        ``TableFinished`` once the table is finished.
        """

    async def finish(self, table_id: str, result: JSONDict) -> None:
        """Close the table's log with its result; ``TableFinished`` if it already is."""

    async def load(self, table_id: str) -> StoredTable | None:
        """The table with all its events, or None if there is no such table."""

    async def load_active(self) -> list[StoredTable]:
        """Every table that is not finished, with its events, oldest first (to resume them after a restart)."""

    async def list_tables(self, limit: int = 100, include_finished: bool = False) -> list[TableSummary]:
        """The newest ``limit`` tables, without events, newest first."""

    async def __aenter__(self) -> Self:
        """Open the store."""

    async def __aexit__(self, *exc_info: object) -> None:
        """Close the store."""


def new_table_id() -> str:
    """A fresh random table id, safe in URLs (12 characters, 72 random bits).

    >>> len(new_table_id()), new_table_id() != new_table_id()
    (12, True)
    """
    return secrets.token_urlsafe(9)


def dump_json(value: object, what: str) -> str:
    """``value`` as compact JSON text; ``StoreError`` naming ``what`` if it is not JSON data.

    >>> dump_json({"seq": 1, "type": "join"}, "event")
    '{"seq":1,"type":"join"}'
    """
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"{what} is not JSON data: {exc}") from exc


def check_meta(meta: TableMeta) -> None:
    """Refuse (``StoreError``) table data that a store could not keep or give back as it came."""
    if not isinstance(meta.id, str) or not _TABLE_ID.fullmatch(meta.id):
        raise StoreError(f"table id {meta.id!r} is not 1 to 64 letters, digits, '-' or '_'")
    for name in ("game", "rules_version"):
        if not isinstance(getattr(meta, name), str):
            raise StoreError(f"table {meta.id}: {name} must be a string")
    if not isinstance(meta.num_players, int) or isinstance(meta.num_players, bool) or meta.num_players < 1:
        raise StoreError(f"table {meta.id}: num_players must be a positive integer, not {meta.num_players!r}")
    if not isinstance(meta.seed, int) or isinstance(meta.seed, bool):
        raise StoreError(f"table {meta.id}: seed must be an integer, not {meta.seed!r}")
    if not isinstance(meta.options, dict):
        raise StoreError(f"table {meta.id}: options must be a dict")
    if not isinstance(meta.seats, list) or not all(isinstance(seat, dict) for seat in meta.seats):
        raise StoreError(f"table {meta.id}: seats must be a list of dicts")
    if len(meta.seats) != meta.num_players:
        raise StoreError(f"table {meta.id}: {len(meta.seats)} seats for {meta.num_players} players")
    if not isinstance(meta.created, int | float) or isinstance(meta.created, bool):
        raise StoreError(f"table {meta.id}: created must be a unix time")


def check_event(table_id: str, event: object) -> tuple[int, str]:
    """The seq and JSON text of ``event``; ``StoreError`` if it is not a JSON dict with an integer ``"seq"``.

    A seq that cannot be the next one of any table (below 1, absurdly large) is returned as -1 so that the store
    answers it with the same ``SeqConflict`` as any other wrong seq.
    """
    if not isinstance(event, dict):
        raise StoreError(f"table {table_id}: an event must be a dict, not {type(event).__name__}")
    seq = event.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise StoreError(f"table {table_id}: an event needs an integer 'seq', not {seq!r}")
    return (seq if 1 <= seq < _MAX_SEQ else -1), dump_json(event, f"table {table_id}: event {seq}")


def check_result(table_id: str, result: object) -> str:
    """The JSON text of a finished table's ``result``; ``StoreError`` unless it is a JSON dict."""
    if not isinstance(result, dict):
        raise StoreError(f"table {table_id}: a result must be a dict, not {type(result).__name__}")
    return dump_json(result, f"table {table_id}: result")


def meta_from_row(row: tuple[Any, ...]) -> TableMeta:
    """A ``TableMeta`` from the columns id, game, rules_version, num_players, options, seed, seats, created,
    where options and seats are JSON text or already decoded."""
    table_id, game, rules_version, num_players, options, seed, seats, created = row
    return TableMeta(
        id=table_id,
        game=game,
        rules_version=rules_version,
        num_players=int(num_players),
        options=json.loads(options) if isinstance(options, str) else options,
        seed=int(seed),
        seats=json.loads(seats) if isinstance(seats, str) else seats,
        created=float(created),
    )


def refusal(table_id: str, got: object, row: tuple[Any, ...] | None) -> StoreError:
    """Why an append was refused, from the table's ``(last_seq, finished)`` row (None: no such table)."""
    if row is None:
        return TableNotFound(f"no table {table_id!r}")
    last_seq, finished = row
    if finished:
        return TableFinished(f"table {table_id} is finished: its log takes no more events")
    return SeqConflict(table_id, got, int(last_seq) + 1)


def finish_refusal(table_id: str, row: tuple[Any, ...] | None) -> StoreError:
    """Why ``finish`` changed nothing: no such table, or it is finished already."""
    if row is None:
        return TableNotFound(f"no table {table_id!r}")
    return TableFinished(f"table {table_id} is finished already")
