"""The HTTP API as an OpenAPI 3.0 document, served at ``/api/openapi.json`` (docs/protocol.md says it in words).

Every route and every answer it may give is here, so tools can check the server against it (the tests fuzz every
route with schemathesis: no 5xx, every answer as documented).

>>> sorted(DOCUMENT["paths"])[:3]
['/api/accounts', '/api/finished', '/api/games']
"""

from __future__ import annotations

from typing import Any

import laro

__all__ = ["DOCUMENT"]

JSON = dict[str, Any]


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def _answer(description: str, schema: JSON) -> JSON:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, JSON]:
    words = {
        400: "a bad request (the code and message say what)",
        401: "nobody is signed in (signed_out), or no account has that name and password (bad_credentials)",
        403: "a token that opens no such seat, or a request from another site's page (cross_origin)",
        404: "no such table, game, rules language or seat action, or no quick-match ticket",
        409: "the table cannot take it now (stale, over, expired, not started or not over), or a name is taken",
        413: "a body over the size limit",
        429: "too many requests or tables from this address (see Retry-After)",
        503: "the server is full, or cannot read the table (damaged) or its store now",
    }
    return {str(status): _answer(words[status], _ref("Error")) for status in statuses}


def _path_param(name: str, schema: JSON | None = None) -> JSON:
    return {"name": name, "in": "path", "required": True, "schema": schema or {"type": "string"}}


def _query_param(name: str, schema: JSON | None = None, required: bool = False, description: str | None = None) -> JSON:
    param: JSON = {"name": name, "in": "query", "required": required, "schema": schema or {"type": "string"}}
    if description is not None:
        param["description"] = description
    return param


_SEAT = {
    "type": "object",
    "required": ["seat", "kind", "bot", "name", "joined", "connected"],
    "properties": {
        "seat": {"type": "integer"},
        "kind": {"type": "string", "enum": ["human", "bot"]},
        "bot": {"type": "string", "nullable": True},
        "name": {"type": "string", "nullable": True},
        "joined": {"type": "boolean"},
        "connected": {"type": "boolean"},
        "handover_at": {
            "type": "number",
            "nullable": True,
            "description": "from when another player may hand the seat over (unix time); null while its player is here",
        },
    },
}
_SUMMARY = {
    "type": "object",
    "required": ["id", "game", "title", "players", "options", "status", "seq", "seats", "created", "updated"],
    "properties": {
        "id": {"type": "string"},
        "game": {"type": "string"},
        "title": {"type": "string"},
        "players": {"type": "integer"},
        "options": {"type": "object"},
        "status": {
            "type": "string",
            "enum": ["open", "running", "over", "expired", "abandoned", "too_long", "time_up"],
        },
        "seq": {"type": "integer"},
        "current_player": {"type": "integer", "nullable": True},
        "seats": {"type": "array", "items": _ref("Seat")},
        "result": {"type": "object", "nullable": True},
        "rematch": {"type": "string", "nullable": True},
        "takebacks": {"type": "boolean", "description": "created with takebacks allowed (against bots only)"},
        "practice": {"type": "boolean", "description": "an unrated practice game (takebacks allowed)"},
        "takebacks_taken": {"type": "integer", "description": "how many turns were taken back"},
        "spectator_chat": {"type": "boolean", "description": "spectators may write in the chat, not only read it"},
        "created": {"type": "number"},
        "updated": {"type": "number"},
    },
}
_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        }
    },
}
_OPTION = {
    "type": "object",
    "required": ["name", "default", "help"],
    "properties": {
        "name": {"type": "string"},
        "default": {},
        "help": {"type": "string"},
        "choices": {"type": "array", "nullable": True, "items": {}},
        "minimum": {"type": "integer", "nullable": True},
        "maximum": {"type": "integer", "nullable": True},
    },
}
_GAME = {
    "type": "object",
    "required": [
        "name",
        "title",
        "min_players",
        "max_players",
        "score_order",
        "steps",
        "whole_turns",
        "scored_rounds",
        "component_options",
        "components",
        "bots",
        "options",
    ],
    "properties": {
        "name": {"type": "string"},
        "title": {"type": "string"},
        "min_players": {"type": "integer"},
        "max_players": {"type": "integer"},
        "score_order": {"type": "string", "enum": ["low", "high"], "description": "whether low or high scores win"},
        "steps": {
            "type": "array",
            "items": {"type": "string"},
            "description": "first words of the actions a player may take back as a step within their turn",
        },
        "whole_turns": {
            "type": "array",
            "items": {"type": "string"},
            "description": 'first words of the actions that are a whole turn ("*": every action)',
        },
        "scored_rounds": {"type": "boolean", "description": "rounds end with a result, and a table pauses there"},
        "component_options": {
            "type": "array",
            "items": {"type": "string"},
            "description": "options that give component data (not listed in options)",
        },
        "components": {"type": "boolean", "description": "GET /api/games/{game}/components has data to draw"},
        "bots": {"type": "array", "items": {"type": "string"}},
        "options": {"type": "array", "items": _ref("Option")},
    },
}
_CREATE = {
    "type": "object",
    "required": ["game", "players"],
    "properties": {
        "game": {"type": "string", "example": "lama"},
        "players": {"type": "integer", "example": 4},
        "options": {"type": "object", "additionalProperties": True},
        "bots": {"type": "object", "additionalProperties": {"type": "string"}, "example": {"2": "heuristic"}},
        "seed": {"type": "integer", "description": "only on a server started with --allow-seeds"},
        "clock": {
            "description": "a turn clock: a profile's name (none, fast, normal, relaxed, daily) or figures in seconds",
            "oneOf": [
                {"type": "string", "example": "normal"},
                {
                    "type": "object",
                    "properties": {
                        "bank": {"type": "number"},
                        "increment": {"type": "number"},
                        "per_turn": {"type": "number"},
                    },
                    "additionalProperties": False,
                },
            ],
        },
        "standin": {
            "type": "string",
            "description": "the bot that plays for a seat whose player is away or out of time (default: heuristic, "
            "or random for a game without a heuristic bot)",
        },
        "takebacks": {
            "type": "boolean",
            "default": False,
            "description": "a person playing against bots only may take their last turn back (a practice game)",
        },
        "spectator_chat": {
            "type": "boolean",
            "default": False,
            "description": "spectators may write in the table's chat (the WebSocket's chat message), not only read",
        },
    },
}
_CREATED = {
    "type": "object",
    "required": ["id", "seats", "table"],
    "properties": {
        "id": {"type": "string"},
        "seats": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat", "token", "invite"],
                "properties": {"seat": {"type": "integer"}, "token": {"type": "string"}, "invite": {"type": "string"}},
            },
        },
        "table": _ref("Summary"),
    },
}
_PAGE = {
    "type": "object",
    "required": ["tables", "next", "total"],
    "properties": {
        "tables": {"type": "array", "items": _ref("Summary")},
        "next": {"type": "string", "nullable": True},
        "total": {"type": "integer"},
    },
}
_SEAT_REQUEST = {
    "type": "object",
    "required": ["token"],
    "properties": {"token": {"type": "string"}, "name": {"type": "string"}, "bot": {"type": "string"}},
}

_RECORD = {
    "type": "object",
    "description": "a game record (laro-record/1); while the game runs, without its seed and with a view",
    "required": ["format", "game", "rules_version", "num_players", "options", "seed", "actions"],
    "properties": {
        "format": {"type": "string", "enum": ["laro-record/1"]},
        "game": {"type": "string"},
        "rules_version": {"type": "string"},
        "num_players": {"type": "integer"},
        "options": {"type": "object"},
        "seed": {"type": "integer", "nullable": True},
        "players": {"type": "array", "items": {"type": "string"}},
        "bots": {"type": "object", "additionalProperties": {"type": "string"}},
        "actions": {"type": "array", "items": {"type": "string"}},
        "result": {"type": "object", "nullable": True},
        "view": {
            "type": "object",
            "required": ["seat", "seats", "observation"],
            "properties": {
                "seat": {"type": "integer", "nullable": True},
                "seats": {"type": "array", "items": {"type": "integer"}},
                "observation": {"type": "object"},
            },
        },
    },
}
_REPLAY = {
    "type": "object",
    "required": ["game", "num_players", "players", "view", "seed", "result", "steps"],
    "properties": {
        "game": {"type": "string"},
        "title": {"type": "string"},
        "num_players": {"type": "integer"},
        "options": {"type": "object"},
        "players": {"type": "array", "items": {"type": "string", "nullable": True}},
        "bots": {"type": "object", "additionalProperties": {"type": "string"}},
        "view": {"oneOf": [{"type": "integer"}, {"type": "string", "enum": ["open", "spectator"]}]},
        "seed": {"type": "integer"},
        "result": {"type": "object"},
        "steps": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat", "action", "observation"],
                "properties": {
                    "seat": {"type": "integer", "nullable": True},
                    "action": {"type": "string", "nullable": True},
                    "observation": {"type": "object"},
                    "round_over": {},
                    "open": {"type": "array", "items": {"type": "object"}},
                },
            },
        },
    },
}
_DECISION = {
    "type": "object",
    "required": ["move", "played", "best", "played_value", "best_value", "loss", "verdict", "legal", "compared"],
    "properties": {
        "move": {"type": "integer", "description": "the action's number in the record, from 1"},
        "played": {"type": "string"},
        "best": {"type": "string"},
        "played_value": {"type": "number", "description": "the win chance after the move played, 0 to 1"},
        "best_value": {"type": "number"},
        "loss": {"type": "number"},
        "verdict": {"type": "string", "enum": ["good", "inaccuracy", "mistake", "blunder"]},
        "legal": {"type": "integer"},
        "compared": {"type": "array", "items": {"type": "array", "items": {}}},
    },
}
_ANALYSIS = {
    "type": "object",
    "description": "how a seat's analysis stands; once done, the analysis (laro-analysis/1, docs/analysis.md)",
    "required": ["status"],
    "properties": {
        "status": {"type": "string", "enum": ["none", "running", "done", "failed"]},
        "message": {"type": "string"},
        "analysis": {
            "type": "object",
            "required": ["format", "game", "seat", "player", "budget", "seed", "actions", "summary", "decisions"],
            "properties": {
                "format": {"type": "string", "enum": ["laro-analysis/1"]},
                "game": {"type": "string"},
                "seat": {"type": "integer"},
                "player": {"type": "string"},
                "value": {"type": "string"},
                "budget": {"type": "integer"},
                "seed": {"type": "integer"},
                "actions": {"type": "integer"},
                "won": {"type": "boolean", "nullable": True},
                "thresholds": {"type": "object"},
                "summary": {"type": "object"},
                "decisions": {"type": "array", "items": _DECISION},
            },
        },
    },
}
_SEAT_QUERY = _query_param(
    "seat", {"type": "integer", "minimum": 0}, required=True, description="the seat whose decisions are graded"
)
_FINISHED = {
    "type": "object",
    "required": ["games", "next"],
    "properties": {
        "games": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "game", "title", "players", "result", "ended"],
                "properties": {
                    "id": {"type": "string"},
                    "game": {"type": "string"},
                    "title": {"type": "string"},
                    "options": {"type": "object"},
                    "players": {"type": "array", "items": {"type": "string", "nullable": True}},
                    "result": {"type": "object"},
                    "ended": {"type": "number"},
                },
            },
        },
        "next": {"type": "string", "nullable": True},
    },
}
_VIEW = _query_param(
    "view", {"type": "string", "default": "open"}, description="open (every hand), spectator, or a seat's number"
)


_PUSH_SUBSCRIBE = {
    "type": "object",
    "required": ["token", "subscription"],
    "properties": {
        "token": {"type": "string"},
        "subscription": {
            "type": "object",
            "description": "the browser's PushSubscription.toJSON()",
            "required": ["endpoint", "keys"],
            "properties": {
                "endpoint": {"type": "string"},
                "keys": {
                    "type": "object",
                    "required": ["p256dh", "auth"],
                    "properties": {"p256dh": {"type": "string"}, "auth": {"type": "string"}},
                },
            },
        },
    },
}
_PUSH_UNSUBSCRIBE = {
    "type": "object",
    "required": ["token", "endpoint"],
    "properties": {"token": {"type": "string"}, "endpoint": {"type": "string"}},
}
_PUSHED = {
    "type": "object",
    "required": ["seat", "subscribed"],
    "properties": {"seat": {"type": "integer"}, "subscribed": {"type": "boolean"}},
}
_MY_GAME = {
    "type": "object",
    "required": ["id", "game", "title", "status", "seat", "token", "invite", "players", "your_turn", "updated"],
    "properties": {
        "id": {"type": "string"},
        "game": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "string", "enum": ["open", "running"]},
        "seat": {"type": "integer"},
        "token": {"type": "string", "description": "the seat's secret token"},
        "invite": {"type": "string", "description": "the seat's invite link (the token after #)"},
        "players": {"type": "array", "items": {"type": "string", "nullable": True}},
        "your_turn": {"type": "boolean"},
        "updated": {"type": "number"},
    },
}
_ACCOUNT = {
    "type": "object",
    "required": ["name", "created", "games"],
    "properties": {
        "name": {"type": "string"},
        "created": {"type": "number"},
        "games": {"type": "array", "items": _ref("MyGame"), "description": "the tables not over where it holds a seat"},
    },
}
_CREDENTIALS = {
    "type": "object",
    "required": ["name", "password"],
    "properties": {
        "name": {"type": "string", "maxLength": 24, "example": "Ana"},
        "password": {"type": "string", "minLength": 8, "example": "correct horse"},
    },
}
_RATING = {
    "type": "object",
    "required": ["game", "rating", "mu", "sigma", "games"],
    "properties": {
        "game": {"type": "string", "description": "the game and edition: lama, lama-party, kamara"},
        "rating": {"type": "integer", "description": "the rating shown: 40 (mu - 3 sigma) + 1000"},
        "mu": {"type": "number"},
        "sigma": {"type": "number"},
        "games": {"type": "integer"},
    },
}
_RATING_CHANGE = {
    "type": "object",
    "required": ["table", "game", "at", "seat", "name", "kind", "place", "before", "after", "change"],
    "properties": {
        "table": {"type": "string"},
        "game": {"type": "string"},
        "at": {"type": "number"},
        "seat": {"type": "integer"},
        "name": {"type": "string"},
        "kind": {"type": "string", "enum": ["person", "bot"]},
        "place": {"type": "integer", "minimum": 1},
        "before": {"type": "integer"},
        "after": {"type": "integer"},
        "change": {"type": "integer"},
    },
}
_PROFILE = {
    "type": "object",
    "required": ["name", "kind", "ratings", "games_played", "history", "recent"],
    "properties": {
        "name": {"type": "string"},
        "kind": {"type": "string", "enum": ["person", "bot"]},
        "ratings": {"type": "array", "items": _ref("Rating")},
        "games_played": {"type": "integer", "description": "rated games"},
        "history": {
            "type": "object",
            "description": "each game's ratings after each rated game, oldest first",
            "additionalProperties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["at", "rating"],
                    "properties": {"at": {"type": "number"}, "rating": {"type": "integer"}},
                },
            },
        },
        "recent": {"type": "array", "items": _ref("RatingChange")},
    },
}
_BOARD = {
    "type": "object",
    "required": ["game", "players", "next"],
    "properties": {
        "game": {"type": "string"},
        "players": {
            "type": "array",
            "items": {
                "allOf": [
                    _ref("Rating"),
                    {
                        "type": "object",
                        "required": ["rank", "name", "kind"],
                        "properties": {
                            "rank": {"type": "integer"},
                            "name": {"type": "string"},
                            "kind": {"type": "string", "enum": ["person", "bot"]},
                        },
                    },
                ]
            },
        },
        "next": {"type": "integer", "nullable": True, "description": "the offset of the next page, if any"},
    },
}
_TICKET = {
    "type": "object",
    "required": ["status", "game"],
    "description": "waiting: what was asked, the rating it waits with, the seconds waited and the rating window now;"
    " seated: the table, the seat, its token and invite link (the seat is joined under the account's name)",
    "properties": {
        "status": {"type": "string", "enum": ["waiting", "seated"]},
        "game": {"type": "string"},
        "players": {"type": "integer"},
        "clock": {"nullable": True},
        "rating": {"type": "integer"},
        "bots_after": {"type": "number", "nullable": True},
        "waited": {"type": "number"},
        "window": {"type": "integer", "description": "ratings this far from the player's fit them now"},
        "table": {"type": "string"},
        "seat": {"type": "integer"},
        "token": {"type": "string"},
        "invite": {"type": "string", "example": "/table/abc#seat=0&token=…"},
    },
}
_MATCH_REQUEST = {
    "type": "object",
    "required": ["game", "players"],
    "properties": {
        "game": {"type": "string", "example": "lama"},
        "players": {"type": "integer", "minimum": 2, "example": 2},
        "clock": {"description": "a clock profile's name or figures, as for a new table; null: the default"},
        "bots_after": {
            "type": "number",
            "minimum": 0,
            "maximum": 3600,
            "nullable": True,
            "description": "seconds after which bots take the seats no player fills (absent: never)",
        },
    },
}
_SESSION = "The session's secret is set in the cookie laro_session (HttpOnly, SameSite=Lax)."
_NO_CONTENT = {"description": "done; the session's cookie is removed"}


def _body(schema: JSON) -> JSON:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


DOCUMENT: JSON = {
    "openapi": "3.0.3",
    "info": {
        "title": "laro server",
        "version": laro.__version__,
        "description": "Tables of L.A.M.A. and Kamara for people and bots; play is over the WebSocket "
        "/ws/tables/{id} (see docs/protocol.md).",
    },
    "paths": {
        "/api/games": {
            "get": {
                "summary": "The games, their player counts, bots and options",
                "responses": {
                    "200": _answer(
                        "the games",
                        {
                            "type": "object",
                            "required": ["games"],
                            "properties": {"games": {"type": "array", "items": _ref("Game")}},
                        },
                    )
                },
            }
        },
        "/api/games/{game}/rules": {
            "get": {
                "summary": "A game's rules in Markdown",
                "parameters": [
                    _path_param("game"),
                    _query_param("lang"),
                    _query_param("edition", description="an edition with its own rules page: L.A.M.A.'s party"),
                ],
                "responses": {
                    "200": _answer(
                        "the rules",
                        {
                            "type": "object",
                            "required": ["game", "lang", "markdown"],
                            "properties": {
                                "game": {"type": "string"},
                                "lang": {"type": "string"},
                                "markdown": {"type": "string"},
                            },
                        },
                    ),
                    **_errors(404),
                },
            }
        },
        "/api/games/{game}/components": {
            "get": {
                "summary": "A game's public component data (Kamara's tiles and cards)",
                "parameters": [_path_param("game")],
                "responses": {
                    "200": _answer(
                        "the components",
                        {
                            "type": "object",
                            "required": ["game", "components"],
                            "properties": {
                                "game": {"type": "string"},
                                "components": {"type": "object", "nullable": True},
                            },
                        },
                    ),
                    **_errors(404),
                },
            }
        },
        "/api/tables": {
            "post": {
                "summary": "Create a table",
                "requestBody": _body(_ref("CreateTable")),
                "responses": {
                    "201": _answer("the new table and its seats' tokens", _ref("Created")),
                    **_errors(400, 413, 429, 503),
                },
            },
            "get": {
                "summary": "A page of the open and running tables, newest first",
                "parameters": [
                    _query_param("limit", {"type": "integer", "minimum": 1}),
                    _query_param("before"),
                ],
                "responses": {"200": _answer("a page of the lobby", _ref("Page")), **_errors(400)},
            },
        },
        "/api/finished": {
            "get": {
                "summary": "A page of the finished games, newest end first, by the players' names",
                "parameters": [
                    _query_param("limit", {"type": "integer", "minimum": 1}),
                    _query_param("before"),
                ],
                "responses": {"200": _answer("a page of finished games", _ref("FinishedPage")), **_errors(400, 503)},
            }
        },
        "/api/tables/{table_id}": {
            "get": {
                "summary": "A table's public summary",
                "parameters": [_path_param("table_id")],
                "responses": {"200": _answer("the summary", _ref("Summary")), **_errors(404, 503)},
            }
        },
        "/api/tables/{table_id}/seats/{seat}/{what}": {
            "post": {
                "summary": "Join a seat, leave it, or hand it to a bot",
                "parameters": [
                    _path_param("table_id"),
                    _path_param("seat", {"type": "integer"}),
                    _path_param("what", {"type": "string", "enum": ["join", "leave", "bot"]}),
                ],
                "requestBody": _body(_ref("SeatRequest")),
                "responses": {
                    "200": _answer("the summary", _ref("Summary")),
                    **_errors(400, 403, 404, 409, 413, 429, 503),
                },
            }
        },
        "/api/tables/{table_id}/seats/{seat}/push": {
            "post": {
                "summary": "Keep a browser's push subscription with a seat, to be told of its turns",
                "parameters": [_path_param("table_id"), _path_param("seat", {"type": "integer"})],
                "requestBody": _body(_PUSH_SUBSCRIBE),
                "responses": {
                    "201": _answer("kept", _PUSHED),
                    **_errors(400, 403, 404, 409, 413, 429, 503),
                },
            },
            "delete": {
                "summary": "Forget a browser's push subscription of a seat",
                "parameters": [_path_param("table_id"), _path_param("seat", {"type": "integer"})],
                "requestBody": _body(_PUSH_UNSUBSCRIBE),
                "responses": {"200": _answer("forgotten", _PUSHED), **_errors(400, 403, 404, 413, 429, 503)},
            },
        },
        "/api/push": {
            "get": {
                "summary": "The server's public key for push subscriptions (applicationServerKey)",
                "responses": {
                    "200": _answer(
                        "the key, base64url",
                        {"type": "object", "required": ["key"], "properties": {"key": {"type": "string"}}},
                    ),
                    **_errors(404),
                },
            }
        },
        "/api/tables/{table_id}/rematch": {
            "post": {
                "summary": "Play a finished game again, at a new table",
                "parameters": [_path_param("table_id")],
                "requestBody": _body(
                    {"type": "object", "required": ["token"], "properties": {"token": {"type": "string"}}}
                ),
                "responses": {
                    "200": _answer("the new table's summary", _ref("Summary")),
                    **_errors(400, 403, 404, 409, 413, 429, 503),
                },
            }
        },
        "/api/tables/{table_id}/record": {
            "get": {
                "summary": "The table's game record: the whole game once over, else what its reader may know",
                "description": "A seat reads its own view of a running game with its token in the header "
                "Authorization: Bearer TOKEN; without it, a spectator's.",
                "parameters": [_path_param("table_id")],
                "responses": {"200": _answer("the record", _ref("Record")), **_errors(403, 404, 503)},
            }
        },
        "/api/tables/{table_id}/replay": {
            "get": {
                "summary": "A finished table's game, step by step, as one view saw it",
                "parameters": [_path_param("table_id"), _VIEW],
                "responses": {"200": _answer("every step", _ref("Replay")), **_errors(400, 404, 409, 429, 503)},
            }
        },
        "/api/tables/{table_id}/analysis": {
            "get": {
                "summary": "How the move analysis of one seat of a finished table stands, and the analysis once done",
                "parameters": [_path_param("table_id"), _SEAT_QUERY],
                "responses": {
                    "200": _answer("done, failed, or never asked for", _ref("Analysis")),
                    "202": _answer("being made", _ref("Analysis")),
                    **_errors(400, 404, 409, 429, 503),
                },
            },
            "post": {
                "summary": "Analyse one seat's moves in a finished table (made once, in a worker, then kept)",
                "parameters": [_path_param("table_id")],
                "requestBody": _body(
                    {"type": "object", "required": ["seat"], "properties": {"seat": {"type": "integer", "minimum": 0}}}
                ),
                "responses": {
                    "200": _answer("the analysis, made before", _ref("Analysis")),
                    "202": _answer("being made: ask with GET until it is done", _ref("Analysis")),
                    **_errors(400, 404, 409, 413, 429, 503),
                },
            },
        },
        "/api/replay": {
            "post": {
                "summary": "A game record (with its seed), step by step, as one view saw it",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["record"],
                        "properties": {"record": _ref("Record"), "view": {"type": "string", "example": "open"}},
                    }
                ),
                "responses": {"200": _answer("every step", _ref("Replay")), **_errors(400, 413, 429)},
            }
        },
        "/api/accounts": {
            "post": {
                "summary": "Make an account, and sign in to it",
                "description": _SESSION,
                "requestBody": _body(_ref("Credentials")),
                "responses": {
                    "201": _answer("the account, signed in", _ref("Account")),
                    **_errors(400, 403, 409, 413, 429, 503),
                },
            }
        },
        "/api/session": {
            "post": {
                "summary": "Sign in",
                "description": _SESSION,
                "requestBody": _body(_ref("Credentials")),
                "responses": {
                    "200": _answer("the account, signed in, with its games", _ref("Account")),
                    **_errors(400, 401, 403, 413, 429, 503),
                },
            },
            "delete": {
                "summary": "Sign out: the session ends on every process",
                "responses": {"204": _NO_CONTENT, **_errors(403, 503)},
            },
        },
        "/api/me": {
            "get": {
                "summary": "Who is signed in, and the tables not over where they hold a seat",
                "responses": {"200": _answer("the account", _ref("Account")), **_errors(401, 503)},
            },
            "delete": {
                "summary": "Delete the signed-in account; its games keep a neutral name",
                "requestBody": _body(
                    {"type": "object", "required": ["password"], "properties": {"password": {"type": "string"}}}
                ),
                "responses": {"204": _NO_CONTENT, **_errors(400, 401, 403, 413, 429, 503)},
            },
        },
        "/api/players/{name}": {
            "get": {
                "summary": "A player's profile (an account's name, or a bot level's): ratings, history, recent games",
                "parameters": [_path_param("name")],
                "responses": {"200": _answer("the profile", _ref("Profile")), **_errors(404, 503)},
            }
        },
        "/api/leaderboard/{game}": {
            "get": {
                "summary": "A page of a game's (and edition's) players, the highest rating first",
                "parameters": [
                    _path_param("game"),
                    _query_param("limit", {"type": "integer", "minimum": 1, "maximum": 100}),
                    _query_param("offset", {"type": "integer", "minimum": 0}),
                ],
                "responses": {
                    "200": _answer("a page of the leaderboard", _ref("Leaderboard")),
                    **_errors(400, 404, 503),
                },
            }
        },
        "/api/tables/{table_id}/ratings": {
            "get": {
                "summary": "The rating changes a table's game made (none: not rated, or not yet)",
                "parameters": [_path_param("table_id")],
                "responses": {
                    "200": _answer(
                        "the changes, by seat",
                        {
                            "type": "object",
                            "required": ["changes"],
                            "properties": {"changes": {"type": "array", "items": _ref("RatingChange")}},
                        },
                    ),
                    **_errors(503),
                },
            }
        },
        "/api/match": {
            "post": {
                "summary": "Wait in the quick-match queue for a table of the game (signed in)",
                "description": "Replaces the player's earlier ticket. Players of the same game, number of players and"
                " clock whose ratings are close are seated together at a new table as soon as enough wait; the"
                " window of close ratings widens the longer they wait. GET /api/match?wait=N tells of the table.",
                "requestBody": _body(_MATCH_REQUEST),
                "responses": {
                    "202": _answer("the ticket, waiting", _ref("Ticket")),
                    **_errors(400, 401, 403, 413, 429, 503),
                },
            },
            "get": {
                "summary": "The player's ticket; with wait=N (a long poll), answered once seated or after N seconds",
                "parameters": [_query_param("wait", {"type": "number", "minimum": 0, "maximum": 30})],
                "responses": {"200": _answer("the ticket", _ref("Ticket")), **_errors(400, 401, 404, 503)},
            },
            "delete": {
                "summary": "Leave the quick-match queue",
                "responses": {"204": {"description": "left"}, **_errors(401, 403, 404, 503)},
            },
        },
        "/api/online": {
            "get": {
                "summary": "How many people are online (at a table, connected, or waiting) and how many wait per game",
                "responses": {
                    "200": _answer(
                        "the counts",
                        {
                            "type": "object",
                            "required": ["online", "waiting"],
                            "properties": {
                                "online": {"type": "integer"},
                                "waiting": {"type": "object", "additionalProperties": {"type": "integer"}},
                            },
                        },
                    ),
                    **_errors(503),
                },
            }
        },
        "/healthz": {
            "get": {
                "summary": "The process is up and its store answers",
                "responses": {
                    "200": _answer(
                        "healthy",
                        {"type": "object", "required": ["status"], "properties": {"status": {"type": "string"}}},
                    ),
                    "503": _answer("the store does not answer", {"type": "object", "required": ["status"]}),
                },
            }
        },
        "/metrics": {
            "get": {
                "summary": "The server's figures in the Prometheus text format",
                "responses": {
                    "200": {"description": "the figures", "content": {"text/plain": {"schema": {"type": "string"}}}}
                },
            }
        },
        "/api/openapi.json": {
            "get": {"summary": "This document", "responses": {"200": _answer("the document", {"type": "object"})}}
        },
    },
    "components": {
        "schemas": {
            "Seat": _SEAT,
            "Summary": _SUMMARY,
            "Error": _ERROR,
            "Option": _OPTION,
            "Game": _GAME,
            "CreateTable": _CREATE,
            "Created": _CREATED,
            "Page": _PAGE,
            "SeatRequest": _SEAT_REQUEST,
            "Record": _RECORD,
            "FinishedPage": _FINISHED,
            "Replay": _REPLAY,
            "Analysis": _ANALYSIS,
            "Credentials": _CREDENTIALS,
            "Account": _ACCOUNT,
            "MyGame": _MY_GAME,
            "Rating": _RATING,
            "RatingChange": _RATING_CHANGE,
            "Profile": _PROFILE,
            "Leaderboard": _BOARD,
            "Ticket": _TICKET,
            "MatchRequest": _MATCH_REQUEST,
        }
    },
}
