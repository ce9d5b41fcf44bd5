"""One damaged table never hides the others: each is read on its own, and a damaged one is named with its reason.

Every test taking ``backend`` runs on SQLite and on a throwaway PostgreSQL (conftest.py). The damage is done with
SQL straight on the database, as a bad disk, a bad hand or a bug of an older version could have left it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tests.server.test_store import event, make_meta

from laro.server.store import DamagedTable, SQLiteStore, Store, StoredTable, StoreError, TableMeta

if TYPE_CHECKING:
    from tests.server.conftest import Backend


def fill(backend: Backend) -> tuple[TableMeta, TableMeta, TableMeta, TableMeta]:
    """Four tables of three events each, oldest first: good, victim (to damage), finished, newest."""
    tables = tuple(make_meta(f"table-{name}") for name in ("good", "victim", "finished", "newest"))

    async def main() -> None:
        async with backend.make() as store:
            for meta in tables:
                await store.create_table(meta)
                for seq in (1, 2, 3):
                    await store.append(meta.id, event(seq))
            await store.finish("table-finished", {"winners": [0]})

    asyncio.run(main())
    good, victim, finished, newest = tables
    return good, victim, finished, newest


async def read_all(store: Store, batch: int) -> list[StoredTable | DamagedTable]:
    return [table for table in [t async for t in store.iter_tables(batch)]]


# (where the damage goes, the SQL, the reason) - on both databases
BOTH = [
    ("event", "UPDATE laro_events SET event = '[1, 2]' WHERE table_id = 'table-victim' AND seq = 2",
     "event 2 is not a JSON object"),
    ("event-seq", """UPDATE laro_events SET event = '{"seq": 7}' WHERE table_id = 'table-victim' AND seq = 2""",
     "event 2 holds seq 7"),
    ("gap", "DELETE FROM laro_events WHERE table_id = 'table-victim' AND seq = 2",
     "event 2 is missing (the log goes on at event 3)"),
    ("lost-end", "DELETE FROM laro_events WHERE table_id = 'table-victim' AND seq = 3",
     "the log ends at event 2 but the table's last seq is 3"),
    ("options", "UPDATE laro_tables SET options = '[]' WHERE id = 'table-victim'", "the options are not a JSON object"),
    ("seats", "UPDATE laro_tables SET seats = '[{}]' WHERE id = 'table-victim'", "1 seats for 3 players"),
    ("seed", "UPDATE laro_tables SET seed = 7.5 WHERE id = 'table-victim'", "seed '7.5' is not a number"),
    ("result", "UPDATE laro_tables SET result = '3' WHERE id = 'table-victim'", "the result is not a JSON object"),
]  # fmt: skip
# damage only SQLite's text columns can hold
SQLITE_ONLY = [
    ("event-text", "UPDATE laro_events SET event = '{\"seq\": 2, oops' WHERE table_id = 'table-victim' AND seq = 2",
     "event 2 is not JSON"),
    ("options-text", "UPDATE laro_tables SET options = 'nope' WHERE id = 'table-victim'", "the options are not JSON"),
    ("seed-text", "UPDATE laro_tables SET seed = '7x' WHERE id = 'table-victim'", "seed '7x' is not a number"),
    ("players", "UPDATE laro_tables SET num_players = 'three' WHERE id = 'table-victim'",
     "the number of players 'three' is not a number"),
    ("created", "UPDATE laro_tables SET created = 'noon' WHERE id = 'table-victim'",
     "the creation time 'noon' is not a number"),
]  # fmt: skip


@pytest.mark.parametrize(("damage", "reason"), [(sql, reason) for _, sql, reason in BOTH], ids=[c[0] for c in BOTH])
def test_a_damaged_table_is_named_and_the_others_are_read(backend: Backend, damage: str, reason: str) -> None:
    check_damage(backend, damage, reason)


@pytest.mark.parametrize(
    ("damage", "reason"), [(sql, reason) for _, sql, reason in SQLITE_ONLY], ids=[c[0] for c in SQLITE_ONLY]
)
def test_damage_only_sqlite_can_hold(tmp_path: Path, damage: str, reason: str) -> None:
    from tests.server.conftest import Backend  # the fixture's class, made by hand for SQLite alone

    path = str(tmp_path / "laro.db")
    check_damage(Backend("sqlite", path, lambda: SQLiteStore(path)), damage, reason)


def check_damage(backend: Backend, damage: str, reason: str) -> None:
    good, victim, finished, newest = fill(backend)
    backend.execute(damage)
    damaged = DamagedTable(victim.id, reason)

    async def main() -> None:
        async with backend.make() as store:
            intact = {meta.id: await store.load(meta.id) for meta in (good, finished, newest)}
            assert all(isinstance(table, StoredTable) for table in intact.values())
            assert await store.load(victim.id) == damaged
            assert await store.load_active() == [intact[good.id], damaged, intact[newest.id]]
            everything = [intact[good.id], damaged, intact[finished.id], intact[newest.id]]
            for batch in (1, 2, 3, 4, 200):
                assert await read_all(store, batch) == everything, batch
            listed = [summary.meta.id for summary in await store.list_tables(include_finished=True)]
            if "laro_events" in damage:  # the listing reads no events: the table's row is sound
                assert listed == [newest.id, finished.id, victim.id, good.id]
            else:
                assert listed == [newest.id, finished.id, good.id]
            await store.append(good.id, event(4))  # the store goes on working
            table = await store.load(good.id)
            assert isinstance(table, StoredTable) and table.last_seq == 4

    asyncio.run(main())


def test_a_damaged_row_left_out_of_the_listing_is_logged(backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    fill(backend)
    backend.execute("UPDATE laro_tables SET seats = '[]' WHERE id = 'table-victim'")

    async def main() -> None:
        async with backend.make() as store:
            with caplog.at_level(logging.WARNING, logger="laro.server.store"):
                assert len(await store.list_tables()) == 2
                assert len(await store.list_tables(include_finished=True)) == 3

    asyncio.run(main())
    assert "table table-victim is damaged: 0 seats for 3 players" in caplog.text


def test_str_of_a_damaged_table() -> None:
    assert str(DamagedTable("t1", "event 12 is not JSON")) == "table t1 is damaged: event 12 is not JSON"


def test_iter_tables_refuses_a_bad_batch(backend: Backend) -> None:
    async def main() -> None:
        async with backend.make() as store:
            assert await read_all(store, 5) == []
            with pytest.raises(StoreError, match="batch must be a positive integer"):
                await read_all(store, 0)

    asyncio.run(main())


# --- the database itself ------------------------------------------------------------------------------------------


def one_line_error(backend: Backend) -> str:
    """The StoreError met opening the store and reading every table (there must be one)."""

    async def main() -> None:
        async with backend.make() as store:
            await store.load_active()
            await read_all(store, 2)

    with pytest.raises(StoreError) as refused:
        asyncio.run(main())
    message = str(refused.value)
    assert "\n" not in message
    return message


def test_a_missing_events_table_is_one_line(backend: Backend) -> None:
    fill(backend)
    backend.execute("DROP TABLE laro_events")
    message = one_line_error(backend)
    assert "damaged" in message and "laro_events is missing" in message
    if backend.kind == "sqlite":
        assert backend.target in message


def test_a_table_dropped_under_a_running_store_is_one_line(backend: Backend) -> None:
    fill(backend)

    async def main() -> None:
        async with backend.make() as store:
            backend.execute("DROP TABLE laro_events")
            with pytest.raises(StoreError) as refused:
                await store.load_active()
            assert "\n" not in str(refused.value) and "laro_events" in str(refused.value)

    asyncio.run(main())


def _garbled_store(path: Path) -> None:
    """A store file of many pages, every page but the first (the schema) garbled."""

    async def main() -> None:
        async with SQLiteStore(path) as store:
            for number in range(60):  # a file of many pages
                meta = make_meta(f"t{number}")
                await store.create_table(meta)
                for seq in range(1, 6):
                    await store.append(meta.id, event(seq, padding="x" * 300))

    asyncio.run(main())
    assert not os.path.exists(f"{path}-wal")  # closing folded the log into the file
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 20 * page
    for number in range(2, len(data) // page):
        data[number * page : number * page + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))


def test_a_garbled_page_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "laro.db"
    _garbled_store(path)

    from tests.server.conftest import Backend

    message = one_line_error(Backend("sqlite", str(path), lambda: SQLiteStore(path)))
    assert str(path) in message and "damaged" in message and "malformed" in message


def test_an_empty_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    path.write_bytes(b"")
    with pytest.raises(StoreError) as refused:
        asyncio.run(SQLiteStore(path).open())
    message = str(refused.value)
    assert message.startswith(f"{path} is empty (0 bytes)") and "remove it to start a new, empty store" in message
    assert path.read_bytes() == b"" and sorted(os.listdir(tmp_path)) == ["tables.db"]


def test_a_new_store_file_is_never_empty_and_leaves_no_draft(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"

    async def main() -> None:
        stores = [SQLiteStore(path) for _ in range(4)]
        await asyncio.gather(*(store.open() for store in stores))
        try:
            assert path.stat().st_size > 0
            await stores[0].create_table(make_meta("t1"))
            assert [t.table_id if isinstance(t, DamagedTable) else t.meta.id for t in await stores[3].load_active()]
        finally:
            await asyncio.gather(*(store.close() for store in stores))

    asyncio.run(main())
    # no draft (".tables.db.*.new" and its -wal/-shm) is left; SQLite itself may keep the live file's WAL when
    # several connections close at the same moment (each sees another still open), which is its normal state
    assert set(os.listdir(tmp_path)) - {"tables.db-wal", "tables.db-shm"} == {"tables.db"}


def test_a_store_missing_its_schema_table_is_damaged_not_foreign(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    asyncio.run(SQLiteStore(path).open())
    from tests.server.conftest import Backend

    Backend("sqlite", str(path), lambda: SQLiteStore(path)).execute("DROP TABLE laro_schema")
    with pytest.raises(StoreError, match="is a damaged laro store: its table laro_schema is missing"):
        asyncio.run(SQLiteStore(path).open())


def test_laro_serve_names_a_garbled_store_in_one_line(tmp_path: Path) -> None:
    """``laro serve`` on a garbled store file says so in one line and exits, with no traceback."""
    path = tmp_path / "data" / "tables.db"
    path.parent.mkdir()
    _garbled_store(path)
    done = subprocess.run(
        [sys.executable, "-m", "laro", "serve", "--port", "0", "--data-dir", str(path.parent)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout
    assert str(path) in done.stderr and "malformed" in done.stderr
