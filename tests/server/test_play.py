"""Whole games on the real server between WebSocket clients and bots, watched by spectators; two clients racing
for the same turn; and clients that misbehave (never read, or flood garbage) without stalling anyone else.

Human clients play random legal actions from the ``legal_actions`` they are sent. After each game the table is
read back from the server's store and replayed, so the final state every client saw is checked against the game
itself.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from typing import Any

import pytest
from tests.server.client import Api, Client, Closed, Created, RawSocket, play_table
from tests.server.in_process import InProcessServer
from tests.server.server_process import RELAXED, Served, ServerProcess, StoredGame

pytestmark = pytest.mark.in_process  # the module's server runs in this process (tests/server/in_process.py)

Message = dict[str, Any]
SEND_TIMEOUT = 2.0  # seconds a client may leave a message unread (laro serve --send-timeout)


def check_final(server: Served, created: Created, players: list[Client], watchers: list[Client]) -> StoredGame:
    """Every client saw the end: the right observation for its seat, the result, and nothing refused but races."""
    stored = server.stored(created.id)
    final = stored.final
    assert final.is_over and stored.finished
    result = {"winners": list(final.winners), "scores": list(final.scores)}
    summary = Api(server.base).table(created.id)
    assert stored.result == {**result, "players": [seat["name"] for seat in summary["seats"]]}  # names kept too
    assert summary["status"] == "over" and summary["result"] == result and summary["seq"] == len(stored.events)
    assert sorted(client.state["seat"] for client in players if client.state) == sorted(created.tokens)[: len(players)]
    for client in players:
        state = client.state
        assert state is not None and state["seq"] == len(stored.events)
        seat = state["seat"]
        assert state["observation"] == final.observation(seat)
        assert state["legal_actions"] == [] and not state["your_turn"]
        assert state["table"]["status"] == "over" and state["table"]["result"] == result
        assert {error["code"] for error in client.errors()} <= {"rate_limited"}
    for watcher in watchers:
        state = watcher.state
        assert state is not None and state["seat"] is None and state["seq"] == len(stored.events)
        assert state["observation"] == final.public_observation()
        assert state["table"]["result"] == result and watcher.errors() == []
        seqs = [message["seq"] for message in watcher.messages if message["type"] == "state"]
        assert seqs == sorted(seqs)  # states arrive in order (some may be skipped, never reordered)
    # the humans made the moves of their seats, the bots theirs
    humans = {seat for seat in created.tokens}
    acted = {event["seat"] for event in stored.events if event["type"] == "act"}
    assert acted & humans, "no human acted"
    return stored


def test_lama_two_people_and_two_bots_play_to_the_end(server: InProcessServer, api: Api) -> None:
    created = api.seated("lama", 4, bots={1: "heuristic", 3: "random"})
    players, watchers = asyncio.run(play_table(server.ws_base, created, random.Random(1), spectators=1))
    stored = check_final(server, created, players, watchers)
    acted = {event["seat"] for event in stored.events if event["type"] == "act"}
    assert acted == {0, 1, 2, 3}
    kinds = [event["type"] for event in stored.events]
    assert kinds[:2] == ["join", "join"] and set(kinds[2:]) == {"act"}


def test_a_search_bot_thinks_in_a_worker_and_plays_to_the_end(server: InProcessServer, api: Api) -> None:
    """The ISMCTS bots search on a worker thread; their moves are stored like any other, in turn."""
    created = api.seated("lama", 3, {"end_score": 20}, bots={1: "medium", 2: "easy"})
    players, watchers = asyncio.run(play_table(server.ws_base, created, random.Random(3), spectators=1))
    stored = check_final(server, created, players, watchers)
    assert {event["seat"] for event in stored.events if event["type"] == "act"} == {0, 1, 2}


@pytest.mark.parametrize(
    ("players", "bots"),
    [(3, {2: "heuristic"}), (2, {1: "random"})],
    ids=["kamara-2-people-1-bot", "kamara-1-person-1-bot"],
)
def test_kamara_with_setup_plays_to_the_end(
    server: InProcessServer, api: Api, players: int, bots: dict[int, str]
) -> None:
    created = api.seated("kamara", players, {"max_rounds": 8}, bots)
    clients, watchers = asyncio.run(play_table(server.ws_base, created, random.Random(players), spectators=2))
    stored = check_final(server, created, clients, watchers)
    # the setup was played at the table too: tiles placed and diwa put down, by people and bots
    actions = [event["action"].split()[0] for event in stored.events if event["type"] == "act"]
    assert "place" in actions and "diwa" in actions
    phases = [message["observation"]["phase"] for message in watchers[0].messages if message["type"] == "state"]
    assert phases[0] == "tiles" and phases[-1] == "over" and "play" in phases
    assert watchers[0].messages[-1]["observation"] == watchers[1].messages[-1]["observation"]


def test_two_clients_acting_at_once_exactly_one_wins_by_seq(server: InProcessServer, api: Api) -> None:
    """Two connections of the same seat send an action for the same seq at the same moment, turn after turn (a
    game to 200 points: random moves can end a game to 40 before three races, whatever the table's seed)."""
    created = api.seated("lama", 2, {"end_score": 200}, bots={1: "random"})

    async def main() -> int:
        first = await Client.connect(server.ws_base, created.id, created.tokens[0], name="first")
        second = await Client.connect(server.ws_base, created.id, created.tokens[0], name="second")
        rng = random.Random(7)
        races = 0
        while races < 12:
            a = await first.wait_state(lambda s: s["your_turn"] or s["table"]["status"] == "over")
            b = await second.wait_state(
                lambda s, a=a: s["seq"] >= a["seq"] and (s["your_turn"] or s["table"]["status"] == "over")
            )
            if "over" in (a["table"]["status"], b["table"]["status"]):
                break
            seq = a["seq"]
            assert b["seq"] == seq and a["your_turn"] and b["your_turn"]  # the table waits for seat 0
            states = (a, b)
            legal = states[0]["legal_actions"]
            errors_before = len(first.errors()) + len(second.errors())
            await asyncio.gather(first.act(rng.choice(legal), seq), second.act(rng.choice(legal), seq))
            await asyncio.gather(*(client.wait_state(lambda s, seq=seq: s["seq"] > seq) for client in (first, second)))
            for client in (first, second):  # a pong comes after any error the client was sent before it
                await client.send({"type": "ping"})
                await client.wait(lambda m: m["type"] == "pong")
            new_errors = [*first.errors(), *second.errors()][errors_before:]
            assert [error["code"] for error in new_errors] == ["stale_seq"], new_errors  # even if the winner ended it
            if first.state["table"]["status"] == "over":  # type: ignore[index]
                break
            races += 1
        await first.close()
        await second.close()
        return races

    races = asyncio.run(main())
    assert races >= 3
    stored = server.stored(created.id)
    mine = [event for event in stored.events if event["type"] == "act" and event["seat"] == 0]
    assert len(mine) >= races  # one action per race (a race that ended the game is not counted)
    seqs = [event["seq"] for event in stored.events]
    assert seqs == list(range(1, len(seqs) + 1))
    # no seq was acted on twice: every action of seat 0 follows a different state
    assert len({event["seq"] for event in mine}) == len(mine)


def _measure_http(base: str, stop: threading.Event, worst: list[float]) -> None:
    """Ask the server for its tables again and again; keep the slowest answer's time."""
    api = Api(base)
    while not stop.is_set():
        start = time.monotonic()
        api.tables()
        worst[0] = max(worst[0], time.monotonic() - start)
        time.sleep(0.02)


def test_a_client_that_never_reads_stalls_nobody(server: InProcessServer, api: Api) -> None:
    """Sockets that never read (a spectator, a second connection of a seat) sit at a table while it plays to the
    end, and another table plays meanwhile; the server answers HTTP promptly all along."""
    table = api.seated("lama", 4, bots={2: "heuristic", 3: "random"})
    other = api.seated("kamara", 2, {"max_rounds": 8}, {1: "heuristic"})
    deaf = [
        RawSocket(server.port, f"/ws/tables/{table.id}"),
        RawSocket(server.port, f"/ws/tables/{table.id}", table.tokens[0]),
        RawSocket(server.port, f"/ws/tables/{other.id}"),
    ]
    for sock in deaf:  # they even ask for more, and never read it
        for _ in range(10):
            sock.send_text(json.dumps({"type": "sync"}))
    stop, worst = threading.Event(), [0.0]
    watcher = threading.Thread(target=_measure_http, args=(server.base, stop, worst))
    watcher.start()

    async def main() -> None:
        rng = random.Random(3)
        games = await asyncio.gather(play_table(server.ws_base, table, rng), play_table(server.ws_base, other, rng))
        for created, (players, watchers) in zip((table, other), games, strict=True):
            check_final(server, created, players, watchers)

    try:
        asyncio.run(main())
    finally:
        stop.set()
        watcher.join()
        for sock in deaf:
            sock.close()
    assert worst[0] < 3.0, f"an HTTP request took {worst[0]:.2f} s"


def test_a_client_flooding_garbage_is_disconnected_while_another_table_plays(server: InProcessServer, api: Api) -> None:
    table = api.seated("lama", 3, bots={2: "heuristic"})
    other = api.seated("lama", 3, bots={1: "random", 2: "heuristic"})

    async def flood() -> int | None:
        client = await Client.connect(server.ws_base, table.id, table.tokens[1], name="flooder")
        closed: list[int | None] = []

        async def read() -> None:
            try:
                while True:
                    await client.recv()
            except Closed as error:
                closed.append(error.code)

        reader = asyncio.create_task(read())
        deadline = time.monotonic() + 15
        sent = 0
        while not closed and time.monotonic() < deadline:
            try:
                await client.send(random.choice(["garbage", "{", "[]", '{"type": "dance"}', "\x00" * 50]))
            except Exception:  # the server has closed the connection under us
                break
            sent += 1
            if sent % 20 == 0:
                await asyncio.sleep(0.002)
        await asyncio.wait_for(reader, 10)
        assert sent >= 160, sent
        refusals = {error["code"] for error in client.errors()}
        assert "rate_limited" in refusals and refusals <= {"rate_limited", "malformed", "unknown_type"}
        return closed[0]

    async def main() -> int | None:
        code, _ = await asyncio.gather(flood(), play_table(server.ws_base, other, random.Random(9)))
        return code

    assert asyncio.run(main()) == 1008  # policy violation
    summary = api.table(table.id)
    assert summary["seq"] == len(server.stored(table.id).events)
    assert not summary["seats"][1]["connected"]
    # the flooded table is fine: its people play it to the end
    players, watchers = asyncio.run(play_table(server.ws_base, table, random.Random(10)))
    check_final(server, table, players, watchers)
    check_final(server, other, [], [])


@pytest.mark.slow
def test_a_client_that_stops_reading_is_disconnected(server_factory: Any) -> None:
    """A seat's connection that never reads while its table races on (bots only) is dropped by the server
    after its sends have been stuck for the send timeout (2 s here, 10 s by default); meanwhile another table
    plays to the end."""
    server: ServerProcess = server_factory(limits=(*RELAXED, f"--send-timeout={SEND_TIMEOUT}"))
    api = Api(server.base)
    racing = api.create("kamara", 8, {"max_rounds": 100}, {seat: "random" for seat in range(1, 8)})
    api.join(racing.id, 0, racing.tokens[0], "Deaf")
    deaf = RawSocket(server.port, f"/ws/tables/{racing.id}", racing.tokens[0])
    start = time.monotonic()
    try:
        deadline = start + 10
        while not api.table(racing.id)["seats"][0]["connected"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        api.bot(racing.id, 0, racing.tokens[0], "random")  # now the bots race, and every change is sent to it
        other = api.seated("lama", 3, bots={2: "heuristic"})
        players, watchers = asyncio.run(play_table(server.ws_base, other, random.Random(4)))
        check_final(server, other, players, watchers)
        deadline = start + 60
        while api.table(racing.id)["seats"][0]["connected"]:
            assert time.monotonic() < deadline, "the server never dropped the client that does not read"
            time.sleep(0.1)
        dropped = time.monotonic() - start
    finally:
        deaf.close()
    assert dropped > SEND_TIMEOUT  # not before the send timeout
    assert api.table(racing.id)["seq"] > 100  # the table raced on meanwhile
