"""Records and replays: a table's game record, a finished table replayed step by step as one view saw it, and a
record sent by the client replayed (made in a worker process, see :mod:`laro.server.replay_workers`).

>>> sorted(route.path for route in ROUTES)
['/api/replay', '/api/tables/{table_id}/record', '/api/tables/{table_id}/replay']
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laro.core import GameRecord, RecordError
from laro.server.errors import Code, Refusal
from laro.server.records import record_of
from laro.server.replays import parse_view, table_knows
from laro.server.routes.common import address, bearer_seat, read_body, server_of, table_at, throttle

__all__ = ["ROUTES", "record_replay", "table_record", "table_replay"]


async def table_record(request: Request) -> Response:
    """The table's game record: the whole game once over, else what the reader (a seat by its token) may know."""
    table = await table_at(request)
    reader = bearer_seat(request, table)
    headers = {"Content-Disposition": f'attachment; filename="laro-{table.game.name}-{table.meta.id}.json"'}
    return JSONResponse(record_of(table, reader), headers=headers)


async def table_replay(request: Request) -> Response:
    """A finished table's game step by step, as one view saw it."""
    server = server_of(request)
    throttle(server.seat_calls, request, "replay requests")
    table = await table_at(request)
    if not table.over:
        raise Refusal(Code.NOT_OVER, "a game is replayed once it is over")
    view = parse_view(request.query_params.get("view", "open"), table.meta.num_players)
    made = await server.replays.render(
        address(request), record_of(table, None), view, _gzip(request), table=table_knows(table)
    )
    return _replay_response(*made)


async def record_replay(request: Request) -> Response:
    """A game record sent by the client (a file), step by step as one view saw it."""
    server = server_of(request)
    throttle(server.seat_calls, request, "replay requests")
    body = await read_body(request, server.bounds.record_bytes)
    try:
        record = GameRecord.from_json(body.get("record"))
    except RecordError as error:
        raise Refusal(Code.BAD_RECORD, str(error)) from None
    view = parse_view(body.get("view", "open"), record.num_players)
    made = await server.replays.render(address(request), record.to_json(), view, _gzip(request))
    return _replay_response(*made)


def _gzip(request: Request) -> bool:
    """The client takes a gzip-compressed answer."""
    return "gzip" in request.headers.get("accept-encoding", "").lower()


def _replay_response(body: bytes, encoding: str | None) -> Response:
    """A replay made in a worker: its bytes as they came (compressed there if the client takes it)."""
    headers = {"Content-Encoding": encoding, "Vary": "Accept-Encoding"} if encoding else None
    return Response(body, media_type="application/json", headers=headers)


ROUTES = [
    Route("/api/tables/{table_id}/record", table_record),
    Route("/api/tables/{table_id}/replay", table_replay),
    Route("/api/replay", record_replay, methods=["POST"]),
]
