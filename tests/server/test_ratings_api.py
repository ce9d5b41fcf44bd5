"""Ratings over HTTP on the real server: a game of two accounts and a bot, played to its end by stand-ins, moves
every rating; the profiles, the leaderboard and the table's changes say so; a practice game and a guest's are not
rated."""

from __future__ import annotations

from typing import Any

import pytest
from tests.polling import until
from tests.server.accounts_support import Visitor
from tests.server.client import Api, wait_for
from tests.server.server_process import Served

pytestmark = pytest.mark.in_process

QUICK = {"end_score": 1}  # L.A.M.A. over after its first round


def played(server: Served, players: list[Visitor | None], **table: Any) -> str:
    """A L.A.M.A. table whose seats the visitors take (None: a guest), then hand to bots, with a random bot at the
    last seat; its id once the game is over."""
    maker = next(visitor for visitor in players if visitor) if any(players) else Visitor(server.port)
    body = {"game": "lama", "players": len(players) + 1, "bots": {str(len(players)): "random"}, "options": QUICK}
    made = maker.call("POST", "/api/tables", {**body, **table}, 201)
    for seat, visitor in enumerate(players):
        token = made["seats"][seat]["token"]
        joining = visitor or Visitor(server.port)
        joining.call("POST", f"/api/tables/{made['id']}/seats/{seat}/join", {"token": token, "name": f"Guest {seat}"})
    for seat in range(len(players)):  # each player's stand-in plays their seat to the end
        token = made["seats"][seat]["token"]
        Api(server.base).seat(made["id"], seat, "bot", {"token": token, "bot": "random"})
    wait_for(Api(server.base), made["id"], lambda summary: summary["status"] == "over", timeout=60)
    return str(made["id"])


def test_a_rated_game_moves_every_rating_and_the_leaderboard(server: Served) -> None:
    ana, bo = Visitor(server.port), Visitor(server.port)
    ana.sign_up("Ana Rated")
    bo.sign_up("Bo Rated")
    table = played(server, [ana, bo])
    api = Api(server.base)
    changes = until(lambda: api.call("GET", f"/api/tables/{table}/ratings")["changes"], "the game rated")
    assert [(change["seat"], change["name"], change["before"]) for change in changes] == [
        (0, "Ana Rated", 1000),
        (1, "Bo Rated", 1000),
        (2, "random", 1000),
    ]
    assert sorted(change["place"] for change in changes)[0] == 1
    assert all(change["after"] != change["before"] for change in changes)
    profile = api.call("GET", "/api/players/ana%20rated")
    assert profile["name"] == "Ana Rated" and profile["kind"] == "person" and profile["games_played"] == 1
    (rating,) = profile["ratings"]
    assert rating["game"] == "lama" and rating["rating"] == changes[0]["after"] and rating["games"] == 1
    assert profile["history"] == {"lama": [{"at": changes[0]["at"], "rating": changes[0]["after"]}]}
    assert profile["recent"][0]["table"] == table and profile["recent"][0]["change"] == changes[0]["change"]
    assert api.call("GET", "/api/players/random")["kind"] == "bot"
    board = api.call("GET", "/api/leaderboard/lama?limit=2")
    highest = sorted((change["after"] for change in changes), reverse=True)[:2]  # equal places: equal ratings
    assert [entry["rating"] for entry in board["players"]] == highest
    assert board["next"] == 2
    assert api.call("GET", "/api/leaderboard/lama?limit=2&offset=2")["players"][0]["rank"] == 3
    assert api.call("GET", "/api/leaderboard/kamara")["players"] == []


def test_practice_and_guests_are_not_rated(server: Served) -> None:
    cy = Visitor(server.port)
    cy.sign_up("Cy Unrated")
    practice = played(server, [cy], takebacks=True)
    with_guest = played(server, [cy, None])
    rated = played(server, [cy])  # rated once the two before it were looked at (the oldest end first)
    api = Api(server.base)
    until(lambda: api.call("GET", f"/api/tables/{rated}/ratings")["changes"], "the last game rated")
    assert api.call("GET", f"/api/tables/{practice}/ratings")["changes"] == []
    assert api.call("GET", f"/api/tables/{with_guest}/ratings")["changes"] == []
    assert api.call("GET", "/api/players/Cy%20Unrated")["games_played"] == 1
    assert api.call("GET", "/api/players/Nobody%20At%20All", expect=404)["error"]["code"] == "not_found"
