"""Accounts over HTTP on the real server: sign up, in and out, names and passwords, the session's cookie, the seats
an account holds ("My games"), and deleting an account; guests and tokens keep working beside them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urlencode

import pytest
from psycopg.conninfo import conninfo_to_dict
from tests.server.accounts_support import Visitor
from tests.server.client import Api, wait_for
from tests.server.in_process import InProcessServer
from tests.server.server_process import RELAXED, Served

from laro.server.store.people import NEUTRAL_NAME

if TYPE_CHECKING:
    from conftest import Backend  # the fixture's type (tests/server/conftest.py)

pytestmark = pytest.mark.in_process  # the module's server runs in this process (tests/server/in_process.py)


def store_url(conninfo: str) -> str:
    """A libpq connection string as the URL ``laro serve --db`` takes (its options, a schema's, kept)."""
    parts = {key: str(value) for key, value in conninfo_to_dict(conninfo).items()}
    return f"postgresql:///{parts.pop('dbname', 'postgres')}?{urlencode(parts, quote_via=quote)}"


@pytest.fixture
def visitor(server: Served) -> Visitor:
    return Visitor(server.port)


def test_sign_up_sign_out_and_the_session_ends_on_the_server(server: Served) -> None:
    ana = Visitor(server.port)
    made = ana.sign_up("Ana Signup", "correct horse")
    assert made["name"] == "Ana Signup" and made["games"] == [] and "password" not in str(made)
    attributes = [part.strip().lower() for part in ana.set_cookie.split(";")]
    assert "httponly" in attributes and "samesite=lax" in attributes and "path=/" in attributes
    assert "secure" not in attributes  # plain http here; --behind-tls sets it
    assert ana.call("GET", "/api/me")["name"] == "Ana Signup"
    kept = ana.cookie
    ana.call("DELETE", "/api/session", expect=204)
    assert ana.cookie is None
    assert Visitor(server.port).call("GET", "/api/me", expect=401)["error"]["code"] == "signed_out"
    ana.cookie = kept  # a copy of the cookie kept after signing out opens nothing: the server forgot the session
    assert ana.call("GET", "/api/me", expect=401)["error"]["code"] == "signed_out"


def test_names_are_one_after_normalisation_and_follow_the_seat_names_rules(visitor: Visitor) -> None:
    visitor.sign_up("Ｊosé")
    for same in ("josé", "JOSE\u0301", "  Jos\u00e9  "):
        assert visitor.call("POST", "/api/accounts", {"name": same, "password": "x" * 8}, 409)["error"]["code"] == (
            "name_taken"
        )
    for bad in ("", "   ", "Ana\u202eLee", "Ana\x07", "x" * 25, "Heuristic", "random", "former player", 7):
        answer = visitor.call("POST", "/api/accounts", {"name": bad, "password": "correct horse"}, 400)
        assert answer["error"]["code"] == "bad_name", bad
    for bad_password in ("short", "x" * 1025, "한" * 342, None):  # 342 Hangul syllables are 1,026 bytes
        answer = visitor.call("POST", "/api/accounts", {"name": "Pass Rules", "password": bad_password}, 400)
        assert answer["error"]["code"] == "bad_password"
    assert visitor.sign_up("Pass Rules", "x" * 1024)["name"] == "Pass Rules"  # 1 KiB exactly is allowed


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(server: Served) -> None:
    Visitor(server.port).sign_up("Bo Signin", "right password")
    wrong = Visitor(server.port).call("POST", "/api/session", {"name": "Bo Signin", "password": "wrong password"}, 401)
    unknown = Visitor(server.port).call("POST", "/api/session", {"name": "Nobody Here", "password": "whatever1"}, 401)
    assert wrong == unknown and wrong["error"]["code"] == "bad_credentials"
    phone, laptop = Visitor(server.port), Visitor(server.port)
    assert phone.sign_in("bo signin", "right password")["name"] == "Bo Signin"  # the name's key signs in
    laptop.sign_in("BO SIGNIN", "right password")
    phone.call("DELETE", "/api/session", expect=204)
    assert laptop.call("GET", "/api/me")["name"] == "Bo Signin"  # each device has a session of its own


def test_a_signed_in_player_finds_their_seat_from_another_device(server: Served) -> None:
    desk = Visitor(server.port)
    desk.sign_up("Cy Seats")
    made = desk.call("POST", "/api/tables", {"game": "lama", "players": 2}, 201)
    table, tokens = made["id"], {seat["seat"]: seat["token"] for seat in made["seats"]}
    joined = desk.call("POST", f"/api/tables/{table}/seats/0/join", {"token": tokens[0], "name": "Someone Else"})
    assert joined["seats"][0]["name"] == "Cy Seats"  # the account's name, whatever the body said
    guest = Api(server.base)  # a guest with an invite link: no account, no cookie, as before
    guest.join(table, 1, tokens[1])
    phone = Visitor(server.port, address="127.0.0.3")
    games = phone.sign_in("cy seats")["games"]
    assert [(g["id"], g["seat"], g["token"], g["status"]) for g in games] == [(table, 0, tokens[0], "running")]
    assert games[0]["invite"] == f"/table/{table}#seat=0&token={tokens[0]}" and games[0]["players"][0] == "Cy Seats"
    assert phone.call("GET", "/api/me")["games"] == games


def test_a_game_over_leaves_my_games(server: Served) -> None:
    player = Visitor(server.port)
    player.sign_up("Di Over")
    made = player.call(
        "POST", "/api/tables", {"game": "lama", "players": 2, "bots": {"1": "random"}, "options": {"end_score": 1}}, 201
    )
    token = made["seats"][0]["token"]
    player.call("POST", f"/api/tables/{made['id']}/seats/0/join", {"token": token})
    assert [game["id"] for game in player.call("GET", "/api/me")["games"]] == [made["id"]]
    player.call("POST", f"/api/tables/{made['id']}/seats/0/bot", {"token": token, "bot": "random"})
    wait_for(Api(server.base), made["id"], lambda summary: summary["status"] == "over")
    assert player.call("GET", "/api/me")["games"] == []


def test_deleting_an_account_keeps_its_games_under_a_neutral_name(server: Served) -> None:
    eve = Visitor(server.port)
    eve.sign_up("Eve Deletes", "eve's password")
    made = eve.call("POST", "/api/tables", {"game": "lama", "players": 2}, 201)
    table, token = made["id"], made["seats"][0]["token"]
    eve.call("POST", f"/api/tables/{table}/seats/0/join", {"token": token})
    assert eve.call("DELETE", "/api/me", {"password": "not eve's one"}, 401)["error"]["code"] == "bad_credentials"
    eve.call("DELETE", "/api/me", {"password": "eve's password"}, 204)
    assert eve.cookie is None and eve.call("GET", "/api/me", expect=401)
    Visitor(server.port).call("POST", "/api/session", {"name": "Eve Deletes", "password": "eve's password"}, 401)
    assert Api(server.base).table(table)["seats"][0]["name"] == NEUTRAL_NAME
    Api(server.base).join(table, 0, token)  # the seat's token still opens it
    Visitor(server.port).sign_up("Eve Deletes")  # and the name is free again


def test_every_changing_request_with_a_cookie_comes_from_the_servers_own_pages(server: Served) -> None:
    ana = Visitor(server.port)
    ana.sign_up("Fay Origin")
    evil = {"Origin": "https://evil.example"}
    for method, path, body in (
        ("POST", "/api/tables", {"game": "lama", "players": 2}),
        ("DELETE", "/api/session", None),
        ("DELETE", "/api/me", {"password": "correct horse"}),
    ):
        status, answer, _ = ana.send(method, path, body, evil)
        assert (status, answer["error"]["code"]) == (403, "cross_origin"), path
    status, _, _ = ana.send("DELETE", "/api/session", None, {"Origin": "null"})
    assert status == 403
    ana.origin = None  # a browser's cross-site request without Origin still says where it came from
    status, _, _ = ana.send("POST", "/api/tables", {"game": "lama", "players": 2}, {"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    assert ana.call("GET", "/api/me")["name"] == "Fay Origin"  # still signed in: nothing changed
    stranger = Visitor(server.port, origin="https://evil.example")  # no cookie: a guest's request is as before
    stranger.call("POST", "/api/tables", {"game": "lama", "players": 2}, 201)
    status, answer, _ = stranger.send("POST", "/api/session", {"name": "Fay Origin", "password": "correct horse"})
    assert (status, answer["error"]["code"]) == (403, "cross_origin")  # nobody is signed in from another site


def test_behind_tls_the_cookie_is_secure_and_the_origin_https(tmp_path: Path) -> None:
    served = InProcessServer(tmp_path / "data", limits=(*RELAXED, "--behind-tls"))
    served.start()
    try:
        plain = Visitor(served.port)
        status, answer, _ = plain.send("POST", "/api/accounts", {"name": "Gil Tls", "password": "correct horse"})
        assert (status, answer["error"]["code"]) == (403, "cross_origin")
        secure = Visitor(served.port, origin=f"https://127.0.0.1:{served.port}")
        secure.sign_up("Gil Tls")
        assert "secure" in [part.strip().lower() for part in secure.set_cookie.split(";")]
    finally:
        served.stop()


def test_on_postgresql_signing_out_on_one_process_ends_the_session_on_the_other(
    backend: Backend, tmp_path: Path
) -> None:
    """Two servers on one PostgreSQL store (as two processes of one site): a session made on one opens the other,
    and once signed out on the second it opens neither."""
    if backend.kind != "postgres":
        return  # one SQLite store belongs to one process: nothing to share
    first = InProcessServer(tmp_path / "one", db=store_url(backend.target))
    second = InProcessServer(tmp_path / "two", db=store_url(backend.target))
    first.start()
    second.start()
    try:
        ana = Visitor(first.port)
        ana.sign_up("Ana Cluster")
        there = Visitor(second.port)
        there.cookie = ana.cookie  # the same browser, its request served by the other process
        assert there.call("GET", "/api/me")["name"] == "Ana Cluster"
        there.call("DELETE", "/api/session", expect=204)
        assert ana.call("GET", "/api/me", expect=401)["error"]["code"] == "signed_out"
        Visitor(second.port).sign_in("ana cluster")  # the account is the other process's too
    finally:
        second.stop()
        first.stop()
