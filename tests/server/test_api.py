"""The HTTP API of the real server: games, tables, seats, and every bad request refused with a clear error.

One server runs for the module (``server`` in server_process.py); each test makes tables of its own.
"""

from __future__ import annotations

import asyncio
import json
import random
from functools import partial
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from tests.polling import until
from tests.server.client import Api, Client, HttpError, play_table, request, wait_for
from tests.server.in_process import InProcessServer

from laro.server.table import hash_token

pytestmark = pytest.mark.in_process  # the module's server runs in this process (tests/server/in_process.py)


def test_games_lists_both_games_with_bots_and_options(api: Api) -> None:
    games = {game["name"]: game for game in api.games()}
    assert set(games) == {"lama", "kamara"}
    assert games["lama"]["title"] == "L.A.M.A."
    for name, game in games.items():
        assert 2 <= game["min_players"] <= game["max_players"]
        assert {"heuristic", "random"} <= set(game["bots"]), name
        assert all(
            set(option) == {"name", "default", "help", "choices", "minimum", "maximum"} for option in game["options"]
        )
    kamara_options = {option["name"] for option in games["kamara"]["options"]}
    assert "max_rounds" in kamara_options and not kamara_options & {"tiles", "yellow_cards", "green_cards"}
    assert {option["name"] for option in games["lama"]["options"]} >= {"end_score"}


def test_create_gives_tokens_and_invites_for_human_seats_only(server: InProcessServer, api: Api) -> None:
    status, answer = request(
        server.base, "POST", "/api/tables", {"game": "lama", "players": 4, "bots": {"2": "heuristic", "3": "random"}}
    )
    assert status == 201
    table_id = answer["id"]
    assert [seat["seat"] for seat in answer["seats"]] == [0, 1]
    tokens = [seat["token"] for seat in answer["seats"]]
    assert len(set(tokens)) == 2 and all(len(token) >= 20 for token in tokens)
    for seat in answer["seats"]:  # an invite link names the table, the seat and its token
        invite = urlsplit(seat["invite"])
        assert seat["invite"].startswith("/") and table_id in seat["invite"]
        query = parse_qs(invite.fragment)  # after "#": never sent to a server, never in its logs
        assert query["seat"] == [str(seat["seat"])] and query["token"] == [seat["token"]]
    summary = answer["table"]
    assert summary == api.table(table_id)
    assert summary["id"] == table_id and summary["game"] == "lama" and summary["players"] == 4
    assert summary["status"] == "open" and summary["seq"] == 0 and summary["result"] is None
    kinds = [(seat["kind"], seat["bot"], seat["joined"]) for seat in summary["seats"]]
    humans = [("human", None, False)] * 2
    assert kinds == [*humans, ("bot", "heuristic", True), ("bot", "random", True)]
    assert table_id in [table["id"] for table in api.tables()]
    # the summary never holds a token, a token's hash or the seed
    seed = str(server.stored(table_id).seed)
    for text in (json.dumps(summary), json.dumps(api.table(table_id)), json.dumps(api.tables())):
        for secret in [*tokens, *map(hash_token, tokens), seed]:
            assert secret not in text


def test_a_table_of_bots_runs_at_once_and_stays_readable_when_over(server: InProcessServer, api: Api) -> None:
    created = api.create("lama", 3, {"end_score": 15}, {0: "random", 1: "heuristic", 2: "random"})
    assert created.tokens == {}
    summary = wait_for(api, created.id, lambda s: s["status"] == "over")
    # the last move is stored before anyone hears of it; the store's "finished" mark follows a moment later
    stored = until(partial(server.stored_finished, created.id), "the store never marked the table finished", 10)
    assert stored.finished and stored.final.is_over
    assert summary["seq"] == len(stored.events) and summary["current_player"] is None
    assert summary["result"] == {"winners": list(stored.final.winners), "scores": list(stored.final.scores)}
    names = [seat["name"] for seat in summary["seats"]]
    assert stored.result == {**summary["result"], "players": names}  # the store keeps the names with the result
    assert created.id not in [table["id"] for table in api.tables()]
    assert api.table(created.id) == summary  # read back from the store: the same summary every time


def test_listing_holds_open_and_running_tables_newest_first(api: Api) -> None:
    opened = api.create("lama", 2, bots={1: "random"})
    running = api.seated("kamara", 2, {"max_rounds": 3}, {1: "random"})
    finished = api.create("lama", 2, {"end_score": 10}, {0: "random", 1: "random"})
    wait_for(api, finished.id, lambda s: s["status"] == "over")
    listing = api.tables()
    ids = [table["id"] for table in listing]
    assert opened.id in ids and running.id in ids and finished.id not in ids
    assert ids.index(running.id) < ids.index(opened.id)  # newest first
    assert all(table["status"] in ("open", "running") for table in listing)
    statuses = {table["id"]: table["status"] for table in listing}
    assert statuses[opened.id] == "open" and statuses[running.id] == "running"
    assert [table["created"] for table in listing] == sorted((table["created"] for table in listing), reverse=True)


def test_join_leave_hand_over_to_a_bot_and_take_the_seat_back(server: InProcessServer, api: Api) -> None:
    created = api.create("lama", 3, bots={2: "random"})
    table_id, tokens = created.id, created.tokens
    summary = api.join(table_id, 0, tokens[0], "  Ana \t  Maria  ")
    assert summary["seats"][0]["name"] == "Ana Maria" and summary["seats"][0]["joined"]
    assert summary["status"] == "open" and summary["seq"] == 1
    summary = api.join(table_id, 1, tokens[1], "B" * 100)
    assert summary["seats"][1]["name"] == "B" * 24
    assert summary["status"] == "running" and summary["seq"] >= 2  # the bot may already have played
    # leave: the seat waits for its player, the game goes on
    seq = wait_for(api, table_id, lambda s: s["current_player"] in (0, 1))["seq"]  # the bot has played
    summary = api.leave(table_id, 1, tokens[1])
    assert summary["seats"][1]["joined"] is False and summary["seats"][1]["kind"] == "human"
    assert summary["status"] == "running" and summary["seq"] == seq + 1
    assert api.refused("POST", f"/api/tables/{table_id}/seats/1/leave", {"token": tokens[1]}) == (400, "bad_request")
    summary = api.join(table_id, 1, tokens[1], "Bea")
    assert isinstance(summary["seats"][1].pop("handover_at"), float)  # no connection yet: another may hand it over then
    assert summary["seats"][1] | {"connected": False} == {
        "seat": 1,
        "kind": "human",
        "bot": None,
        "name": "Bea",
        "joined": True,
        "connected": False,
        "standin": "heuristic",
        "away": False,
        "handed": False,
    }
    # hand seat 1 to a bot: it plays the seat until the human takes it back
    summary = api.bot(table_id, 1, tokens[1], "heuristic")
    assert summary["seats"][1]["kind"] == "bot" and summary["seats"][1]["bot"] == "heuristic"

    async def play_until_the_bot_played() -> dict[str, Any]:
        player = await Client.connect(server.ws_base, table_id, tokens[0], name="seat 0")
        rng = random.Random(5)
        bot_moves = 0
        while bot_moves == 0:
            state = await player.wait_state(lambda s: s["your_turn"] or s["table"]["status"] == "over")
            assert state["table"]["status"] != "over", "the game ended before the bot of seat 1 played"
            bot_moves = sum(1 for entry in state["log"] if entry["seat"] == 1 and entry["type"] == "act")
            if bot_moves == 0:
                seq = state["seq"]
                await player.act(rng.choice(state["legal_actions"]), seq)
                await player.wait_state(lambda s, seq=seq: s["seq"] > seq)
        await player.close()
        return state

    state = asyncio.run(play_until_the_bot_played())
    assert state["your_turn"]  # seat 0 is to play: the bot has handed the turn on
    summary = api.join(table_id, 1, tokens[1], "Bea")
    assert summary["seats"][1]["kind"] == "human" and summary["seats"][1]["bot"] is None
    assert summary["seats"][1]["name"] == "Bea" and summary["seats"][1]["joined"]
    stored = server.stored(table_id)
    kinds = [event["type"] for event in stored.events]
    assert kinds[:2] == ["join", "join"] and {"leave", "bot"} <= set(kinds) and kinds[-1] == "join"


def test_seat_requests_that_are_refused_change_nothing(server: InProcessServer, api: Api) -> None:
    created = api.create("lama", 2, bots={1: "random"})
    other = api.create("lama", 2, bots={1: "random"})
    table_id, token = created.id, created.tokens[0]
    api.join(table_id, 0, token, "Ana")
    before = wait_for(api, table_id, lambda s: s["current_player"] == 0)  # the bot has played: all is still
    seats = f"/api/tables/{table_id}/seats"
    cases: list[tuple[str, Any, tuple[int, str]]] = [
        (f"{seats}/0/join", {"token": "wrong", "name": "Eve"}, (403, "bad_token")),
        (f"{seats}/0/join", {"name": "Eve"}, (403, "bad_token")),
        (f"{seats}/0/join", {"token": other.tokens[0], "name": "Eve"}, (403, "bad_token")),
        (f"{seats}/1/join", {"token": token, "name": "Eve"}, (403, "bad_token")),  # a bot's seat, another's token
        (f"{seats}/0/join", {"token": token, "name": "   "}, (400, "bad_request")),
        (f"{seats}/0/leave", {"token": "wrong"}, (403, "bad_token")),
        (f"{seats}/0/bot", {"token": token, "bot": "no-such-bot"}, (400, "bad_request")),
        (f"{seats}/0/bot", {"token": "wrong", "bot": "random"}, (403, "bad_token")),
        (f"{seats}/2/join", {"token": token, "name": "Eve"}, (400, "bad_request")),
        (f"{seats}/-1/join", {"token": token, "name": "Eve"}, (400, "bad_request")),
        (f"{seats}/x/join", {"token": token, "name": "Eve"}, (400, "bad_request")),
        (f"{seats}/0/dance", {"token": token}, (404, "not_found")),
        (f"{seats}/0/join", [token], (400, "malformed")),
        ("/api/tables/no-such-table/seats/0/join", {"token": token, "name": "Eve"}, (404, "no_table")),
    ]
    for path, body, expected in cases:
        assert api.refused("POST", path, body) == expected, (path, body)
    assert api.refused("POST", f"{seats}/0/join", data=b"{not json") == (400, "malformed")
    assert api.refused("POST", f"{seats}/0/join", data=b"x" * 70_000)[1] == "too_large"
    assert api.table(table_id) == before
    assert len(server.stored(table_id).events) == before["seq"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "players": 2}, "bad_request"),
        ({"players": 2}, "bad_request"),
        ({"game": "lama"}, "bad_request"),
        ({"game": "lama", "players": "4"}, "bad_request"),
        ({"game": "lama", "players": True}, "bad_request"),
        ({"game": "lama", "players": 1}, "bad_request"),
        ({"game": "lama", "players": 99}, "bad_request"),
        ({"game": "kamara", "players": 9}, "bad_request"),
        ({"game": "lama", "players": 2, "options": {"no_such_option": 1}}, "bad_request"),
        ({"game": "lama", "players": 2, "options": {"end_score": "many"}}, "bad_request"),
        ({"game": "lama", "players": 2, "options": {"end_score": 0}}, "bad_request"),
        ({"game": "kamara", "players": 2, "options": {"max_rounds": -1}}, "bad_request"),
        ({"game": "lama", "players": 2, "options": [1]}, "bad_request"),
        ({"game": "lama", "players": 2, "bots": {"1": "no-such-bot"}}, "bad_request"),
        ({"game": "lama", "players": 2, "bots": {"2": "random"}}, "bad_request"),
        ({"game": "lama", "players": 2, "bots": {"-1": "random"}}, "bad_request"),
        ({"game": "lama", "players": 2, "bots": {"one": "random"}}, "bad_request"),
        ({"game": "lama", "players": 2, "bots": ["random"]}, "bad_request"),
        ([{"game": "lama", "players": 2}], "malformed"),
        ("lama", "malformed"),
    ],
)
def test_bad_table_requests_are_refused(api: Api, body: Any, code: str) -> None:
    before = {table["id"] for table in api.tables()}
    status, got = api.refused("POST", "/api/tables", body)
    assert (status, got) == (400, code)
    assert {table["id"] for table in api.tables()} == before


def test_bodies_that_are_not_json_or_too_large_are_refused(api: Api) -> None:
    before = {table["id"] for table in api.tables()}
    assert api.refused("POST", "/api/tables", data=b"game=lama&players=2") == (400, "malformed")
    assert api.refused("POST", "/api/tables", data=b"\xff\xfe\x00") == (400, "malformed")
    huge = json.dumps({"game": "lama", "players": 2, "options": {"padding": "x" * 70_000}}).encode()
    assert api.refused("POST", "/api/tables", data=huge) == (413, "too_large")
    assert {table["id"] for table in api.tables()} == before


def test_unknown_tables_are_not_found(api: Api) -> None:
    assert api.refused("GET", "/api/tables/no-such-table") == (404, "no_table")
    assert api.refused("GET", "/api/tables/" + "x" * 200) == (404, "no_table")
    with pytest.raises(HttpError) as refused:
        api.join("nope", 0, "token")
    assert refused.value.status == 404 and refused.value.code == "no_table"


def test_seat_changes_after_the_game_are_refused(server: InProcessServer, api: Api) -> None:
    """A finished table takes no more joins, leaves or bots: whether someone still watches it or not."""
    created = api.seated("lama", 2, {"end_score": 10}, {1: "random"})

    async def play_and_stay() -> None:
        player = await Client.connect(server.ws_base, created.id, created.tokens[0], name="seat 0")
        await player.play(random.Random(3))
        # still connected, so the finished table is still in memory
        for what, body in (("join", {"name": "Ana"}), ("leave", {}), ("bot", {"bot": "random"})):
            path = f"/api/tables/{created.id}/seats/0/{what}"
            assert api.refused("POST", path, {"token": created.tokens[0], **body}) == (409, "game_over")
        await player.close()

    asyncio.run(play_and_stay())
    over = wait_for(api, created.id, lambda s: not s["seats"][0]["connected"])
    for what, body in (("join", {"name": "Ana"}), ("leave", {}), ("bot", {"bot": "random"})):
        path = f"/api/tables/{created.id}/seats/0/{what}"
        assert api.refused("POST", path, {"token": created.tokens[0], **body}) == (409, "game_over")
    assert api.table(created.id) == over and over["status"] == "over"
    stored = server.stored(created.id)
    assert stored.finished and len(stored.events) == over["seq"]


def test_rematch_seats_the_same_players_again(api: Api, server: InProcessServer) -> None:
    """After the game, any of its players may start a rematch: a new table with the same seats, bots and options
    where everyone's token still opens their seat; asking again gives the same table; the finished table points
    to it; nobody else may start it, and not before the end."""
    created = api.seated("lama", 3, {"end_score": 1}, bots={2: "random"})
    status, code = api.refused("POST", f"/api/tables/{created.id}/rematch", {"token": created.tokens[0]})
    assert (status, code) == (409, "not_over")
    asyncio.run(play_table(server.ws_base, created, random.Random(2), spectators=0))
    assert api.refused("POST", f"/api/tables/{created.id}/rematch", {"token": "nope"}) == (403, "bad_token")
    again = api.call("POST", f"/api/tables/{created.id}/rematch", {"token": created.tokens[1]})
    assert again["id"] != created.id and again["status"] == "open" and again["options"] == {"end_score": 1}
    assert [seat["kind"] for seat in again["seats"]] == ["human", "human", "bot"]
    assert api.call("POST", f"/api/tables/{created.id}/rematch", {"token": created.tokens[0]})["id"] == again["id"]
    assert api.table(created.id)["rematch"] == again["id"]
    for seat, token in created.tokens.items():
        api.join(again["id"], seat, token)
    assert api.table(again["id"])["status"] == "running"


def test_health_and_metrics_for_operators(server: InProcessServer, api: Api) -> None:
    """``/healthz`` says the process and its store are up; ``/metrics`` is Prometheus text with the tables, the
    connections, the actions stored and how long changes take."""
    assert request(server.base, "GET", "/healthz") == (200, {"status": "ok"})
    created = api.create("lama", 2, {"end_score": 10}, {0: "random", 1: "random"})
    wait_for(api, created.id, lambda s: s["status"] == "over")
    api.create("kamara", 2)  # one waiting
    status, text = request(server.base, "GET", "/metrics")
    assert status == 200 and isinstance(text, str)
    figures = {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines() if line and line[0] != "#"}
    assert figures["laro_actions_total"] >= 10
    assert figures['laro_tables{status="open"}'] >= 1
    assert figures["laro_action_seconds_count"] >= figures["laro_actions_total"]
    assert "laro_connections" in figures and "laro_store_errors_total" in figures
