"""The web application: the HTTP API for tables and seats, and play over WebSocket (see docs/protocol.md).
:func:`create_app` only wires: it makes the server's parts (:class:`~laro.server.routes.common.Server`, kept in the
application's state), starts and stops them, and routes every path to its endpoint in :mod:`laro.server.routes`;
a :class:`~laro.server.errors.Refusal` any endpoint raises is answered by one handler.

Every answer carries the headers of a page that must not be framed, leak its address or run foreign code
(``Content-Security-Policy``, ``Referrer-Policy: no-referrer``, …). Seat tokens never travel in an address: the
WebSocket takes its token in the first message (``hello``), and invite links carry theirs after ``#``, which a
browser never sends to a server or a proxy.

>>> app = create_app("sqlite::memory:")
>>> sorted({route.path for route in app.routes if route.path.startswith("/api/tables")})
['/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/analysis', '/api/tables/{table_id}/ratings',
 '/api/tables/{table_id}/record', '/api/tables/{table_id}/rematch', '/api/tables/{table_id}/replay',
 '/api/tables/{table_id}/seats/{seat}/push', '/api/tables/{table_id}/seats/{seat}/{what}']
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any, cast

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware

from laro.server.accounts import Passwords, People
from laro.server.admission import Admission
from laro.server.analyses import Analyses
from laro.server.clocks import AWAY_AFTER, HANDOVER_AFTER, ROUND_PAUSE
from laro.server.connection import Limits
from laro.server.errors import Refusal
from laro.server.hub import Hub
from laro.server.leases import LEASE_SECONDS
from laro.server.limits import Buckets, ServerLimits
from laro.server.matching import Matchmaker
from laro.server.notifier import Notifier
from laro.server.peers import peers_of
from laro.server.push import PushSettings
from laro.server.ratings import Rater
from laro.server.replay_workers import ReplayWorkers
from laro.server.routes import accounts, analysis, games, match, operations, pages, play, ratings, records, tables
from laro.server.routes import push as push_routes
from laro.server.routes.common import Server, refused
from laro.server.store import Store, open_store
from laro.server.tasks import spawn as tasks_spawn

__all__ = ["create_app"]


def create_app(
    store: Store | str,
    bot_delay: float = 0.6,
    limits: Limits | None = None,
    server_limits: ServerLimits | None = None,
    bot_workers: int | None = None,
    seeds: bool = False,
    round_pause: float = ROUND_PAUSE,
    away_after: float = AWAY_AFTER,
    handover_after: float = HANDOVER_AFTER,
    lease_seconds: float = LEASE_SECONDS,
    push: PushSettings | None = None,
    behind_tls: bool = False,
    password_memory: int = 64,
) -> Starlette:
    """The server's application over ``store`` (a store or its URL). ``seeds=True`` lets a table be made with a
    given ``"seed"`` (for tests and demonstrations: whoever knows a seed knows every hidden card). On PostgreSQL
    the process shares the store with any others (:mod:`laro.server.cluster`), its leases and its claims of
    analyses (:mod:`laro.server.analyses`) lasting ``lease_seconds``. With ``push``, players are told of their
    turns by Web Push (:mod:`laro.server.notifier`). ``behind_tls``: clients reach the server
    over https through a proxy (session cookies are then ``Secure``); ``password_memory``: the MiB each password's
    Argon2id hash takes."""
    the_store = open_store(store) if isinstance(store, str) else store
    bounds = server_limits or ServerLimits()
    hub = Hub(
        the_store,
        bot_delay=bot_delay,
        limits=bounds,
        bot_workers=bot_workers,
        round_pause=round_pause,
        away_after=away_after,
        handover_after=handover_after,
        peers=peers_of(the_store, lease_seconds),
    )
    server = _server(
        hub,
        bounds,
        limits or Limits(),
        workers=0 if bot_workers == 0 else 1,
        seeds=seeds,
        lease_seconds=lease_seconds,
        push=push,
        behind_tls=behind_tls,
        password_memory=password_memory,
    )
    return _application(server)


def _server(
    hub: Hub,
    bounds: ServerLimits,
    limits: Limits,
    workers: int,
    seeds: bool,
    lease_seconds: float,
    push: PushSettings | None,
    behind_tls: bool,
    password_memory: int,
) -> Server:
    """The server's parts around ``hub`` (see :func:`create_app`)."""
    the_store = hub.store
    server = Server(
        store=the_store,
        hub=hub,
        analyses=Analyses(
            the_store, workers=workers, claim_seconds=lease_seconds, per_address=bounds.analyses_per_address
        ),
        replays=ReplayWorkers(workers=workers, at_once=bounds.replays_at_once),
        bounds=bounds,
        limits=limits,
        creates=Buckets(bounds.creates_per_minute / 60, bounds.create_burst),
        seat_calls=Buckets(bounds.seat_calls_per_second, bounds.seat_call_burst),
        admission=Admission(bounds),
        seeds=seeds,
        spawn=_spawner(),
        push=push,
        notifier=None if push is None else Notifier(hub, push),
        people=People(the_store.accounts, bounds, Passwords(password_memory)),
        behind_tls=behind_tls,
        rater=Rater(the_store),
        matchmaker=Matchmaker(the_store, hub),
        chats=Buckets(bounds.chat_per_minute / 60, bounds.chat_burst),
    )
    if server.notifier is not None:
        hub.on_told = server.notifier.seen
    return server


def _application(server: Server) -> Starlette:
    """The application serving ``server``'s endpoints, each module's routes in turn."""
    app = Starlette(
        # answers of 4 KiB or more are compressed for clients that accept gzip (a replay is 100s of KiB)
        middleware=[
            Middleware(pages.SecurityHeaders),
            Middleware(accounts.SameOrigin),
            Middleware(GZipMiddleware, minimum_size=4096, compresslevel=6),
        ],
        routes=[
            *pages.ROUTES,
            *games.ROUTES,
            *push_routes.ROUTES,  # before the tables' seat actions, whose path takes .../push too
            *tables.ROUTES,
            *analysis.ROUTES,
            *records.ROUTES,
            *operations.ROUTES,
            *accounts.ROUTES,
            *ratings.ROUTES,
            *match.ROUTES,
            *play.ROUTES,
        ],
        lifespan=_lifespan,
        exception_handlers={Refusal: cast(Any, refused)},  # one handler, for HTTP and WebSocket alike
    )
    app.state.server = server
    app.state.hub = server.hub
    return app


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    """Open the store and start the hub (and its peers); stop them all in the reverse order."""
    server: Server = app.state.server
    await server.store.open()
    await server.hub.start()
    server.rater.start()
    server.matchmaker.start()
    try:
        yield
    finally:
        await server.matchmaker.stop()
        await server.rater.stop()
        await server.hub.stop()  # hands the tables it drives over to its peers first
        if server.notifier is not None:
            server.notifier.close()
        server.analyses.close()
        server.replays.close()
        server.people.passwords.close()
        await server.store.close()


def _spawner() -> Any:
    tasks: set[asyncio.Task[None]] = set()

    def spawn(coroutine: Any) -> asyncio.Task[None]:
        task = tasks_spawn(coroutine, "connection")
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return task

    return spawn
