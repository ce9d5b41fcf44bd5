"""Ratings: a player's profile, a game's leaderboard, a table's rating changes, and the pages that show them.

>>> sorted(route.path for route in ROUTES)
['/api/leaderboard/{game}', '/api/players/{name}', '/api/tables/{table_id}/ratings', '/leaderboard/{game}', \
'/players/{name}']
"""

from __future__ import annotations

import functools
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laro.core import JSONDict
from laro.server.accounts import name_key
from laro.server.errors import Code, Refusal
from laro.server.ratings import LEVELS, shown
from laro.server.routes.common import server_of
from laro.server.routes.pages import page
from laro.server.store.ratings import RatingChange, RatingRow

__all__ = ["ROUTES", "leaderboard", "player", "table_ratings"]

BOARD_PAGE, BOARD_MOST = 20, 100  # players in a page of a leaderboard, unless asked for more; the most
HISTORY = 500  # the rating changes a profile reads (its chart's points)
RECENT = 20  # the recent games a profile lists
_GAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")


def _change(change: RatingChange) -> JSONDict:
    before, after = shown(*change.before), shown(*change.after)
    return {
        "table": change.table_id,
        "game": change.game,
        "at": change.at,
        "seat": change.seat,
        "name": change.name,
        "kind": "bot" if change.subject.startswith("bot:") else "person",
        "place": change.place,
        "before": before,
        "after": after,
        "change": after - before,
    }


def _rating(row: RatingRow) -> JSONDict:
    return {"game": row.game, "rating": shown(row.mu, row.sigma), "mu": row.mu, "sigma": row.sigma, "games": row.games}


async def player(request: Request) -> Response:
    """A player's profile: ratings per game, games rated, each rating's history and the recent games."""
    server = server_of(request)
    name = request.path_params["name"]
    key = name_key(name)
    if key in LEVELS:
        subject, shown_name, kind = f"bot:{key}", key, "bot"
    else:
        login = await server.people.accounts.login(key)
        if login is None:
            raise Refusal(Code.NOT_FOUND, "no player has that name")
        subject, shown_name, kind = f"person:{login.account.id}", login.account.name, "person"
    ratings = await server.store.ratings.of(subject)
    changes = [_change(change) for change in await server.store.ratings.changes(subject=subject, limit=HISTORY)]
    history: dict[str, list[JSONDict]] = {}
    for change in reversed(changes):
        history.setdefault(change["game"], []).append({"at": change["at"], "rating": change["after"]})
    body = {
        "name": shown_name,
        "kind": kind,
        "ratings": [_rating(row) for row in ratings],
        "games_played": sum(row.games for row in ratings),
        "history": history,
        "recent": changes[:RECENT],
    }
    return JSONResponse(body)


def _whole(request: Request, name: str, default: int, most: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not (raw.isdigit() and len(raw) < 7) or int(raw) > most:
        raise Refusal(Code.BAD_REQUEST, f"{name} is a whole number, at most {most}")
    return int(raw)


async def leaderboard(request: Request) -> Response:
    """A page of a game's players, the highest rating first."""
    game = request.path_params["game"]
    if not _GAME.fullmatch(game):
        raise Refusal(Code.NOT_FOUND, "no such game")
    limit = max(1, _whole(request, "limit", BOARD_PAGE, BOARD_MOST))
    offset = _whole(request, "offset", 0, 1_000_000)
    rows = await server_of(request).store.ratings.board(game, limit + 1, offset)
    players: list[dict[str, Any]] = [
        {"rank": offset + index + 1, "name": row.name, "kind": "bot" if row.subject.startswith("bot:") else "person"}
        | _rating(row)
        for index, row in enumerate(rows[:limit])
    ]
    return JSONResponse({"game": game, "players": players, "next": offset + limit if len(rows) > limit else None})


async def table_ratings(request: Request) -> Response:
    """The rating changes a table's game made (none: not rated, or not yet)."""
    changes = await server_of(request).store.ratings.changes(table_id=request.path_params["table_id"], limit=16)
    return JSONResponse({"changes": sorted((_change(change) for change in changes), key=lambda c: c["seat"])})


ROUTES = [
    Route("/api/players/{name}", player),
    Route("/api/leaderboard/{game}", leaderboard),
    Route("/api/tables/{table_id}/ratings", table_ratings),
    Route("/players/{name}", functools.partial(page, name="ratings.html")),
    Route("/leaderboard/{game}", functools.partial(page, name="ratings.html")),
]
