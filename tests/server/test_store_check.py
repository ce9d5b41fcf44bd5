"""``laro store check``: every table read and replayed; damaged ones listed, one line each, with the exit status.

The tables are real games (bots playing through the server's own ``Table``), stored in SQLite or a throwaway
PostgreSQL (conftest.py), then damaged with SQL straight on the database.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

from click.testing import CliRunner, Result
from psycopg.conninfo import conninfo_to_dict

from laro.cli.main import cli
from laro.server.store import Store
from laro.server.table import create, make_bot_event, views

if TYPE_CHECKING:
    from tests.server.conftest import Backend


async def play(store: Store, table_id: str, moves: int | None, seed: int) -> None:
    """A two-bot L.A.M.A. table, stored as the server stores it: ``moves`` bot actions, or (None) the whole game,
    then finished."""
    table, _ = create("lama", 2, {}, {0: "random", 1: "heuristic"}, created=1.8e9, seed=seed, table_id=table_id)
    await store.create_table(table.meta)
    while not table.state.is_over and (moves is None or table.seq < moves):
        made = make_bot_event(table)
        await store.append(table_id, {**made.to_json(), "time": 1.8e9})
        table.apply(made, 1.8e9)
    if moves is None:
        await store.finish(table_id, views.result(table) or {})


def fill(backend: Backend, tables: dict[str, int | None]) -> None:
    async def main() -> None:
        async with backend.make() as store:
            for number, (table_id, moves) in enumerate(tables.items()):
                await play(store, table_id, moves, seed=number)

    asyncio.run(main())


def where(backend: Backend) -> list[str]:
    """The options of ``laro store check`` that name the backend's database."""
    if backend.kind == "sqlite":
        return ["--db", f"sqlite://{backend.target}"]
    parts = conninfo_to_dict(backend.target)
    query = urllib.parse.urlencode(
        {key: str(parts[key]) for key in ("host", "port", "options")}, quote_via=urllib.parse.quote
    )
    return ["--db", f"postgresql://{parts['user']}@/{parts['dbname']}?{query}"]


def check(*args: str) -> Result:
    return CliRunner().invoke(cli, ["store", "check", *args], catch_exceptions=False)


def sqlite_backend(tmp_path: Path) -> Backend:
    from tests.server.conftest import Backend

    from laro.server.store import SQLiteStore

    path = str(tmp_path / "tables.db")
    return Backend("sqlite", path, lambda: SQLiteStore(path))


def test_a_sound_store_checks_clean(backend: Backend, tmp_path: Path) -> None:
    fill(backend, {"early": 3, "midway": 20, "done": None})
    result = check(*where(backend), "--batch", "2")
    assert (result.exit_code, result.output) == (0, "3 tables checked, 0 damaged\n")


def test_damaged_tables_are_listed_and_exit_1(backend: Backend, tmp_path: Path) -> None:
    fill(backend, {"first": 6, "unreadable": 8, "done": None, "illegal": 10, "last": 4})
    backend.execute("UPDATE laro_tables SET seats = '[]' WHERE id = 'unreadable'")
    # a move no game allows: readable, but the table cannot be rebuilt from it
    backend.execute(
        """UPDATE laro_events SET event = '{"seq": 5, "type": "act", "seat": 0, "action": "fly away"}'"""
        " WHERE table_id = 'illegal' AND seq = 5"
    )
    result = check(*where(backend), "--batch", "2")
    lines = result.output.splitlines()
    assert result.exit_code == 1, result.output
    assert lines[0] == "table unreadable: 0 seats for 2 players"
    assert lines[1].startswith("table illegal: cannot be replayed") and "fly away" in lines[1]
    assert lines[2:] == ["5 tables checked, 2 damaged"]


def test_a_store_that_is_not_there_is_exit_2_and_not_made(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["store", "check", "--data-dir", str(tmp_path / "none")])
    assert result.exit_code == 2
    assert result.stderr == f"laro store check: there is no store at {tmp_path / 'none' / 'tables.db'}\n"
    assert not (tmp_path / "none").exists()


def test_a_damaged_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    backend = sqlite_backend(tmp_path)
    fill(backend, {f"t{number}": 40 for number in range(30)})
    path = Path(backend.target)
    data = bytearray(path.read_bytes())
    for start in range(4096 * 3, len(data), 4096):  # garble every page after the first few
        data[start + 100 : start + 300] = b"\x5a" * 200
    path.write_bytes(bytes(data))
    result = CliRunner().invoke(cli, ["store", "check", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and f"the SQLite store {path} is damaged" in result.stderr


def test_an_empty_file_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "tables.db").write_bytes(b"")
    result = CliRunner().invoke(cli, ["store", "check", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert "is empty (0 bytes)" in result.stderr and (tmp_path / "tables.db").read_bytes() == b""


def test_the_installed_command(tmp_path: Path) -> None:
    backend = sqlite_backend(tmp_path)
    fill(backend, {f"t{number}": 5 for number in range(1001)})
    backend.execute("UPDATE laro_events SET event = 'oops' WHERE table_id = 't17' AND seq = 3")
    done = subprocess.run(
        [sys.executable, "-m", "laro", "store", "check", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "table t17: event 3 is not JSON\n1,001 tables checked, 1 damaged\n",
        "",
    )
