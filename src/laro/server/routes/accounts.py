"""Accounts and sessions: sign up, sign in and out, who is signed in (with their running games), delete.

A session lives in the cookie ``laro_session`` (``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the server is
told it is reached over TLS, ``laro serve --behind-tls``). :class:`SameOrigin` refuses (``cross_origin``) every
request that changes something and carries that cookie unless it comes from the server's own origin, and the
account endpoints check the origin even without a cookie (no signing a browser into someone else's account).

>>> sorted({(route.path, method) for route in ROUTES for method in route.methods or () if method != "HEAD"})
[('/api/accounts', 'POST'), ('/api/me', 'DELETE'), ('/api/me', 'GET'), ('/api/session', 'DELETE'), \
('/api/session', 'POST')]
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from laro.core import JSONDict
from laro.server.accounts import SESSION_SECONDS
from laro.server.errors import Code, Refusal
from laro.server.routes.common import address, read_body, refused, server_of
from laro.server.store.people import NEUTRAL_NAME, Account
from laro.server.table import views

__all__ = ["COOKIE", "ROUTES", "SameOrigin", "my_games", "signed_in"]

COOKIE = "laro_session"
MY_GAMES = 50  # the newest seats an account holds that "My games" looks at
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


def own_origin(connection: HTTPConnection) -> str:
    """The server's origin as the client reached it: its ``Host``, over https behind TLS."""
    scheme = "https" if server_of(connection).behind_tls else connection.url.scheme.replace("ws", "http")
    return f"{scheme}://{connection.headers.get('host', '')}"


def check_origin(connection: HTTPConnection) -> None:
    """Refuse (``cross_origin``) a request a browser sent from another site: its ``Origin`` is not the server's,
    or, without one, its ``Sec-Fetch-Site`` says another site sent it. A client that is no browser sends
    neither, and holds no one else's cookie."""
    origin = connection.headers.get("origin")
    if origin is not None:
        if origin != own_origin(connection):
            raise Refusal(Code.CROSS_ORIGIN, "this request must come from the server's own pages")
    elif connection.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise Refusal(Code.CROSS_ORIGIN, "this request must come from the server's own pages")


class SameOrigin:
    """Middleware: a request that may change something (not GET, HEAD or OPTIONS) with a session cookie is
    refused unless it comes from the server's own origin."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in _SAFE:
            request = Request(scope)
            if COOKIE in request.cookies:
                try:
                    check_origin(request)
                except Refusal as refusal:
                    answer = await refused(request, refusal)
                    assert answer is not None
                    await answer(scope, receive, send)
                    return
        await self.app(scope, receive, send)


async def signed_in(connection: HTTPConnection) -> Account | None:
    """The account whose session cookie the request carries, while the session lasts."""
    return await server_of(connection).people.signed_in(connection.cookies.get(COOKIE))


async def _signed_in_or_401(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise Refusal(Code.SIGNED_OUT, "nobody is signed in here")
    return account


def _with_session(answer: Response, request: Request, secret: str | None) -> Response:
    """The answer, setting the session's cookie (or, for None, removing it)."""
    secure = server_of(request).behind_tls
    if secret is None:
        answer.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
    else:
        answer.set_cookie(
            COOKIE, secret, max_age=int(SESSION_SECONDS), path="/", secure=secure, httponly=True, samesite="lax"
        )
    return answer


def _account(account: Account, games: list[JSONDict]) -> JSONDict:
    return {"name": account.name, "created": account.created, "games": games}


async def sign_up(request: Request) -> Response:
    """A new account (and its session)."""
    check_origin(request)
    server = server_of(request)
    body = await read_body(request, server.bounds.body_bytes)
    account, secret = await server.people.sign_up(body.get("name"), body.get("password"), address(request))
    return _with_session(JSONResponse(_account(account, []), status_code=201), request, secret)


async def sign_in(request: Request) -> Response:
    """Sign in: a new session of the account with that name and password."""
    check_origin(request)
    server = server_of(request)
    body = await read_body(request, server.bounds.body_bytes)
    account, secret = await server.people.sign_in(body.get("name"), body.get("password"), address(request))
    return _with_session(JSONResponse(_account(account, await my_games(request, account))), request, secret)


async def sign_out(request: Request) -> Response:
    """Sign out: the session ends on every process."""
    check_origin(request)
    secret = request.cookies.get(COOKIE)
    if secret:
        await server_of(request).people.sign_out(secret)
    return _with_session(Response(status_code=204), request, None)


async def me(request: Request) -> Response:
    """Who is signed in, and their running games."""
    account = await _signed_in_or_401(request)
    return JSONResponse(_account(account, await my_games(request, account)))


async def delete_me(request: Request) -> Response:
    """Delete the signed-in account (its password given again) and its personal data."""
    check_origin(request)
    server = server_of(request)
    account = await _signed_in_or_401(request)
    body = await read_body(request, server.bounds.body_bytes)
    held = await server.people.delete(account, body.get("password"), address(request))
    for table_id, seat in held:  # a table this process holds in memory forgets the name too
        table = await server.hub.get(table_id)
        if table is not None and not table.over and table.seats[seat].name == account.name:
            table.seats[seat].name = NEUTRAL_NAME
    return _with_session(Response(status_code=204), request, None)


async def my_games(request: Request, account: Account) -> list[JSONDict]:
    """The account's tables that are not over, newest seat first, each with the seat's token and invite link."""
    server = server_of(request)
    games: list[JSONDict] = []
    for link in await server.people.accounts.seats(account.id, MY_GAMES):
        table = await server.hub.get(link.table_id)
        if table is None or table.over:
            continue
        summary: dict[str, Any] = views.summary(table)
        games.append(
            {
                "id": link.table_id,
                "game": summary["game"],
                "title": summary["title"],
                "status": summary["status"],
                "seat": link.seat,
                "token": link.token,
                "invite": link.invite,
                "players": [seat["name"] for seat in summary["seats"]],
                "your_turn": summary["current_player"] == link.seat and summary["status"] == "running",
                "updated": summary["updated"],
            }
        )
    return games


ROUTES = [
    Route("/api/accounts", sign_up, methods=["POST"]),
    Route("/api/session", sign_in, methods=["POST"]),
    Route("/api/session", sign_out, methods=["DELETE"]),
    Route("/api/me", me, methods=["GET"]),
    Route("/api/me", delete_me, methods=["DELETE"]),
]
