"""The real server dies and comes back: nothing a client was told is lost, and play goes on.

- A crash: tables with people playing quickly (bots without delay) while the server is killed with SIGKILL at
  random moments and started again on the same data directory. Clients reconnect and resync by ``seq``; every
  change a client saw (a state whose log holds it) is still in the table's log afterwards, and every game plays
  to its end.
- A restart: stopped (SIGTERM) and started mid-game, every table is back exactly: the same summaries, the same
  state for every seat and for spectators; then the games play on.
- A crash between a game's last action and the recording of its result: the table is finished on restart.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from tests.server.client import Api, Client, Closed, Created, play_table, wait_for
from tests.server.server_process import ServerProcess
from websockets.exceptions import WebSocketException

import laro

Message = dict[str, Any]
THINK = 0.03  # seconds a player may take before acting, at most
RECONNECT_DEADLINE = 120.0  # seconds a client may spend (re)connecting and playing through the crashes


def prefer_not_to_quit(legal: list[str], rng: random.Random) -> str:
    """A random legal action, rarely L.A.M.A.'s quit (so that games last long enough to be interrupted)."""
    staying = [action for action in legal if action != "quit"]
    return rng.choice(staying if staying and rng.random() < 0.9 else legal)


@dataclass
class Witness:
    """What the clients of one table were told, over every connection and every life of the server."""

    table: Created
    told: int = 0  # the highest seq any client of the table was sent
    log: dict[int, Message] = field(default_factory=dict)  # seq -> the log entry clients saw for it
    sent: dict[tuple[int, int], str] = field(default_factory=dict)  # (seat, seq) -> the action sent on that state
    reconnects: int = 0
    over: bool = False

    def saw(self, state: Message) -> None:
        self.told = max(self.told, state["seq"])
        for entry in state["log"]:
            known = self.log.setdefault(entry["seq"], entry)
            assert known == entry, f"seq {entry['seq']} was told as {known}, later as {entry}"
        if state["table"]["status"] == "over":
            self.over = True


async def resilient_player(server: ServerProcess, witness: Witness, seat: int | None, rng: random.Random) -> None:
    """Play a seat (or watch, for ``seat=None``) to the end of the game through any number of server deaths;
    after each reconnection the first state must not be behind anything the table's clients were told."""
    table = witness.table
    token = None if seat is None else table.tokens[seat]
    deadline = time.monotonic() + RECONNECT_DEADLINE
    while True:
        told_before = witness.told  # told before this connection was made: its first state cannot be older
        try:
            client = await Client.connect(server.ws_base, table.id, token, name=f"seat {seat}")
        except (OSError, WebSocketException, TimeoutError):
            assert time.monotonic() < deadline, f"{table.id}: no connection within {RECONNECT_DEADLINE} s"
            await asyncio.sleep(0.05)  # the server is down or starting: try again
            continue
        try:
            first = await client.wait_state(timeout=10)
            assert first["seq"] >= told_before, f"{table.id}: resync at {first['seq']}, but {told_before} was told"
            while True:
                state = client.state
                assert state is not None
                witness.saw(state)
                if state["table"]["status"] == "over":
                    break
                if seat is not None and state["your_turn"] and state["seq"] not in client.acted:
                    await asyncio.sleep(rng.uniform(0, THINK))
                    action = prefer_not_to_quit(state["legal_actions"], rng)
                    witness.sent[seat, state["seq"]] = action
                    await client.act(action, state["seq"])
                message = await client.recv(timeout=10)
                if message["type"] == "error":
                    client.refused(message)
            await client.close()
            return
        except (Closed, OSError, WebSocketException):
            witness.reconnects += 1
            await asyncio.sleep(0.02)


@pytest.mark.slow
def test_kill_9_at_random_moments_loses_nothing_acknowledged(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    api = Api(server.base)
    rng = random.Random(20240917)
    tables = [
        api.seated("lama", 3, {"end_score": 60}, {2: "heuristic"}),
        api.seated("lama", 4, {"end_score": 60}, {1: "random"}),
        api.seated("kamara", 3, {"max_rounds": 10}, {2: "heuristic"}),
        api.seated("kamara", 2, {"max_rounds": 10}, {}),
    ]
    witnesses = [Witness(table) for table in tables]
    kills: list[float] = []

    async def killer() -> None:
        planned = rng.randint(3, 5)
        while len(kills) < planned and not all(witness.over for witness in witnesses):
            await asyncio.sleep(rng.uniform(0.2, 0.7))
            await asyncio.to_thread(server.kill)
            kills.append(time.monotonic())
            await asyncio.sleep(rng.uniform(0.0, 0.2))
            await asyncio.to_thread(server.start)

    async def main() -> None:
        players = [
            resilient_player(server, witness, seat, random.Random(rng.random()))
            for witness in witnesses
            for seat in [*witness.table.tokens, None]
        ]
        await asyncio.gather(killer(), *players)

    asyncio.run(main())
    assert len(kills) >= 3, "the games ended before the server was killed three times"
    assert sum(witness.reconnects for witness in witnesses) >= len(witnesses)
    for witness in witnesses:
        stored = server.stored(witness.table.id)
        summary = api.table(witness.table.id)
        assert summary["status"] == "over" and stored.finished and stored.final.is_over
        assert summary["seq"] == len(stored.events) >= witness.told
        game = laro.get_game(stored.game)
        for seq, entry in witness.log.items():  # everything a client saw is in the log, as it was told
            event = stored.events[seq - 1]
            assert (event["seq"], event.get("seat"), event["type"]) == (seq, entry["seat"], entry["type"])
            if event["type"] == "act":
                assert entry["text"].endswith(": " + game.public_text(event["action"])), (entry, event)
        assert len(witness.log) >= min(40, len(stored.events))
        # each action a player sent and then saw in the log is the one stored
        for (seat, seq), action in witness.sent.items():
            entry = witness.log.get(seq + 1)
            if entry is not None and entry["seat"] == seat and entry["type"] == "act":
                assert stored.events[seq]["action"] == action


def seat_views(server: ServerProcess, created: Created) -> dict[str, Message]:
    """The first state each seat (by token) and a spectator get, one connection at a time."""
    api = Api(server.base)

    async def view(token: str | None) -> Message:
        client = await Client.connect(server.ws_base, created.id, token)
        state = await client.wait_state()
        await client.close()
        state.pop("server_time")  # when it was sent: the only part that may differ
        return state

    views = {}
    for seat, token in [*sorted(created.tokens.items()), (None, None)]:
        views[f"seat {seat}"] = asyncio.run(view(token))
        wait_for(api, created.id, lambda s: not any(seat["connected"] for seat in s["seats"]))
    return views


@pytest.mark.slow  # a restart
def test_a_restart_brings_every_table_back_exactly(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    api = Api(server.base, clock="none")  # no clock: a restart writes no resume event, the tables come back exactly
    rng = random.Random(5)
    lama = api.seated("lama", 4, {"end_score": 50}, {2: "heuristic", 3: "random"})
    kamara = api.seated("kamara", 3, {"max_rounds": 6}, {1: "heuristic"})
    opened = api.create("lama", 3, bots={0: "random"})
    api.join(opened.id, 1, opened.tokens[1], "Early")
    handed = api.seated("lama", 3, bots={2: "random"})
    api.leave(handed.id, 0, handed.tokens[0])
    api.bot(handed.id, 1, handed.tokens[1], "heuristic")
    done = api.seated("lama", 2, {"end_score": 10}, {1: "random"})

    async def play_some(created: Created, moves: int) -> None:
        """Some moves on each human seat, ending where a person is to act (so that nothing moves by itself)."""
        clients = {
            seat: await Client.connect(server.ws_base, created.id, token) for seat, token in created.tokens.items()
        }
        made = 0
        deadline = time.monotonic() + RECONNECT_DEADLINE
        while True:
            assert time.monotonic() < deadline, f"{created.id}: {moves} moves not made in time"
            summary = api.table(created.id)
            current = summary["current_player"]
            if current in clients:
                state = await clients[current].wait_state(lambda s, q=summary["seq"]: s["seq"] == q)
                if made >= moves:
                    break
                await clients[current].act(prefer_not_to_quit(state["legal_actions"], rng), state["seq"])
                await clients[current].wait_state(lambda s, q=summary["seq"]: s["seq"] > q)
                made += 1
            else:
                await asyncio.sleep(0.01)
        for client in clients.values():
            await client.close()

    asyncio.run(play_some(lama, 7))
    asyncio.run(play_some(kamara, 12))
    asyncio.run(play_table(server.ws_base, done, rng))
    tables = [lama, kamara, opened, handed, done]
    for created in tables:
        wait_for(api, created.id, lambda s: not any(seat["connected"] for seat in s["seats"]))
    before = {created.id: api.table(created.id) for created in tables}
    listing = api.tables()
    assert [before[created.id]["status"] for created in tables] == ["running", "running", "open", "running", "over"]
    views = {created.id: seat_views(server, created) for created in tables}
    assert {created.id: api.table(created.id) for created in tables} == before  # looking changed nothing

    assert server.stop() in (0, -signal.SIGTERM)  # a clean stop (uvicorn ends by raising the signal it caught)
    assert "Traceback" not in server.log_text()
    server.start()

    assert api.tables() == listing
    assert {created.id: api.table(created.id) for created in tables} == before
    assert {created.id: seat_views(server, created) for created in tables} == views
    # and play goes on to the end
    api.join(handed.id, 0, handed.tokens[0], "Back")
    for created in (lama, kamara, handed):
        players, watchers = asyncio.run(play_table(server.ws_base, created, rng))
        stored = server.stored(created.id)
        assert stored.finished and watchers[0].state is not None
        assert watchers[0].state["observation"] == stored.final.public_observation()
    api.join(opened.id, 2, opened.tokens[2], "Late")
    players, _ = asyncio.run(play_table(server.ws_base, opened, rng))
    assert players[0].state is not None and players[0].state["table"]["status"] == "over"


def test_a_crash_between_the_last_action_and_the_result_finishes_the_table(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    api = Api(server.base)
    created = api.seated("lama", 2, {"end_score": 10}, {1: "random"})
    asyncio.run(play_table(server.ws_base, created, random.Random(8)))
    over = wait_for(api, created.id, lambda s: not s["seats"][0]["connected"])
    result = server.stored(created.id).result
    assert over["status"] == "over" and result is not None
    server.kill()
    # what a kill between storing the last action and storing the result leaves behind
    con = sqlite3.connect(server.db_path, isolation_level=None)
    try:
        con.execute("UPDATE laro_tables SET finished = 0, result = NULL WHERE id = ?", (created.id,))
    finally:
        con.close()
    assert not server.stored(created.id).finished
    server.start()

    stored = server.stored(created.id)
    assert stored.finished and stored.result == result
    assert api.table(created.id) == over
    assert created.id not in [table["id"] for table in api.tables()]
    assert api.refused("POST", f"/api/tables/{created.id}/seats/0/join", {"token": created.tokens[0], "name": "A"}) == (
        409,
        "game_over",
    )

    async def late_visit() -> None:
        client = await Client.connect(server.ws_base, created.id, created.tokens[0])
        state = await client.wait_state()
        assert state["table"] == over | {"seats": state["table"]["seats"]} and state["seq"] == over["seq"]
        with pytest.raises(Closed) as closed:
            await client.recv()
        assert closed.value.code == 1000

    asyncio.run(late_visit())
    assert json.loads(json.dumps(server.stored(created.id).events)) == stored.events
