"""Where the server keeps its tables: append-only event logs in SQLite (the default) or PostgreSQL.

>>> open_store("sqlite:///var/lib/laro/tables.db")
SQLiteStore('/var/lib/laro/tables.db')
>>> open_store("tables.db")
SQLiteStore('tables.db')
>>> open_store("postgresql://laro@db.example/laro")
PostgresStore(…)
>>> open_store("mysql://db.example/laro")
Traceback (most recent call last):
  ...
laro.server.store.base.StoreError: unknown store URL scheme 'mysql': use sqlite:///path/to/file.db, a file path, \
or postgresql://user@host/database
"""

from __future__ import annotations

from .base import (
    SCHEMA_VERSION,
    DamagedTable,
    SeqConflict,
    SharedRows,
    Store,
    StoredTable,
    StoreError,
    TableExists,
    TableFinished,
    TableMeta,
    TableNotFound,
    TableSummary,
    new_table_id,
)
from .postgres import PostgresStore
from .sqlite import SQLiteStore

__all__ = [
    "SCHEMA_VERSION",
    "DamagedTable",
    "PostgresStore",
    "SQLiteStore",
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
    "new_table_id",
    "open_store",
]

_KINDS = "use sqlite:///path/to/file.db, a file path, or postgresql://user@host/database"


def open_store(url: str) -> Store:
    """The store a URL names (not yet opened: use ``async with open_store(url) as store``).

    - ``sqlite:///abs/path.db`` (a file URL's path: ``/abs/path.db``), ``sqlite:relative/path.db``,
      ``sqlite::memory:`` or a plain file path: an ``SQLiteStore``;
    - ``postgresql://…`` or ``postgres://…``: a ``PostgresStore`` (libpq's URL, e.g.
      ``postgresql://laro:secret@db/laro`` or ``postgresql:///laro?host=/run/postgresql``).
    """
    text = url.strip() if isinstance(url, str) else ""
    if not text:
        raise StoreError(f"no store given: {_KINDS}")
    scheme, colon, rest = text.partition(":")
    scheme = scheme.lower()
    if scheme in ("postgresql", "postgres") and colon:
        return PostgresStore(text)
    if scheme == "sqlite" and colon:
        path = rest[2:] if rest.startswith("//") else rest
        if not path:
            raise StoreError(f"no file path in the store URL {url!r}: {_KINDS}")
        return SQLiteStore(path)
    if "://" in text:
        raise StoreError(f"unknown store URL scheme {scheme!r}: {_KINDS}")
    return SQLiteStore(text)
