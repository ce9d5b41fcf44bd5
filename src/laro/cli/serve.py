"""``laro serve``: the multiplayer server (needs the ``server`` extra)."""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from laro.cli.store import store_url

if TYPE_CHECKING:
    from laro.server.push import PushSettings

__all__ = ["serve"]


def _limit_options(command: Callable[..., None]) -> Callable[..., None]:
    """An option for each limit of the server that ``laro serve`` may set, as the limit declares it (its flag,
    help, range and default: :func:`laro.server.limits.options`), named by its field."""
    from laro.server.limits import options

    for name, option, default in reversed(options()):
        if isinstance(default, int):
            kind: click.IntRange | click.FloatRange = click.IntRange(int(option.lowest), int(option.highest))
        else:
            kind = click.FloatRange(option.lowest, option.highest)
        add = click.option(option.flag, name, default=default, show_default=True, type=kind, help=option.help)
        command = add(command)
    return command


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
@click.option(
    "--bot-workers",
    default=None,
    type=click.IntRange(0, 64),
    help="Processes in which bots think, at a lower priority [default: one per core but one; 0: a thread].",
)
@click.option(
    "--connections-per-address",
    default=64,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Open TCP connections one address may have (players behind one router share one).",
)
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 600),
    help="Seconds a connection has to send a request's headers (slow or half-sent ones are dropped).",
)
@click.option(
    "--header-bytes",
    default=16384,
    show_default=True,
    type=click.IntRange(1024, 1 << 24),
    help="Bytes a request's headers may hold (more: 431 and the connection closed).",
)
@click.option(
    "--header-count",
    default=100,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Header lines a request may have (more: 431 and the connection closed).",
)
@click.option(
    "--send-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 600),
    help="Seconds a WebSocket client may leave a message unread before it is dropped (a client that stopped reading).",
)
@click.option(
    "--ping-interval",
    default=20.0,
    show_default=True,
    type=click.FloatRange(0.1, 600),
    help="Seconds between pings to a WebSocket client; one that does not answer within as many is dropped.",
)
@_limit_options
@click.option(
    "--round-pause",
    default=8.0,
    show_default=True,
    type=click.FloatRange(0, 120),
    help="Seconds a L.A.M.A. round's end is shown before the next round (sooner when every player is ready).",
)
@click.option(
    "--away-after",
    default=120.0,
    show_default=True,
    type=click.FloatRange(1, 24 * 3600),
    help="Seconds without a connection, on a timed turn, before a seat is handed to its stand-in bot.",
)
@click.option(
    "--handover-after",
    default=60.0,
    show_default=True,
    type=click.FloatRange(0, 24 * 3600),
    help="Seconds a player must have been gone before another player may hand their seat to its stand-in bot.",
)
@click.option(
    "--allow-seeds", is_flag=True, help='Let POST /api/tables take a "seed" (tests only: it reveals every card).'
)
@click.option(
    "--bot",
    "offered_bots",
    multiple=True,
    metavar="NAME=BOT",
    help="Offer BOT at the tables under NAME, e.g. ppo=policy:agent.npz (a trained policy); may be repeated.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on this port, sharing the store (PostgreSQL only; see docs/deploy.md).",
)
@click.option(
    "--lease-seconds",
    default=3.0,
    show_default=True,
    type=click.FloatRange(0.3, 600),
    help="PostgreSQL: how soon another process drives the tables of one that died.",
)
@click.option(
    "--vapid-key",
    default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The server's key for push notifications (VAPID: a PEM file of a P-256 private key, made there if missing) "
    "[default: DATA_DIR/vapid.pem]. Every host serving the same store needs the same key.",
)
@click.option(
    "--vapid-subject",
    default="mailto:laro@localhost",
    show_default=True,
    help="Who runs the server, as push services are told: mailto:you@example.org or https://your.site.",
)
@click.option(
    "--push-reminder",
    default=3600.0,
    show_default=True,
    type=click.FloatRange(1, 24 * 3600),
    help="Seconds before a stand-in takes over an absent player's turn that they are reminded (long turns only).",
)
@click.option(
    "--push-over-http",
    is_flag=True,
    help="Accept push subscriptions at http:// endpoints (tests only: every real push service is https).",
)
@click.option(
    "--log-format",
    default="text",
    show_default=True,
    type=click.Choice(["text", "json"]),
    help="Log lines as text, or as one JSON object a line (for log collectors).",
)
@click.option(
    "--behind-tls",
    is_flag=True,
    help="Clients reach the server over https through a reverse proxy: session cookies are sent only over https.",
)
@click.option(
    "--password-memory",
    default=64,
    show_default=True,
    type=click.IntRange(1, 4096),
    help="MiB of memory each password's Argon2id hash takes (RFC 9106's low-memory choice: 64); more is slower "
    "to guess.",
)
@click.option("--no-chat", is_flag=True, help="No chat at the tables: a line of chat is refused (no_chat).")
@click.option("--quiet", is_flag=True, help="Log warnings only, not every table event.")
def serve(
    host: str,
    port: int,
    data_dir: Path,
    database: str | None,
    bot_delay: float,
    bot_workers: int | None,
    connections_per_address: int,
    header_timeout: float,
    header_bytes: int,
    header_count: int,
    send_timeout: float,
    ping_interval: float,
    round_pause: float,
    away_after: float,
    handover_after: float,
    allow_seeds: bool,
    offered_bots: tuple[str, ...],
    workers: int,
    lease_seconds: float,
    vapid_key: Path | None,
    vapid_subject: str,
    push_reminder: float,
    push_over_http: bool,
    log_format: str,
    behind_tls: bool,
    password_memory: int,
    no_chat: bool,
    quiet: bool,
    **limits: float,
) -> None:
    """Start the multiplayer server: tables of L.A.M.A. and Kamara for people and bots, played in the browser
    or by any WebSocket client (the protocol is in docs/protocol.md).

    Every action is saved before anyone hears of it; stop the server at any moment (even kill -9) and start it
    again: every table is back as it was, and clients reconnect and carry on. Its limits for the open internet
    (rates, counts, timeouts) are listed in docs/protocol.md.

    On PostgreSQL several processes (--workers, or several hosts behind a proxy) serve the same tables as one
    server; SIGTERM stops a process gracefully: clients are told to reconnect, its tables go to the others.
    """
    try:
        import uvicorn

        from laro.server import protocols
        from laro.server.app import create_app
        from laro.server.connection import Limits
        from laro.server.limits import ServerLimits
        from laro.server.logs import configure_logging
        from laro.server.workers import bind, run_workers
    except ImportError as error:
        raise click.ClickException(f"the server needs its extra: pip install 'laro[server]' ({error})") from None
    for offered in offered_bots:
        _offer_bot(offered)
    configure_logging(logging.WARNING if quiet else logging.INFO, log_format)
    if database is None:
        data_dir.mkdir(parents=True, exist_ok=True)
    database = store_url(data_dir, database)
    if workers > 1 and not database.lower().startswith(("postgresql:", "postgres:")):
        raise click.ClickException(
            f"--workers {workers} needs a PostgreSQL store (--db postgresql://user@host/database): an SQLite "
            "store belongs to one process; without --workers one process serves it"
        )
    _check_store(database)
    push = _push_settings(vapid_key or data_dir / "vapid.pem", vapid_subject, push_reminder, push_over_http)
    if workers > 1 and bot_workers is None:  # the cores are shared between the processes' bots
        bot_workers = max(1, ((os.cpu_count() or 1) - 1) // workers)

    def server() -> uvicorn.Server:
        app = create_app(
            database,
            bot_delay=bot_delay,
            limits=Limits(send_timeout=send_timeout),
            server_limits=dataclasses.replace(ServerLimits.from_options(limits), chat=not no_chat),
            bot_workers=bot_workers,
            seeds=allow_seeds,
            round_pause=round_pause,
            away_after=away_after,
            handover_after=handover_after,
            lease_seconds=lease_seconds,
            push=push,
            behind_tls=behind_tls,
            password_memory=password_memory,
        )
        # small JSON messages: compressing them costs more time than it saves on the wire
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            http=protocols.GuardedHTTP,
            ws=protocols.GuardedWebSocket,
            log_level="warning",
            log_config=None if log_format == "json" else uvicorn.config.LOGGING_CONFIG,
            ws_max_size=65536,
            ws_per_message_deflate=False,
            ws_ping_interval=ping_interval,
            ws_ping_timeout=ping_interval,
            timeout_keep_alive=5,
            h11_max_incomplete_event_size=header_bytes,
            access_log=False,
        )
        return uvicorn.Server(config)

    protocols.configure(
        per_address=connections_per_address,
        total=_connection_room(),
        header_timeout=header_timeout,
        header_bytes=header_bytes,
        header_count=header_count,
    )
    shown = f" ({workers} processes)" if workers > 1 else ""
    click.echo(f"laro server on http://{host}:{port}/{shown} (store: {_shown(database)})")
    if workers == 1:
        server().run()
        return
    try:
        sock = bind(host, port)
    except OSError as error:
        raise click.ClickException(str(error)) from None
    sys.stdout.flush()
    status = run_workers(workers, sock, lambda shared: server().run(sockets=[shared]))
    if status:
        raise SystemExit(status)


def _offer_bot(offered: str) -> None:
    """Register ``NAME=BOT`` for every game BOT plays, so that tables may seat it by NAME (a table's bots are named
    in its record: start the server with the same --bot again after a restart)."""
    from laro.bots import BotError, get_bot, list_bots, register_bot
    from laro.core.registry import list_games

    name, equals, bot = offered.partition("=")
    if not equals or not bot or not re.fullmatch(r"[a-z][a-z0-9_-]{0,31}", name):
        raise click.BadParameter(
            f"{offered!r}: give NAME=BOT, NAME in small letters, digits, - and _ (e.g. ppo=policy:agent.npz)",
            param_hint="--bot",
        )
    refusals = []
    for game in list_games():
        if name in list_bots(game):
            raise click.BadParameter(f"{name!r} is already a bot of {game}", param_hint="--bot")
        try:
            get_bot(bot, game)
        except (BotError, ValueError) as error:
            refusals.append(f"{game}: {error}")
            continue
        register_bot(name, game, functools.partial(get_bot, bot, game))
    if len(refusals) == len(list_games()):
        raise click.BadParameter(f"{bot!r} plays no game here ({'; '.join(refusals)})", param_hint="--bot")


def _push_settings(key: Path, subject: str, remind_before: float, http: bool) -> PushSettings:
    """How the server sends push notifications: its VAPID key (read, or made and kept at ``key``), and who runs it."""
    from laro.server.push import PushSettings, load_key

    if not re.fullmatch(r"mailto:[^@\s]+@[^@\s]+|https://[^\s/]+[^\s]*", subject):
        raise click.BadParameter(
            f"{subject!r}: give mailto:you@example.org or https://your.site", param_hint="--vapid-subject"
        )
    try:
        private = load_key(key)
    except (OSError, ValueError) as error:
        raise click.ClickException(f"cannot use the VAPID key {key}: {error}") from None
    return PushSettings(private, subject=subject, remind_before=remind_before, http=http)


def _connection_room() -> int:
    """How many connections the server may hold: the open-files limit raised as far as allowed, less a reserve
    for the store, the bots' processes and the log."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = hard if hard != resource.RLIM_INFINITY else 65536
        if soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    except (ImportError, ValueError, OSError):
        return 1024
    return max(64, min(soft, 65536) - 256)


def _check_store(url: str) -> None:
    """Open and close the store once, so a bad URL or a damaged database is reported plainly."""
    import asyncio

    from laro.server.store import StoreError, open_store

    async def check() -> None:
        store = open_store(url)
        await store.open()
        try:  # what start-up reads: a damaged table is only left out, but a garbled database stops here, in a line
            await store.load_active()
        finally:
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
