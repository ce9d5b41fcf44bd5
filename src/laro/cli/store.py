"""``laro store``: look after the server's store of tables (needs the ``server`` extra).

``laro store check`` reads every table, finished ones too, a batch at a time, and replays each one's events the way
the server rebuilds a table after a restart. It prints one line per damaged table and a summary, and exits with 0
when every table is sound, 1 when some table is damaged (the server leaves those out and serves the others), and 2
when the database itself cannot be read (a damaged file, a missing table, no store at that place).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import click

from laro.cli.words import counted

__all__ = ["check", "store", "store_url"]

DAMAGED, UNREADABLE = 1, 2  # exit statuses


def store_url(data_dir: Path, database: str | None) -> str:
    """The store ``laro serve --data-dir DIR --db URL`` uses: the URL if given, else DIR/tables.db."""
    return database if database is not None else f"sqlite://{(data_dir / 'tables.db').resolve()}"


@click.group()
def store() -> None:
    """Look after the server's store of tables.

    \b
    Examples:
      laro store check                          the store of `laro serve` (data/tables.db)
      laro store check --data-dir /var/lib/laro
      laro store check --db postgresql://laro@db/laro
    """


@store.command()
@click.option(
    "--data-dir",
    default="data",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory of the embedded SQLite database (tables.db), as given to laro serve.",
)
@click.option(
    "--db", "database", default=None, metavar="URL", help="Another store: postgresql://user@host/db or sqlite:///f.db."
)
@click.option("--batch", default=200, show_default=True, type=click.IntRange(1, 100_000), help="Tables read at once.")
def check(data_dir: Path, database: str | None, batch: int) -> None:
    """Read and replay every table of the store; list the damaged ones.

    Exit status: 0 every table is sound, 1 some are damaged (one line each), 2 the database cannot be read.
    """
    try:
        from laro.server.store import StoreError
    except ImportError as error:
        raise click.ClickException(
            f"the store needs the server's extra: pip install 'laro[server]' ({error})"
        ) from None
    try:
        checked, damaged = asyncio.run(_check(store_url(data_dir, database), batch))
    except StoreError as error:
        click.echo(f"laro store check: {error}", err=True)
        raise SystemExit(UNREADABLE) from None
    for table_id, reason in damaged:
        click.echo(f"table {table_id}: {reason}")
    click.echo(f"{counted(checked, 'table')} checked, {len(damaged):,} damaged")
    if damaged:
        raise SystemExit(DAMAGED)


async def _check(url: str, batch: int) -> tuple[int, list[tuple[str, str]]]:
    """How many tables the store holds, and the id and reason of each damaged one."""
    from laro.server.errors import Damaged
    from laro.server.store import DamagedTable, SQLiteStore, StoreError, open_store
    from laro.server.table import Table

    found = open_store(url)
    if isinstance(found, SQLiteStore) and found.path != ":memory:" and not os.path.exists(found.path):
        raise StoreError(f"there is no store at {found.path}")  # opening would make an empty one
    checked, damaged = 0, []
    async with found:
        if isinstance(found, SQLiteStore):
            problems = await found.quick_check()
            if problems:
                more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
                raise StoreError(f"the SQLite store {found.path} is damaged: {problems[0]}{more}")
        async for table in found.iter_tables(batch):
            checked += 1
            if isinstance(table, DamagedTable):
                damaged.append((table.table_id, table.reason))
                continue
            try:
                Table.restore(table)
            except Damaged as error:
                damaged.append((table.meta.id, f"cannot be replayed: {error}"))
    return checked, damaged
