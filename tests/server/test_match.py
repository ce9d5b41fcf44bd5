"""Quick match over HTTP on the real server: two accounts meet at one table, leaving the queue, bots after the
chosen wait, the lobby's counts; two servers on one PostgreSQL store never seat a player twice."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from tests.server.accounts_support import Visitor
from tests.server.in_process import InProcessServer
from tests.server.server_process import Served
from tests.server.test_accounts import store_url

if TYPE_CHECKING:
    from conftest import Backend  # the fixture's type (tests/server/conftest.py)

pytestmark = pytest.mark.in_process  # the module's server runs in this process (tests/server/in_process.py)

_ADDRESSES = (f"127.0.{n // 250}.{2 + n % 250}" for n in itertools.count(40))  # a stranger each


def _player(port: int, name: str) -> Visitor:
    player = Visitor(port, address=next(_ADDRESSES))
    player.sign_up(name)
    return player


def _seated(player: Visitor, deadline: float = 20.0) -> Any:
    """The player's ticket once seated (long polls until then, within ``deadline`` seconds)."""
    waited = 0.0
    while waited < deadline:
        ticket = player.call("GET", "/api/match?wait=5")
        if ticket["status"] == "seated":
            return ticket
        waited += 5
    raise AssertionError(f"not seated in {deadline} s: {ticket}")


def test_two_accounts_meet_at_one_table(server: Served) -> None:
    ana, bo = _player(server.port, "Ana Match"), _player(server.port, "Bo Match")
    waiting = ana.call("POST", "/api/match", {"game": "kamara", "players": 2, "clock": "fast"}, expect=202)
    assert waiting["status"] == "waiting" and waiting["rating"] == 1000 and waiting["window"] == 100
    assert ana.call("GET", "/api/match?wait=0.2")["status"] == "waiting"  # alone: nobody to meet yet
    bo.call("POST", "/api/match", {"game": "kamara", "players": 2, "clock": "fast"}, expect=202)
    first, second = _seated(ana), _seated(bo)
    assert first["table"] == second["table"] and {first["seat"], second["seat"]} == {0, 1}
    assert first["invite"] == f"/table/{first['table']}#seat={first['seat']}&token={first['token']}"
    table = ana.call("GET", f"/api/tables/{first['table']}")
    names = {seat["name"] for seat in table["seats"]}
    assert names == {"Ana Match", "Bo Match"} and table["status"] == "running"
    assert [game["id"] for game in bo.call("GET", "/api/me")["games"]] == [first["table"]]  # on the account


def test_different_games_and_clocks_do_not_meet(server: Served) -> None:
    ana, bo = _player(server.port, "Ana Apart"), _player(server.port, "Bo Apart")
    ana.call("POST", "/api/match", {"game": "lama", "players": 2, "clock": "fast"}, expect=202)
    bo.call("POST", "/api/match", {"game": "lama", "players": 2, "clock": "normal"}, expect=202)
    assert bo.call("GET", "/api/match?wait=1.5")["status"] == "waiting"
    assert ana.call("GET", "/api/online")["waiting"].get("lama") == 2
    ana.call("DELETE", "/api/match", expect=204)
    bo.call("DELETE", "/api/match", expect=204)


def test_leaving_the_queue(server: Served) -> None:
    ana, bo = _player(server.port, "Ana Leaves"), _player(server.port, "Bo Stays")
    ana.call("POST", "/api/match", {"game": "lama", "players": 3, "clock": None}, expect=202)
    assert ana.call("GET", "/api/online")["waiting"].get("lama") == 1
    ana.call("DELETE", "/api/match", expect=204)
    assert ana.call("GET", "/api/match", expect=404)["error"]["code"] == "not_found"
    assert ana.call("DELETE", "/api/match", expect=404)["error"]["code"] == "not_found"
    assert "lama" not in ana.call("GET", "/api/online")["waiting"]
    bo.call("POST", "/api/match", {"game": "lama", "players": 3, "clock": None, "bots_after": 0.3}, expect=202)
    ticket = _seated(bo)  # alone with bots: Ana, who left, is not at the table
    table = bo.call("GET", f"/api/tables/{ticket['table']}")
    assert [seat["name"] for seat in table["seats"] if not seat["bot"]] == ["Bo Stays"]


def test_bots_fill_the_seats_after_the_chosen_wait(server: Served) -> None:
    ana = _player(server.port, "Ana Bots")
    ana.call("POST", "/api/match", {"game": "lama", "players": 4, "clock": None, "bots_after": 2}, expect=202)
    assert ana.call("GET", "/api/match?wait=1")["status"] == "waiting"  # not before the chosen wait
    ticket = _seated(ana)
    table = ana.call("GET", f"/api/tables/{ticket['table']}")
    assert sorted(str(seat["bot"]) for seat in table["seats"]) == ["None", "medium", "medium", "medium"]
    assert table["seats"][ticket["seat"]]["name"] == "Ana Bots"


def test_what_a_quick_match_refuses(server: Served) -> None:
    guest = Visitor(server.port, address=next(_ADDRESSES))
    body = {"game": "lama", "players": 2, "clock": None}
    assert guest.call("POST", "/api/match", body, expect=401)["error"]["code"] == "signed_out"
    assert guest.call("GET", "/api/match", expect=401)["error"]["code"] == "signed_out"
    ana = _player(server.port, "Ana Refused")
    for wrong in ({"game": "chess", "players": 2}, {"game": "lama", "players": 9}, {"game": "lama", "players": 1},
                  body | {"clock": "glacial"}, body | {"bots_after": -1}, body | {"bots_after": "soon"}):  # fmt: skip
        assert ana.call("POST", "/api/match", wrong, expect=400)["error"]["code"] == "bad_request", wrong
    assert ana.call("GET", "/api/match?wait=99", expect=400)["error"]["code"] == "bad_request"
    other = Visitor(server.port, address=next(_ADDRESSES), origin="https://elsewhere.example")
    other.cookie = ana.cookie
    assert other.call("POST", "/api/match", body, expect=403)["error"]["code"] == "cross_origin"


def test_on_postgresql_two_servers_never_seat_a_player_twice(backend: Backend, tmp_path: Path) -> None:
    """Eight players ask on two servers of one PostgreSQL store at once, both matching the same queue: each
    player is seated once, at one table of two of them."""
    if backend.kind != "postgres":
        return  # one SQLite store belongs to one process: nothing to share
    servers = [InProcessServer(tmp_path / name, db=store_url(backend.target)) for name in ("one", "two")]
    for served in servers:
        served.start()
    try:
        players = [_player(servers[n % 2].port, f"Racer {n}") for n in range(8)]
        for player in players:
            player.call("POST", "/api/match", {"game": "lama", "players": 2, "clock": None}, expect=202)
        tickets = [_seated(player) for player in players]
        assert Counter(Counter(ticket["table"] for ticket in tickets).values()) == {2: 4}
        for player, ticket in zip(players, tickets, strict=True):  # one table each, on either server
            mine = player.call("GET", "/api/me")["games"]
            assert [game["id"] for game in mine] == [ticket["table"]]
        seats = Counter((ticket["table"], ticket["seat"]) for ticket in tickets)
        assert set(seats.values()) == {1}
    finally:
        for served in servers:
            served.stop()


def test_the_queue_survives_a_restart(tmp_path: Path) -> None:
    served = InProcessServer(tmp_path / "data")
    served.start()
    try:
        ana = _player(served.port, "Ana Restart")
        ana.call("POST", "/api/match", {"game": "lama", "players": 2, "clock": None}, expect=202)
        served.stop()
        served.start()  # the same store: Ana still waits, and meets who comes next
        assert ana.call("GET", "/api/match")["status"] == "waiting"
        bo = _player(served.port, "Bo Restart")
        bo.call("POST", "/api/match", {"game": "lama", "players": 2, "clock": None}, expect=202)
        assert _seated(ana)["table"] == _seated(bo)["table"]
    finally:
        served.stop()
