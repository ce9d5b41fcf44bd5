"""Fixtures for the server's tests: a throwaway PostgreSQL server, and a store factory for each backend.

The PostgreSQL server is started once per test session from the installed server programs (the newest version
under /usr/lib/postgresql, else the pg_ctl on PATH): a fresh cluster in a temporary folder, listening only on a
Unix socket in that folder, stopped and deleted at the end. PostgreSQL refuses to run as root, so under root the
cluster belongs to the ``postgres`` user and its programs run through ``runuser``. Set LARO_TEST_POSTGRES_DSN to a
libpq connection string to test against a server of your own instead (each test works in a schema of its own and
drops it afterwards). If no server can be had, the PostgreSQL tests fail and say why: they are never skipped.

The end-to-end tests run the real ``laro serve`` as a child process: the fixtures ``server``, ``api`` (its HTTP
API) and ``server_factory`` come from server_process.py.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo
from tests.server.attack_support import hostile  # noqa: F401  (a server to attack, as a fixture)
from tests.server.server_process import api, free_port, server, server_factory  # noqa: F401  (the real server, as fixtures)

from laro.server.store import PostgresStore, SQLiteStore, Store

POSTGRES_ENV = "LARO_TEST_POSTGRES_DSN"
INSTALL_HINT = (
    f"install PostgreSQL's server (Debian: apt-get install postgresql) or set {POSTGRES_ENV} to the "
    "connection string of a server to test against"
)


@dataclass(frozen=True)
class Backend:
    """One database for one test, and how to reach it."""

    kind: str  # "sqlite" or "postgres"
    target: str  # the SQLite file's path, or the PostgreSQL connection string (with the test's schema)
    make: Callable[[], Store]  # a new, unopened store on this database

    def execute(self, statement: str) -> None:
        """Run one SQL statement directly on the database, outside any store (to damage or age it)."""
        if self.kind == "sqlite":
            import sqlite3

            con = sqlite3.connect(self.target, isolation_level=None)
            try:
                con.execute(statement)
            finally:
                con.close()
        else:
            with psycopg.connect(self.target, autocommit=True) as con:
                con.execute(statement.encode())


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", path.parent.parent.name)) or (0,)


def _postgres_bindir() -> Path | None:
    """Where initdb and pg_ctl are: the newest /usr/lib/postgresql/<version>/bin, else PATH, else pg_config."""
    found = [path for path in Path("/usr/lib/postgresql").glob("*/bin/pg_ctl") if (path.parent / "initdb").exists()]
    if found:
        return max(found, key=_version_key).parent
    pg_ctl = shutil.which("pg_ctl")
    if pg_ctl and shutil.which("initdb"):
        return Path(pg_ctl).parent
    pg_config = shutil.which("pg_config")
    if pg_config:
        bindir = Path(subprocess.run([pg_config, "--bindir"], capture_output=True, text=True).stdout.strip())
        if (bindir / "pg_ctl").exists() and (bindir / "initdb").exists():
            return bindir
    return None


def _run(command: list[str], what: str, log: Path | None = None) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        details = result.stdout + result.stderr
        if log is not None and log.exists():
            details += "\n--- server log ---\n" + log.read_text(errors="replace")[-4000:]
        pytest.fail(f"cannot start the test PostgreSQL server: {what} failed ({' '.join(command)}):\n{details}")


@pytest.fixture(scope="session")
def postgres_dsn() -> Iterator[str]:
    """The connection string of a PostgreSQL server for the session (see the module's docstring)."""
    given = os.environ.get(POSTGRES_ENV)
    if given:
        yield given
        return
    bindir = _postgres_bindir()
    if bindir is None:
        pytest.fail(f"PostgreSQL's server programs (initdb, pg_ctl) are not installed: {INSTALL_HINT}")
    as_owner: list[str] = []
    # a short path under /tmp: the socket's path must stay short, and the postgres user must be able to reach it
    base = Path(tempfile.mkdtemp(prefix="laro-pg-", dir="/tmp" if os.path.isdir("/tmp") else None))
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            owner = None
        if owner is None or runuser is None:
            shutil.rmtree(base, ignore_errors=True)
            pytest.fail(
                "the tests run as root, and PostgreSQL refuses to: they need a 'postgres' user and runuser "
                f"to start the test server as that user; or {INSTALL_HINT}"
            )
        os.chown(base, owner.pw_uid, owner.pw_gid)
        as_owner = [runuser, "-u", "postgres", "--"]
    data, log, port = base / "data", base / "server.log", free_port()
    try:
        initdb = [*as_owner, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"]
        _run([*initdb, "-E", "UTF8", "--no-sync"], "initdb")
        options = f"-k {base} -p {port} -c listen_addresses=''"
        pg_ctl = [*as_owner, str(bindir / "pg_ctl"), "-D", str(data)]
        _run([*pg_ctl, "-l", str(log), "-o", options, "-w", "-t", "60", "start"], "pg_ctl start", log)
    except BaseException:
        shutil.rmtree(base, ignore_errors=True)
        raise
    try:
        yield f"host={base} port={port} user=postgres dbname=postgres"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """An empty database of each kind, one per test."""
    if request.param == "sqlite":
        path = str(tmp_path / "laro.db")
        yield Backend("sqlite", path, lambda: SQLiteStore(path))
        return
    dsn: str = request.getfixturevalue("postgres_dsn")
    schema = f"laro_test_{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=10) as con:
            con.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    except psycopg.Error as exc:
        pytest.fail(f"cannot use the test PostgreSQL server: {exc}")
    conninfo = make_conninfo(dsn, options=f"-c search_path={schema}")
    try:
        yield Backend("postgres", conninfo, lambda: PostgresStore(conninfo))
    finally:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=10) as con:
            con.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
