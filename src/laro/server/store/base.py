"""What every store keeps and promises: tables as append-only event logs.

A table is its creation data (``TableMeta``) plus a log of JSON events numbered 1, 2, 3, … with no gaps. The
store checks only the numbering: ``append`` accepts an event whose ``"seq"`` is exactly the table's last seq + 1,
inside the database transaction that writes it, so two writers racing for the same seq (tasks, connections or
processes) get exactly one winner and one ``SeqConflict``. An accepted event is committed when ``append`` returns.

Reading never lets one table's damage reach another: every table is decoded on its own, and a table whose row or
any event cannot be read back (text that is not JSON, a seed that is not a number, a gap in its log, …) comes back
as a ``DamagedTable`` holding its id and a one-line reason, in its place among the others. What is wrong with the
database itself (a missing table, a garbled page, a file that is not a store) raises ``StoreError`` with one line
that names the database. ``list_tables`` leaves damaged rows out of its listing (and logs them as warnings);
``iter_tables`` and ``laro store check`` report them.

>>> meta = TableMeta(id=new_table_id(), game="lama", rules_version="1", num_players=2, options={}, seed=7,
...                  seats=[{"token_hash": None, "bot": "random"}] * 2, created=0.0)
>>> StoredTable(meta, events=[{"seq": 1, "type": "join", "seat": 0}]).last_seq
1
>>> str(SeqConflict("t1", got=5, expected=3))
'table t1: event seq 5 refused, the next seq is 3'
>>> decode_table(("t1", "lama", "1", 2, "{}", "7x", "[{}, {}]", 0.0, 0, None, 0), [])
DamagedTable(table_id='t1', reason="seed '7x' is not a number")
>>> decode_table(("t1", "lama", "1", 2, "{}", "7", "[{}, {}]", 0.0, 0, None, 2), [(1, '{"seq": 1}'), (2, "{")])
DamagedTable(table_id='t1', reason='event 2 is not JSON')
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar

from laro.core import JSONDict, LaroError

if TYPE_CHECKING:
    from .matches import Matches
    from .people import Accounts
    from .ratings import Ratings

__all__ = [
    "ANALYSES",
    "ANALYSIS_CLAIMS",
    "PUSH",
    "PUSH_PER_SEAT",
    "SCHEMA_VERSION",
    "DamagedTable",
    "SeqConflict",
    "SharedRows",
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
    "check_page",
    "check_result",
    "decode_analysis",
    "decode_push",
    "decode_table",
    "dump_json",
    "finish_refusal",
    "in_batches",
    "intact",
    "new_table_id",
    "refusal",
    "summary_from_row",
]

log = logging.getLogger("laro.server.store")
T = TypeVar("T")

SCHEMA_VERSION = 1  # the layout of the database; bump it and add a migration when the tables change
# Tables added beside the schema, made where they are missing whatever the version: a laro that does not know one
# leaves it alone, so an old database still loads and an older laro still opens a newer one
ANALYSES = "laro_analyses"  # move analyses of finished tables, by table and key (seat and settings)
ANALYSIS_CLAIMS = "laro_analysis_claims"  # which process makes an analysis now, until when (see claim_analysis)
PUSH = "laro_push"  # the push subscriptions of the seats, and what each was told last (see claim_push)
PUSH_PER_SEAT = 8  # subscriptions (browsers, devices) one seat keeps: a newer one pushes the oldest out

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
class DamagedTable:
    """A table whose stored row or events cannot be read back; ``reason`` says what is wrong, in one line."""

    table_id: str
    reason: str

    def __str__(self) -> str:
        return f"table {self.table_id} is damaged: {self.reason}"


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One line of a lobby listing: the table without its events."""

    meta: TableMeta
    finished: bool
    last_seq: int  # how many events the table has
    updated: float  # unix time of the last change (creation, event or finish)
    result: JSONDict | None = None


class SharedRows(Protocol):
    """The rows through which the server processes of one store act as one server (see :mod:`laro.server.cluster`
    for the use, :class:`laro.server.store.postgres_cluster.PostgresCluster` for PostgreSQL's): news of every
    stored event and of presence, each table's lease (who drives it), each process's heartbeat, and how many
    connections each process holds for each seat. ``me`` is the name of the process that asks; :meth:`listen`
    yields each notice as ``("events", "<table id> <seq>")`` or ``("presence", "<table id>")``."""

    async def prepare(self) -> None: ...
    def listen(self, me: str, connected: Callable[[], Any]) -> AsyncIterator[tuple[str, str]]: ...
    async def events_after(self, table_id: str, seq: int) -> list[JSONDict]: ...
    async def progress(self) -> dict[str, int]: ...
    async def leases(self) -> list[tuple[str, str, float]]: ...
    async def claim(self, me: str, table_ids: list[str], now: float, until: float) -> list[str]: ...
    async def renew(self, me: str, until: float) -> list[str]: ...
    async def release(self, me: str, table_ids: list[str] | None = None) -> None: ...
    async def processes(self, now: float) -> list[str]: ...
    async def set_presence(self, me: str, table_id: str, seat: int, connections: int, until: float) -> None: ...
    async def presence(self, me: str, now: float, table_id: str | None = None) -> dict[str, dict[int, int]]: ...


class Store(Protocol):
    """A place where tables live. Use it as ``async with store: …`` or call ``open`` and ``close``.

    Every method raises ``StoreError`` (or a subclass) for what it refuses and for database failures.
    """

    def shared_rows(self) -> SharedRows | None:
        """What several server processes serving this store at once share besides the tables (who drives which,
        who is connected where, news of each change), or None if one process alone may serve it."""

    @property
    def accounts(self) -> Accounts:
        """People's accounts, their sessions and the seats they hold (see :mod:`.people`)."""

    @property
    def ratings(self) -> Ratings:
        """Players' ratings per game, and every change with its game (see :mod:`.ratings`)."""

    @property
    def matches(self) -> Matches:
        """The quick-match queue: who waits for a table, and the seat each was given (see :mod:`.matches`)."""

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

    async def load(self, table_id: str) -> StoredTable | DamagedTable | None:
        """The table with all its events, a ``DamagedTable`` if it cannot be read back, or None if there is none."""

    async def load_active(self) -> list[StoredTable | DamagedTable]:
        """Every table that is not finished, with its events, oldest first (to resume them after a restart);
        each one that cannot be read back is a ``DamagedTable`` in its place."""

    def iter_tables(self, batch: int = 200) -> AsyncIterator[StoredTable | DamagedTable]:
        """Every table, finished ones too, oldest first, read ``batch`` tables at a time (one snapshot per batch)."""

    async def list_tables(self, limit: int = 100, include_finished: bool = False) -> list[TableSummary]:
        """The newest ``limit`` tables, without events, newest first; a damaged row is left out (and logged)."""

    async def list_finished(self, limit: int = 20, before: tuple[float, str] | None = None) -> list[TableSummary]:
        """The last ``limit`` finished tables, newest end first, that ended before ``before`` (the ``(updated,
        id)`` of the last table of the page before); a damaged row is left out (and logged)."""

    async def save_analysis(self, table_id: str, key: str, analysis: JSONDict) -> None:
        """Keep the move analysis ``key`` (its seat and settings) of a table, replacing one kept before;
        ``TableNotFound`` if there is no such table."""

    async def load_analysis(self, table_id: str, key: str) -> JSONDict | None:
        """The analysis kept under ``key`` for the table, or None (also when what is kept cannot be read back)."""

    async def claim_analysis(self, table_id: str, key: str, holder: str, now: float, until: float) -> bool:
        """Take (or renew) the making of the analysis ``key`` for ``holder`` until ``until``: True if it has it now
        — nobody had it, or the claim ran out by ``now``, or it was ``holder``'s already — and the analysis is
        not kept yet. One conditional statement: of processes claiming at once, exactly one wins."""

    async def release_analysis(self, table_id: str, key: str, holder: str) -> None:
        """Give up ``holder``'s claim of the analysis ``key`` (made, or failed): another process may claim it."""

    async def analysis_claimed(self, table_id: str, key: str, now: float) -> bool:
        """True while some process holds a claim of the analysis ``key`` that has not run out by ``now``."""

    async def save_push(self, table_id: str, seat: int, endpoint: str, keys: JSONDict, now: float) -> None:
        """Keep the push subscription ``endpoint`` (with its ``keys``) of a seat, replacing its keys if it is kept
        already (what it was told stays); a seat keeps its newest ``PUSH_PER_SEAT``. ``TableNotFound``."""

    async def delete_push(self, table_id: str, seat: int, endpoint: str) -> bool:
        """Forget a seat's subscription ``endpoint``; True if it was kept."""

    async def drop_push(self, endpoint: str) -> int:
        """Forget the subscription ``endpoint`` at every seat (its push service said it is gone); how many."""

    async def claim_push(self, table_id: str, seat: int, told: int) -> list[tuple[str, JSONDict]]:
        """The subscriptions of a seat not yet told ``told`` or anything after it (each notification has a number
        that grows as the game goes on), marked as told ``told`` by the same statement: of processes claiming
        one notification at once, exactly one gets each subscription. ``(endpoint, keys)`` of each."""

    async def __aenter__(self) -> Self:
        """Open the store."""

    async def __aexit__(self, *exc_info: object) -> None:
        """Close the store."""


def decode_analysis(table_id: str, key: str, text: object) -> JSONDict | None:
    """A kept analysis read back, or None (logged) if it is not a JSON object.

    >>> decode_analysis("t1", "seat=0", '{"seat": 0}'), decode_analysis("t1", "seat=0", "{")
    ({'seat': 0}, None)
    """
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict):
        log.warning("table %s: the kept analysis %s cannot be read back; it is made again", table_id, key)
        return None
    return value


def decode_push(rows: Iterable[tuple[Any, Any]]) -> list[tuple[str, JSONDict]]:
    """Claimed subscriptions read back: ``(endpoint, keys)``; a row whose keys are not a JSON object is left out.

    >>> decode_push([("https://push.example/1", '{"auth": "a", "p256dh": "k"}'), ("https://push.example/2", "{")])
    [('https://push.example/1', {'auth': 'a', 'p256dh': 'k'})]
    """
    found = []
    for endpoint, keys in rows:
        try:
            value = json.loads(keys) if isinstance(keys, str) else keys
        except json.JSONDecodeError:
            value = None
        if isinstance(value, dict) and isinstance(endpoint, str):
            found.append((endpoint, value))
        else:
            log.warning("a push subscription's keys cannot be read back; it is left out")
    return found


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


class _Damage(Exception):
    """Why a stored table cannot be read back (a one-line reason)."""


def decode_table(row: tuple[Any, ...], events: Iterable[tuple[Any, Any]]) -> StoredTable | DamagedTable:
    """A table from its row (id, game, rules_version, num_players, options, seed, seats, created, finished, result,
    last_seq) and its ``(seq, event)`` rows in seq order, JSON as text or already decoded; a ``DamagedTable``
    naming the first thing that cannot be read back."""
    try:
        meta, finished, result = _meta(row[:8]), bool(row[8]), _json_dict(row[9], "the result", missing_ok=True)
        read: list[JSONDict] = []
        for seq, value in events:
            expected = len(read) + 1
            if seq != expected:
                raise _Damage(f"event {expected} is missing (the log goes on at event {seq})")
            event = _json_dict(value, f"event {seq}")
            if event.get("seq") != seq:
                raise _Damage(f"event {seq} holds seq {event.get('seq')!r}")
            read.append(event)
        last_seq = _whole(row[10], "the last seq")
        if last_seq != len(read):
            raise _Damage(f"the log ends at event {len(read)} but the table's last seq is {last_seq}")
    except _Damage as damage:
        return DamagedTable(str(row[0]), str(damage))
    return StoredTable(meta, events=read, finished=finished, result=result)


def summary_from_row(row: tuple[Any, ...]) -> TableSummary | DamagedTable:
    """A lobby line from the columns id, game, rules_version, num_players, options, seed, seats, created, finished,
    result, last_seq, updated; a ``DamagedTable`` if the row cannot be read back."""
    try:
        return TableSummary(
            _meta(row[:8]),
            finished=bool(row[8]),
            last_seq=_whole(row[10], "the last seq"),
            updated=_number(row[11], "the update time"),
            result=_json_dict(row[9], "the result", missing_ok=True),
        )
    except _Damage as damage:
        return DamagedTable(str(row[0]), str(damage))


async def in_batches(
    read: Callable[[int, int], Awaitable[tuple[int, list[StoredTable | DamagedTable]]]], batch: int
) -> AsyncIterator[StoredTable | DamagedTable]:
    """Every table, from ``read(after, limit)``: the next ``limit`` tables after position ``after`` and the position
    of the last of them (what ``iter_tables`` does in each store)."""
    if not isinstance(batch, int) or isinstance(batch, bool) or batch < 1:
        raise StoreError(f"batch must be a positive integer, not {batch!r}")
    after, more = 0, True
    while more:
        after, found = await read(after, batch)
        more = len(found) == batch
        for table in found:
            yield table


def check_page(limit: object, before: object) -> None:
    """Refuse a page of :meth:`Store.list_finished` asked for with a bad ``limit`` or cursor ``before``."""
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise StoreError(f"limit must be a non-negative integer, not {limit!r}")
    if before is not None and not (
        isinstance(before, tuple) and len(before) == 2 and isinstance(before[0], float) and isinstance(before[1], str)
    ):
        raise StoreError(f"before is the (updated, id) of a table, not {before!r}")


def intact(found: Iterable[T | DamagedTable], doing: str) -> list[T]:
    """The tables that could be read back; each damaged one is logged as a warning, naming ``doing``."""
    tables: list[T] = []
    for table in found:
        if isinstance(table, DamagedTable):
            log.warning("%s: %s, left out", doing, table)
        else:
            tables.append(table)
    return tables


def _meta(row: tuple[Any, ...]) -> TableMeta:
    table_id, game, rules_version, num_players, options, seed, seats, created = row
    if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id):
        raise _Damage(f"the table id {table_id!r} is not one laro makes")
    for name, value in (("the game", game), ("the rules version", rules_version)):
        if not isinstance(value, str):
            raise _Damage(f"{name} {value!r} is not text")
    players = _whole(num_players, "the number of players")
    seat_list = _json(seats, "the seats")
    if not isinstance(seat_list, list) or not all(isinstance(seat, dict) for seat in seat_list):
        raise _Damage("the seats are not a JSON list of objects")
    if len(seat_list) != players or players < 1:
        raise _Damage(f"{len(seat_list)} seats for {players} players")
    return TableMeta(
        id=table_id,
        game=game,
        rules_version=rules_version,
        num_players=players,
        options=_json_dict(options, "the options", plural=True),
        seed=_whole(seed, "seed"),
        seats=seat_list,
        created=_number(created, "the creation time"),
    )


def _json(value: object, what: str, plural: bool = False) -> object:
    """JSON text decoded (or a value a driver decoded already); ``_Damage`` if the text is not JSON."""
    if not isinstance(value, str | bytes):
        return value
    try:
        return json.loads(value)
    except (ValueError, TypeError, RecursionError):
        raise _Damage(f"{what} {'are' if plural else 'is'} not JSON") from None


def _json_dict(value: object, what: str, plural: bool = False, missing_ok: bool = False) -> Any:
    if value is None and missing_ok:
        return None
    decoded = _json(value, what, plural)
    if not isinstance(decoded, dict):
        raise _Damage(f"{what} {'are' if plural else 'is'} not a JSON object")
    return decoded


def _whole(value: object, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value.strip()):
        return int(value)
    if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        return int(value)
    raise _Damage(f"{what} '{value}' is not a number")


def _number(value: object, what: str) -> float:
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return float(value)
    raise _Damage(f"{what} '{value}' is not a number")


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
