"""The store keeps tables as gap-free event logs, the same way in SQLite and PostgreSQL.

Every test taking ``backend`` runs once per store (see conftest.py); the PostgreSQL runs need a server, which the
fixture starts. Each test drives the async store with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import doctest
import importlib
import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from laro.server.store import (
    PostgresStore,
    SeqConflict,
    SQLiteStore,
    Store,
    StoredTable,
    StoreError,
    TableExists,
    TableFinished,
    TableMeta,
    TableNotFound,
    new_table_id,
    open_store,
)

if TYPE_CHECKING:
    from conftest import Backend  # the fixture's type (tests/server/conftest.py)


def make_meta(table_id: str | None = None) -> TableMeta:
    """Table data that exercises the columns: nested options, a seed beyond 64 bits, text beyond ASCII."""
    return TableMeta(
        id=table_id or new_table_id(),
        game="lama",
        rules_version="1.0",
        num_players=3,
        options={"end_score": 40, "names": ["Ana", "Bé"], "nested": {"x": [1, 2.5, None, True]}},
        seed=2**64 + 5,
        seats=[{"token_hash": None, "bot": "heuristic"}] + [{"token_hash": f"h{i}", "bot": None} for i in range(1, 3)],
        created=1_700_000_000.25,
    )


def event(seq: int, **fields: Any) -> dict[str, Any]:
    return {"seq": seq, "type": "act", "seat": seq % 3, "action": f"play {seq % 7}", **fields}


def run(backend: Backend, body: Callable[[Store], Awaitable[None]]) -> None:
    """Open a store on the backend's database, run ``body`` with it, and close it."""

    async def main() -> None:
        async with backend.make() as store:
            await body(store)

    asyncio.run(main())


# --- the log ----------------------------------------------------------------------------------------------------


def test_create_and_load_round_trip(backend: Backend) -> None:
    meta = make_meta()

    async def body(store: Store) -> None:
        await store.create_table(meta)
        assert await store.load(meta.id) == StoredTable(meta, events=[], finished=False, result=None)
        assert await store.load("no-such-table") is None

    run(backend, body)


def test_events_are_kept_in_order(backend: Backend) -> None:
    meta = make_meta()
    events = [
        {"seq": 1, "type": "join", "seat": 0, "name": "Ligaya ☀"},
        {"seq": 2, "type": "bot", "seat": 1, "bot": "heuristic"},
        *[event(seq) for seq in range(3, 40)],
        {"seq": 40, "type": "leave", "seat": 0, "data": {"deep": [{"a": 1}, [], {}], "big": 2**70, "x": -0.5}},
    ]

    async def body(store: Store) -> None:
        await store.create_table(meta)
        for item in events:
            await store.append(meta.id, item)
        table = await store.load(meta.id)
        assert table is not None
        assert table.events == events
        assert table.last_seq == 40
        assert not table.finished

    run(backend, body)


@pytest.mark.parametrize(
    "seq", [2, 1, 4, 9, 0, -1, 10**30], ids=["duplicate", "stale", "gap", "far", "zero", "neg", "huge"]
)
def test_a_wrong_seq_is_refused_and_changes_nothing(backend: Backend, seq: int) -> None:
    meta = make_meta()

    async def body(store: Store) -> None:
        await store.create_table(meta)
        await store.append(meta.id, event(1))
        await store.append(meta.id, event(2))
        before = await store.load(meta.id)
        with pytest.raises(SeqConflict) as refused:
            await store.append(meta.id, event(seq, note="intruder"))
        assert (refused.value.expected, refused.value.got, refused.value.table_id) == (3, seq, meta.id)
        assert "the next seq is 3" in str(refused.value)
        assert await store.load(meta.id) == before
        await store.append(meta.id, event(3))  # the right seq still goes in
        table = await store.load(meta.id)
        assert table is not None and table.events == [event(1), event(2), event(3)]

    run(backend, body)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "act"},
        {"seq": "1"},
        {"seq": True},
        {"seq": 1.0},
        {"seq": 1, "x": {1, 2}},
        {"seq": 1, "x": float("nan")},
    ],
    ids=["no-seq", "text-seq", "bool-seq", "float-seq", "set", "nan"],
)
def test_malformed_events_are_refused(backend: Backend, bad: dict[str, Any]) -> None:
    meta = make_meta()

    async def body(store: Store) -> None:
        await store.create_table(meta)
        with pytest.raises(StoreError) as refused:
            await store.append(meta.id, bad)
        assert not isinstance(refused.value, SeqConflict)
        with pytest.raises(StoreError, match="must be a dict"):
            await store.append(meta.id, [1, 2])  # type: ignore[arg-type]
        assert (await store.load(meta.id)) == StoredTable(meta, events=[])
        await store.append(meta.id, event(1))

    run(backend, body)


def test_concurrent_appends_of_one_seq_have_one_winner(backend: Backend) -> None:
    """Tasks on one store and on a second store (another connection or file handle) race for each seq."""
    meta, rounds, writers = make_meta(), 12, 8

    async def main() -> None:
        async with backend.make() as first, backend.make() as second:
            await first.create_table(meta)

            async def attempt(store: Store, seq: int, writer: int) -> int | None:
                try:
                    await store.append(meta.id, event(seq, writer=writer))
                except SeqConflict as exc:
                    assert exc.expected in (seq, seq + 1)
                    return None
                return writer

            for seq in range(1, rounds + 1):
                tries = [attempt(first if w % 2 else second, seq, w) for w in range(writers)]
                winners = [w for w in await asyncio.gather(*tries) if w is not None]
                assert len(winners) == 1, f"seq {seq}: winners {winners}"
                table = await second.load(meta.id)
                assert table is not None and table.events[-1] == event(seq, writer=winners[0])
            table = await first.load(meta.id)
            assert table is not None and [e["seq"] for e in table.events] == list(range(1, rounds + 1))

    asyncio.run(main())


def test_finish_and_listings(backend: Backend) -> None:
    a, b, c = (make_meta(f"table-{name}") for name in "abc")
    result = {"over": True, "winners": [1], "scores": [12, 3, 40]}

    async def body(store: Store) -> None:
        for seq_count, meta in zip((2, 3, 1), (a, b, c), strict=True):
            await store.create_table(meta)
            for seq in range(1, seq_count + 1):
                await store.append(meta.id, event(seq))
        await store.finish(b.id, result)

        active = await store.load_active()
        assert [t.meta for t in active] == [a, c]  # creation order
        assert [t.events for t in active] == [[event(1), event(2)], [event(1)]]
        assert not any(t.finished for t in active)

        listed = await store.list_tables()
        assert [(s.meta, s.finished, s.last_seq) for s in listed] == [(c, False, 1), (a, False, 2)]  # newest first
        everything = await store.list_tables(include_finished=True)
        assert [(s.meta.id, s.finished, s.last_seq, s.result) for s in everything] == [
            (c.id, False, 1, None),
            (b.id, True, 3, result),
            (a.id, False, 2, None),
        ]
        assert all(s.updated >= s.meta.created for s in everything)
        assert [s.meta.id for s in await store.list_tables(limit=1, include_finished=True)] == [c.id]
        assert await store.list_tables(limit=0) == []
        with pytest.raises(StoreError):
            await store.list_tables(limit=-1)

        assert await store.load(b.id) == StoredTable(b, [event(1), event(2), event(3)], finished=True, result=result)
        with pytest.raises(TableFinished):
            await store.append(b.id, event(4))
        with pytest.raises(TableFinished):
            await store.finish(b.id, {"over": True})
        with pytest.raises(StoreError, match="must be a dict"):
            await store.finish(a.id, [1])  # type: ignore[arg-type]
        table = await store.load(b.id)
        assert table is not None and table.last_seq == 3 and table.result == result

    run(backend, body)


def test_finished_tables_a_page_at_a_time(backend: Backend) -> None:
    """``list_finished`` pages through the finished tables, the last to end first, each once, none unfinished."""
    metas = [make_meta(f"done-{number}") for number in range(5)]

    async def body(store: Store) -> None:
        for meta in metas:
            await store.create_table(meta)
        for number in (3, 0, 4, 1):  # table 2 never ends
            await store.finish(metas[number].id, {"winners": [number % 3], "scores": [number, 1, 2]})
        seen: list[str] = []
        before = None
        while True:
            page = await store.list_finished(2, before)
            assert len(page) <= 2 and all(row.finished for row in page)
            if not page:
                break
            seen += [row.meta.id for row in page]
            before = (page[-1].updated, page[-1].meta.id)
        assert seen == [metas[number].id for number in (1, 4, 0, 3)]  # the last to end first
        first = (await store.list_finished(1))[0]
        assert first.meta == metas[1] and first.result == {"winners": [1], "scores": [1, 1, 2]}
        assert await store.list_finished(0) == []
        for limit, cursor in ((-1, None), (2, ("x", "y")), (2, (1.5,))):
            with pytest.raises(StoreError):
                await store.list_finished(limit, cursor)  # type: ignore[arg-type]

    run(backend, body)


def test_reopening_keeps_everything(backend: Backend) -> None:
    done, going = make_meta(), make_meta()

    async def main() -> None:
        store = backend.make()
        await store.open()
        await store.open()  # opening twice is harmless
        await store.create_table(done)
        await store.create_table(going)
        for seq in range(1, 6):
            await store.append(done.id, event(seq))
            await store.append(going.id, event(seq))
        await store.finish(done.id, {"winners": [0]})
        snapshot = (await store.load(done.id), await store.load(going.id), await store.list_tables(10, True))
        await store.close()
        await store.close()  # and so is closing twice
        with pytest.raises(StoreError, match="not open"):
            await store.append(going.id, event(6))

        async with backend.make() as again:  # a new store object on the same database
            assert (
                await again.load(done.id),
                await again.load(going.id),
                await again.list_tables(10, True),
            ) == snapshot
            await again.append(going.id, event(6))
            with pytest.raises(SeqConflict):
                await again.append(going.id, event(6))
        await store.open()  # the first object can be opened again too, and sees the new event
        try:
            table = await store.load(going.id)
            assert table is not None and table.last_seq == 6
        finally:
            await store.close()

    asyncio.run(main())


def test_unknown_tables_and_taken_ids(backend: Backend) -> None:
    meta = make_meta()

    async def body(store: Store) -> None:
        with pytest.raises(TableNotFound, match="no table 'nowhere'"):
            await store.append("nowhere", event(1))
        with pytest.raises(TableNotFound):
            await store.finish("nowhere", {})
        assert await store.load("nowhere") is None
        await store.create_table(meta)
        await store.append(meta.id, event(1))
        with pytest.raises(TableExists):
            await store.create_table(meta)
        with pytest.raises(TableExists):
            await store.create_table(TableMeta(meta.id, "kamara", "2", 1, {}, 1, [{}], 5.0))
        table = await store.load(meta.id)
        assert table is not None and table.meta == meta and table.events == [event(1)]
        assert issubclass(TableNotFound, StoreError) and issubclass(TableExists, StoreError)

    run(backend, body)


@pytest.mark.parametrize(
    "change",
    [
        {"id": "has space"},
        {"id": ""},
        {"num_players": 0},
        {"seats": [{}]},
        {"seats": [{}, {}, "x"]},
        {"seed": "7"},
        {"options": {"x": object()}},
    ],
    ids=["id-space", "id-empty", "no-players", "seat-count", "seat-type", "seed-text", "options-not-json"],
)
def test_bad_table_data_is_refused(backend: Backend, change: dict[str, Any]) -> None:
    meta = dataclasses.replace(make_meta(), **change)

    async def body(store: Store) -> None:
        with pytest.raises(StoreError):
            await store.create_table(meta)
        assert await store.list_tables(include_finished=True) == []

    run(backend, body)


def test_stores_opening_at_once_share_one_schema(backend: Backend) -> None:
    """Several servers starting together on an empty database: one creates the schema, all of them work."""

    async def main() -> None:
        stores = [backend.make() for _ in range(4)]
        await asyncio.gather(*(store.open() for store in stores), stores[0].open(), stores[1].open())
        try:
            meta = make_meta()
            await stores[0].create_table(meta)
            await stores[3].append(meta.id, event(1))
            assert [t.meta.id for t in await stores[1].load_active()] == [meta.id]
        finally:
            await asyncio.gather(*(store.close() for store in stores))

    asyncio.run(main())


def test_a_store_from_a_newer_version_is_refused(backend: Backend) -> None:
    async def body(store: Store) -> None:
        await store.create_table(make_meta())

    run(backend, body)
    backend.execute("UPDATE laro_schema SET version = 99")
    with pytest.raises(StoreError, match=r"newer laro \(store schema 99"):
        run(backend, body)


# --- other processes ----------------------------------------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from laro.server.store import PostgresStore, SeqConflict, SQLiteStore

    kind, target, table_id, writer, count, mode = sys.argv[1:7]

    async def main():
        store = SQLiteStore(target) if kind == "sqlite" else PostgresStore(target)
        async with store:
            print("ready", flush=True)
            sys.stdin.readline()
            seq = 1
            while seq <= int(count):
                try:
                    await store.append(table_id, {"seq": seq, "type": "act", "writer": writer})
                except SeqConflict as exc:
                    print("lost", seq, flush=True)
                    seq = exc.expected if mode == "catch-up" else seq + 1
                else:
                    print("won", seq, flush=True)
                    seq += 1

    asyncio.run(main())
    """
)


def start_writer(backend: Backend, table_id: str, writer: str, count: int, mode: str = "") -> subprocess.Popen[str]:
    """A process that opens a store, says "ready", waits for a line, then appends seq 1, 2, … up to ``count``,
    printing "won SEQ" once an append returned and "lost SEQ" for a ``SeqConflict``; after a loss it moves on to
    the next seq, or with ``mode="catch-up"`` to the seq the store expects."""
    command = [sys.executable, "-c", WRITER, backend.kind, backend.target, table_id, writer, str(count), mode or "-"]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "ready":
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f"the writer process did not start: {line!r}\n{err}")
    return proc


def create(backend: Backend, meta: TableMeta) -> None:
    async def body(store: Store) -> None:
        await store.create_table(meta)

    run(backend, body)


def load(backend: Backend, table_id: str) -> StoredTable:
    found: list[StoredTable | None] = []

    async def body(store: Store) -> None:
        found.append(await store.load(table_id))

    run(backend, body)
    assert found[0] is not None
    return found[0]


@pytest.mark.timeout(60)
def test_processes_racing_for_each_seq_have_one_winner(backend: Backend) -> None:
    meta, count = make_meta(), 150
    create(backend, meta)
    writers = {name: start_writer(backend, meta.id, name, count, "catch-up") for name in ("left", "right")}
    for proc in writers.values():  # both are connected and waiting: let them go together
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    won: dict[int, list[str]] = {seq: [] for seq in range(1, count + 1)}
    for name, proc in writers.items():
        out, err = proc.communicate(timeout=50)
        assert proc.returncode == 0, err
        for line in out.splitlines():
            outcome, seq = line.split()
            if outcome == "won":
                won[int(seq)].append(name)
    assert all(len(names) == 1 for names in won.values()), {seq: names for seq, names in won.items() if len(names) != 1}
    table = load(backend, meta.id)
    assert [e["seq"] for e in table.events] == list(range(1, count + 1))
    assert [e["writer"] for e in table.events] == [won[seq][0] for seq in range(1, count + 1)]


@pytest.mark.timeout(60)
def test_an_accepted_event_survives_kill_9(backend: Backend) -> None:
    """A writer prints each seq once ``append`` returned; killed mid-stream, every printed seq is in the store."""
    meta = make_meta()
    create(backend, meta)
    proc = start_writer(backend, meta.id, "only", 10**6)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()
    printed: list[int] = []
    deadline = time.monotonic() + 30
    while len(printed) < 120 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        outcome, seq = line.split()
        assert outcome == "won"
        printed.append(int(seq))
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == -signal.SIGKILL, err
    assert len(printed) >= 20, f"the writer printed only {printed}: {err}"
    seqs = [e["seq"] for e in load(backend, meta.id).events]
    assert seqs == list(range(1, len(seqs) + 1))  # no gap, whatever the kill interrupted
    assert set(printed) <= set(seqs)


# --- SQLite's file, PostgreSQL's server, and the factory ---------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"this is not a database\n" * 100, b"SQLite format 3\x00" + b"\xff" * 4000, bytes(range(256)) * 64],
    ids=["text", "bad-header", "binary"],
)
def test_a_garbage_sqlite_file_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="not a usable laro store"):
        asyncio.run(SQLiteStore(path).open())
    assert path.read_bytes() == content  # refused without writing


def test_another_programs_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE users (name TEXT)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match=r"database of something else \(tables: users\)"):
        asyncio.run(SQLiteStore(path).open())


def test_sqlite_store_files_and_settings(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open"):
        asyncio.run(SQLiteStore(tmp_path / "no" / "such" / "folder.db").open())
    with pytest.raises(StoreError, match="synchronous"):
        SQLiteStore(tmp_path / "x.db", synchronous="OFF")

    async def main() -> None:
        async with SQLiteStore(":memory:") as memory:
            meta = make_meta()
            await memory.create_table(meta)
            await memory.append(meta.id, event(1))
            assert [t.last_seq for t in await memory.load_active()] == [1]
        async with SQLiteStore(tmp_path / "wal.db") as store:
            await store.create_table(make_meta())

    asyncio.run(main())
    con = sqlite3.connect(tmp_path / "wal.db")
    assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    con.close()


def test_an_unreachable_postgres_is_a_store_error(tmp_path: Path) -> None:
    store = PostgresStore(f"host={tmp_path} port=1 user=nobody dbname=nothing connect_timeout=2", timeout=2)
    started = time.monotonic()
    with pytest.raises(StoreError, match="cannot connect to the PostgreSQL store"):
        asyncio.run(store.open())
    assert time.monotonic() - started < 10


@pytest.mark.parametrize(
    ("url", "kind", "where"),
    [
        ("sqlite:///var/lib/laro/tables.db", SQLiteStore, "/var/lib/laro/tables.db"),
        ("sqlite:////var/lib/laro/tables.db", SQLiteStore, "//var/lib/laro/tables.db"),
        ("sqlite:tables.db", SQLiteStore, "tables.db"),
        ("SQLite://data/t.db", SQLiteStore, "data/t.db"),
        ("sqlite::memory:", SQLiteStore, ":memory:"),
        ("tables.db", SQLiteStore, "tables.db"),
        ("/srv/laro.db", SQLiteStore, "/srv/laro.db"),
        (
            "postgresql://laro:secret@db.example:5433/laro",
            PostgresStore,
            "postgresql://laro:secret@db.example:5433/laro",
        ),
        ("postgres:///laro?host=/run/postgresql", PostgresStore, "postgres:///laro?host=/run/postgresql"),
    ],
)
def test_open_store_reads_the_url(url: str, kind: type, where: str) -> None:
    store = open_store(url)
    assert type(store) is kind
    assert (store.path if isinstance(store, SQLiteStore) else store.conninfo) == where  # type: ignore[attr-defined]
    assert "secret" not in repr(store)


@pytest.mark.parametrize("url", ["", "   ", "mysql://db/laro", "http://example.com/x.db", "sqlite://", "sqlite:"])
def test_open_store_refuses_what_it_cannot_open(url: str) -> None:
    with pytest.raises(StoreError, match=r"sqlite:///path/to/file\.db"):
        open_store(url)


@pytest.mark.parametrize("module", ["base", "sqlite", "postgres", "__init__"])
def test_the_docstring_examples_run(module: str) -> None:
    name = "laro.server.store" + ("" if module == "__init__" else f".{module}")
    found = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, verbose=False)
    assert found.failed == 0


def test_the_json_columns_keep_what_json_keeps(backend: Backend) -> None:
    """Events come back as JSON gives them: lists for tuples, text keys; the store adds nothing."""
    meta = make_meta()

    async def body(store: Store) -> None:
        await store.create_table(meta)
        await store.append(meta.id, {"seq": 1, "pair": (1, 2), "by_seat": {0: "a"}, "text": "ñ\n\"'"})
        table = await store.load(meta.id)
        assert table is not None
        assert table.events == [
            json.loads(json.dumps({"seq": 1, "pair": (1, 2), "by_seat": {0: "a"}, "text": "ñ\n\"'"}))
        ]

    run(backend, body)
