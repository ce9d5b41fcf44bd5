"""``laro serve``: the multiplayer server (needs the ``server`` extra)."""

from __future__ import annotations

import logging
from pathlib import Path

import click

__all__ = ["serve"]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every one).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option(
    "--data-dir",
    default="data",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory of the embedded SQLite database (tables.db), made if missing.",
)
@click.option(
    "--db",
    "database",
    default=None,
    metavar="URL",
    help="Another store instead: postgresql://user:password@host/database (or sqlite:///path/file.db).",
)
@click.option(
    "--bot-delay",
    default=0.6,
    show_default=True,
    type=click.FloatRange(0, 30),
    help="Seconds a bot waits before each action, so people can follow.",
)
@click.option("--quiet", is_flag=True, help="Log warnings only, not every table event.")
def serve(host: str, port: int, data_dir: Path, database: str | None, bot_delay: float, quiet: bool) -> None:
    """Start the multiplayer server: tables of L.A.M.A. and Kamara for people and bots, played in the browser
    or by any WebSocket client (the protocol is in docs/protocol.md).

    Every action is saved before anyone hears of it; stop the server at any moment (even kill -9) and start it
    again: every table is back as it was, and clients reconnect and carry on.
    """
    try:
        import uvicorn

        from laro.server.app import create_app
    except ImportError as error:
        raise click.ClickException(f"the server needs its extra: pip install 'laro[server]' ({error})") from None
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, format="%(asctime)s %(message)s")
    if database is None:
        data_dir.mkdir(parents=True, exist_ok=True)
        database = f"sqlite://{(data_dir / 'tables.db').resolve()}"
    _check_store(database)
    app = create_app(database, bot_delay=bot_delay)
    click.echo(f"laro server on http://{host}:{port}/ (store: {_shown(database)})")
    # small JSON messages: compressing them costs more time than it saves on the wire
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        ws_per_message_deflate=False,
        access_log=False,
    )


def _check_store(url: str) -> None:
    """Open and close the store once, so a bad URL or a damaged database is reported plainly."""
    import asyncio

    from laro.server.store import StoreError, open_store

    async def check() -> None:
        store = open_store(url)
        await store.open()
        await store.close()

    try:
        asyncio.run(check())
    except StoreError as error:
        raise click.ClickException(f"cannot use the store {_shown(url)}: {error}") from None


def _shown(url: str) -> str:
    """The store URL without any password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.split('@', 1)[1]}"
    return url
