"""The games this server offers: what each declares (``GET /api/games``), its rules page and its components.

>>> sorted(route.path for route in ROUTES)
['/api/games', '/api/games/{game}/components', '/api/games/{game}/rules']
"""

from __future__ import annotations

import logging
import re

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laro.bots import offered_bots
from laro.core import ComponentSource, Game, JSONDict, LaroError, component_data, get_game, list_games, traits_of
from laro.server.clocks import profiles
from laro.server.errors import Code, Refusal

__all__ = ["ROUTES", "components", "games", "rules"]

log = logging.getLogger("laro.server")
_LANGUAGE = re.compile(r"[a-z]{2}")


async def games(request: Request) -> Response:
    """Every game that can be loaded, as it declares itself, and the clocks a table may have."""
    found = []
    for name in list_games():
        try:
            game = get_game(name)
        except LaroError as error:  # an installed package's game that cannot be loaded is left out
            log.warning("%s", error)
            continue
        found.append(_declared(name, game))
    return JSONResponse({"games": found, "clocks": profiles()})


def _declared(name: str, game: Game) -> JSONDict:
    traits = traits_of(game)
    return {
        "name": name,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "score_order": game.score_order,
        **traits.to_json(),
        "components": isinstance(game, ComponentSource),
        "bots": offered_bots(name),
        "options": [
            {
                "name": spec.name,
                "default": spec.default,
                "help": spec.help,
                "choices": spec.choices,
                "minimum": spec.minimum,
                "maximum": spec.maximum,
            }
            for spec in game.option_specs
            if spec.name not in traits.component_options
        ],
    }


async def rules(request: Request) -> Response:
    """A game's rules in Markdown, in a language (``?lang=``) and for an edition (``?edition=``)."""
    name, lang = request.path_params["game"], request.query_params.get("lang", "en")
    try:
        game = get_game(name)
    except LaroError:
        raise Refusal(Code.NOT_FOUND, f"no game {name[:40]!r}; games: {', '.join(list_games())}") from None
    if not _LANGUAGE.fullmatch(lang):
        raise Refusal(Code.NOT_FOUND, f"no rules in language {lang[:12]!r}; try 'en' or 'ko'")
    edition = request.query_params.get("edition")  # a game's edition has its own rules page
    try:
        text = game.rules_text(lang, None if edition is None else {"edition": edition})
    except (LaroError, ValueError) as error:
        raise Refusal(Code.NOT_FOUND, str(error)) from None
    return JSONResponse({"game": name, "lang": lang, "markdown": text})


async def components(request: Request) -> Response:
    """The public component data of a game (Kamara's tiles and cards), for drawing it; null if it has none."""
    try:
        game = get_game(request.path_params["game"])
    except LaroError:
        raise Refusal(Code.NOT_FOUND, f"no game {request.path_params['game'][:40]!r}") from None
    return JSONResponse({"game": game.name, "components": component_data(game)})


ROUTES = [
    Route("/api/games", games),
    Route("/api/games/{game}/rules", rules),
    Route("/api/games/{game}/components", components),
]
