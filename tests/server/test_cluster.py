"""Several ``laro serve`` processes on one PostgreSQL database, as one server: clients of one table spread over
them see each other's moves; the process that drives a table's bots can be killed (``kill -9``) and another takes
its lease over and plays on; the processes share the driving of the tables, and a killed process's tables are
spread over the survivors; a stopped process hands its tables over and its clients reconnect to the others; a
process whose notifications were lost (its listening connection dropped) catches up by seq."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

import psycopg
import pytest
from tests.polling import until
from tests.server.client import Api, Client, Closed, Created, play_table, some_moves
from tests.server.cluster_support import TAKEOVER, database, driving_pid, replay, url  # noqa: F401  (a fixture)
from tests.server.server_process import ServerProcess

pytestmark = pytest.mark.slow


def _servers(factory: Callable[..., ServerProcess], dsn: str, count: int = 3, **settings: Any) -> list[ServerProcess]:
    return [factory(db=url(dsn), **settings) for _ in range(count)]


def _driver(dsn: str, table_id: str, servers: list[ServerProcess]) -> ServerProcess:
    """The server that holds the table's lease."""
    by_pid = {server.process.pid: server for server in servers if server.process is not None}
    return by_pid[driving_pid(dsn, table_id, set(by_pid))]


def _holders(dsn: str) -> dict[str, int]:
    """Every table's lease holder, as its process id."""
    with psycopg.connect(dsn, autocommit=True) as con:
        rows = con.execute("SELECT table_id, holder FROM laro_leases").fetchall()
    return {str(table_id): int(str(holder).split(":")[-2]) for table_id, holder in rows}


def _acknowledged(clients: list[Client], events: list[dict[str, Any]]) -> int:
    """How many actions the clients saw acknowledged, each checked against the store: none was lost."""
    stored = {event["seq"]: event for event in events}
    acknowledged = 0
    for client in clients:
        for message in client.messages:
            for entry in message.get("log", []):
                if entry["type"] == "act":
                    assert stored[entry["seq"]]["seat"] == entry["seat"]
                    acknowledged += 1
    return acknowledged


async def _play_spread(servers: list[ServerProcess], created: Created, seed: int) -> list[Client]:
    """Each human seat's client on another process (and a spectator on the last), all playing to the end."""
    rng = random.Random(seed)
    clients = [
        await Client.connect(servers[n % len(servers)].ws_base, created.id, token, name=f"seat {seat}")
        for n, (seat, token) in enumerate(sorted(created.tokens.items()))
    ]
    watcher = await Client.connect(servers[-1].ws_base, created.id, name="spectator")
    await asyncio.gather(*(client.play(random.Random(rng.random())) for client in clients), watcher.watch())
    for client in (*clients, watcher):
        await client.close()
    return [*clients, watcher]


def _lists(server: ServerProcess, table_id: str) -> bool:
    return table_id in {table["id"] for table in Api(server.base).tables()}


@pytest.mark.parametrize("game", ["lama", "kamara"])
def test_four_clients_on_three_processes_play_a_whole_game(
    game: str,
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    servers = _servers(server_factory, database)
    created = Api(servers[0].base).seated(game, 4, seed=11)
    clients = asyncio.run(_play_spread(servers, created, seed=4))
    events = replay(database, created.id)
    final = events[-1]["seq"]
    for client in clients:  # every client, whichever process it was on, saw every move up to the end
        assert client.state is not None and client.state["seq"] == final
        assert client.state["table"]["status"] == "over"
    answers = [Api(server.base).table(created.id) for server in servers]
    assert all(answer["seq"] == final and answer["result"] == answers[0]["result"] for answer in answers)
    # one process made the table, but the lobby of each lists the others' new tables too
    waiting = Api(servers[1].base).create(game, 2)
    for server in servers:
        until(partial(_lists, server, waiting.id), f"process on {server.port} does not list table {waiting.id}", 5)


def test_killing_the_driver_of_a_table_with_bots_loses_nothing(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    servers = _servers(server_factory, database, bot_delay=0.02)
    created = Api(servers[0].base).seated("lama", 4, bots={2: "heuristic", 3: "heuristic"}, seed=5)
    driver = _driver(database, created.id, servers)
    others = [server for server in servers if server is not driver]

    async def play() -> tuple[float, list[Client]]:
        clients = [
            await Client.connect(others[seat].ws_base, created.id, created.tokens[seat], name=f"seat {seat}")
            for seat in (0, 1)
        ]
        playing = asyncio.gather(*(client.play(random.Random(seat)) for seat, client in enumerate(clients)))
        while clients[0].seq <= 20:  # in the middle of the game, with bots to move
            await asyncio.sleep(0.01)
        driver.kill()
        killed_at = time.monotonic()
        await playing
        for client in clients:
            await client.close()
        return killed_at, clients

    killed_at, clients = asyncio.run(play())
    events = replay(database, created.id)  # the game finished, every move legal in its turn: no bot moved twice
    assert _acknowledged(clients, events) > len(events)  # what a client saw in the log is what the store holds
    after = [e for e in events if e.get("time", 0) > time.time() - (time.monotonic() - killed_at)]
    assert any(e["type"] == "act" and e["seat"] in (2, 3) for e in after), "no bot moved after the kill"
    assert "lease taken over" in "".join(server.log_text() for server in others)


def test_the_processes_share_the_tables_and_a_killed_ones_are_spread_over_the_survivors(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    servers = _servers(server_factory, database, bot_delay=0.02)
    pids = [server.process.pid for server in servers]  # type: ignore[union-attr]
    # every table made by one process, yet each process drives its share: two of the six
    made = [Api(servers[0].base).seated("lama", 4, bots={2: "heuristic", 3: "heuristic"}, seed=n) for n in range(6)]
    ids = {created.id for created in made}

    def shared() -> bool:
        return sorted(Counter(_holders(database).values()).values()) == [2, 2, 2]

    until(shared, lambda: f"the tables are not shared: {Counter(_holders(database).values())}", TAKEOVER, 0.05)
    killed, survivors = servers[2], {pids[0], pids[1]}
    orphans = {table_id for table_id, pid in _holders(database).items() if pid == pids[2]}

    async def play() -> tuple[list[Client], dict[str, int], Counter[int]]:
        clients = [  # the people of each table are on the two processes that stay
            await Client.connect(servers[seat].ws_base, created.id, created.tokens[seat], name=f"seat {seat}")
            for created in made
            for seat in (0, 1)
        ]
        playing = asyncio.gather(*(client.play(random.Random(n)) for n, client in enumerate(clients)))
        while min(client.seq for client in clients) <= 12:  # every game under way, with bots to move
            await asyncio.sleep(0.01)
        killed.kill()
        taken: dict[str, int] = {}  # each orphaned table -> the survivor that drives it first
        deadline = time.monotonic() + 2 * TAKEOVER
        while set(taken) != orphans:
            assert time.monotonic() < deadline, f"orphaned tables {sorted(orphans - set(taken))} were not taken"
            holders = await asyncio.to_thread(_holders, database)
            taken.update((t, pid) for t, pid in holders.items() if t in orphans and t not in taken and pid in survivors)
            await asyncio.sleep(0.05)
        driven = Counter(holders.values())  # the tables still under way, each process's count once all were taken
        await playing
        for client in clients:
            await client.close()
        return clients, taken, driven

    clients, taken, driven = asyncio.run(play())
    # shared fairly: a game that ended meanwhile lowers the share, so one survivor may take both orphans then
    assert set(driven) == survivors and max(driven.values()) - min(driven.values()) <= 1, (
        f"the orphans {taken} were not shared fairly: {driven}"
    )
    for n, created in enumerate(made):  # every game finished, every move in its turn; no acknowledged action lost
        events = replay(database, created.id)
        assert _acknowledged(clients[2 * n : 2 * n + 2], events) > len(events)
        final = clients[2 * n].state
        assert final is not None and final["seq"] == events[-1]["seq"]
    assert orphans <= ids and len(orphans) == 2
    assert "lease taken over" in "".join(server.log_text() for server in servers)


def test_a_store_made_before_the_processes_were_listed_is_served_as_it_was(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory(db=url(database))
    created = Api(server.base).seated("lama", 3, bots={2: "heuristic"}, seed=9)
    server.stop()
    with psycopg.connect(database, autocommit=True) as con:  # as an earlier laro left it
        con.execute("DROP TABLE laro_processes")
    server.start()
    players, _ = asyncio.run(play_table(server.ws_base, created, random.Random(9)))
    assert players[0].state is not None and players[0].state["table"]["status"] == "over"
    replay(database, created.id)
    with psycopg.connect(database, autocommit=True) as con:
        alive = con.execute("SELECT process FROM laro_processes").fetchall()
    assert [int(str(name).split(":")[-2]) for (name,) in alive] == [server.process.pid]  # type: ignore[union-attr]


def test_a_stopped_process_hands_over_and_its_clients_reconnect_elsewhere(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    servers = _servers(server_factory, database, bot_delay=0.02)
    created = Api(servers[0].base).seated("kamara", 3, {"max_rounds": 4}, bots={2: "random"}, seed=3)
    stopped = _driver(database, created.id, servers)
    others = [server for server in servers if server is not stopped]

    async def play() -> None:
        clients = [await Client.connect(stopped.ws_base, created.id, created.tokens[seat]) for seat in (0, 1)]
        for client in clients:
            await client.wait_state()
        await some_moves(clients, 4, random.Random(2))  # a few moves on the process that will stop
        await asyncio.to_thread(stopped.stop)  # SIGTERM: the clients are told to reconnect
        for client in clients:
            with pytest.raises(Closed) as closed:
                while True:
                    await client.recv(timeout=15)
            assert closed.value.code == 1012
        moved = [
            await Client.connect(others[seat].ws_base, created.id, created.tokens[seat], name=f"seat {seat}")
            for seat in (0, 1)
        ]
        restarted = asyncio.create_task(asyncio.to_thread(stopped.start))
        await asyncio.gather(*(client.play(random.Random(seat)) for seat, client in enumerate(moved)))
        await restarted
        back = await Client.connect(stopped.ws_base, created.id, name="spectator")  # the restarted process
        final = await back.wait_state(lambda s: s["table"]["status"] == "over")
        assert final["seq"] == moved[0].seq
        for client in (*moved, back):
            await client.close()

    asyncio.run(play())
    replay(database, created.id)
    assert "stopping: handed over the leases of 1 tables" in stopped.log_text()


def test_lost_notifications_are_caught_up_by_seq(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    servers = _servers(server_factory, database, count=2)
    created = Api(servers[0].base).seated("lama", 2, seed=8)
    pid = servers[1].process.pid  # type: ignore[union-attr]

    async def play() -> None:
        near = await Client.connect(servers[0].ws_base, created.id, created.tokens[0])
        far = await Client.connect(servers[1].ws_base, created.id, created.tokens[1])
        await near.wait_state()
        await far.wait_state()
        rng = random.Random(1)
        cuts = 0
        while cuts < 3 and near.state["table"]["status"] != "over":  # type: ignore[index]
            if far.state["your_turn"]:  # type: ignore[index]
                seq = far.seq
                await far.act(rng.choice(far.state["legal_actions"]), seq)  # type: ignore[index]
                for client in (near, far):
                    await client.wait_state(lambda s, seq=seq: s["seq"] > seq)
                continue
            cuts += 1
            with psycopg.connect(database, autocommit=True) as con:  # the far process's listener is cut off
                cut = con.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE %s",
                    (f"laro-listener %:{pid}:%",),
                ).fetchall()
            assert cut == [(True,)]
            seq = near.seq
            await near.act(rng.choice(near.state["legal_actions"]), seq)  # type: ignore[index]
            for client in (near, far):  # told all the same, by the catch-up of the far one
                await client.wait_state(lambda s, seq=seq: s["seq"] > seq, timeout=10)
        await near.close()
        await far.close()

    asyncio.run(play())
    log = servers[1].log_text()
    assert "listening connection was lost" in log
    assert "caught up with 1 tables changed meanwhile" in log
