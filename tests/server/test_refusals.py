"""Every refusal over WebSocket, against the real server: each is answered with a clear error and changes nothing.

"Nothing" is checked from outside: the table's summary (``GET /api/tables/{id}``, with its ``seq``) and its stored
log are the same before and after, and the connection stays usable (a ``ping`` is answered) unless the protocol
says it is closed.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from tests.server.client import Api, Client, Closed, Created, wait_for
from tests.server.in_process import InProcessServer

pytestmark = pytest.mark.in_process  # the module's server runs in this process (tests/server/in_process.py)

Message = dict[str, Any]


class Table:
    """A running 2-player L.A.M.A. table of two people, connected as both seats and a spectator."""

    def __init__(self, server: InProcessServer, api: Api, created: Created) -> None:
        self.server, self.api, self.created = server, api, created
        self.seats: list[Client] = []
        self.spectator: Client | None = None

    @property
    def id(self) -> str:
        return self.created.id

    async def connect(self) -> None:
        for seat, token in sorted(self.created.tokens.items()):
            client = await Client.connect(self.server.ws_base, self.id, token, name=f"seat {seat}")
            await client.wait_state()
            self.seats.append(client)
        self.spectator = await Client.connect(self.server.ws_base, self.id, name="spectator")
        await self.spectator.wait_state()
        connected = [True] * len(self.seats)
        wait_for(self.api, self.id, lambda s: [seat["connected"] for seat in s["seats"]] == connected)

    @property
    def all(self) -> list[Client]:
        return [*self.seats, *([self.spectator] if self.spectator else [])]

    def summary(self) -> Message:
        return self.api.table(self.id)

    def current(self) -> Client:
        return self.seats[self.summary()["current_player"]]

    def other(self) -> Client:
        return self.seats[1 - self.summary()["current_player"]]

    async def close(self) -> None:
        for client in self.all:
            await client.close()


def with_table(
    server: InProcessServer, api: Api, body: Callable[[Table], Awaitable[None]], game: str = "lama", players: int = 2
) -> None:
    """Run ``body`` on a fresh running table of people only (nothing moves unless a test acts)."""

    async def main() -> None:
        table = Table(server, api, api.seated(game, players))
        await table.connect()
        try:
            await body(table)
        finally:
            await table.close()

    asyncio.run(main())


async def refused(table: Table, client: Client, message: Any, code: str) -> Message:
    """Send ``message``; it must be refused with ``code`` and change nothing; the connection stays usable."""
    before = table.summary()
    events = len(table.server.stored(table.id).events)
    await client.send(message)
    error = await client.wait(lambda m: m["type"] != "state", timeout=5)  # the answer, whatever it is
    assert error["type"] == "error" and error["code"] == code, f"{message!r:.80}: expected {code}, got {error}"
    assert isinstance(error["message"], str) and len(error["message"]) > 5
    assert set(error) == {"type", "code", "message"}
    await client.send({"type": "ping"})
    await client.wait(lambda m: m["type"] == "pong")
    assert table.summary() == before, f"{message!r} changed the table"
    assert len(table.server.stored(table.id).events) == events
    return error


def test_a_stale_seq_is_refused(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        seq = table.summary()["seq"]
        player = table.current()
        legal = player.state["legal_actions"] if player.state else []
        for stale in (seq - 1, 0, -5, seq + 1, 10**12):
            await refused(table, player, {"type": "act", "action": legal[0], "seq": stale}, "stale_seq")
        # on the seen state the same action is taken
        await player.act(legal[0], seq)
        state = await player.wait_state(lambda s: s["seq"] == seq + 1)
        assert state["log"][-1]["seq"] == seq + 1 and state["log"][-1]["type"] == "act"

    with_table(server, api, body)


def test_an_action_out_of_turn_is_refused(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        seq = table.summary()["seq"]
        waiting = table.other()
        assert waiting.state is not None and not waiting.state["your_turn"] and waiting.state["legal_actions"] == []
        for action in ("draw", "quit", "play 1"):
            error = await refused(table, waiting, {"type": "act", "action": action, "seq": seq}, "not_your_turn")
            assert str(table.summary()["current_player"]) in error["message"]

    with_table(server, api, body)


def test_an_illegal_action_is_refused_saying_what_is_allowed(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        seq = table.summary()["seq"]
        player = table.current()
        assert player.state is not None
        legal = player.state["legal_actions"]
        illegal = [f"play {card}" for card in "123456L" if f"play {card}" not in legal]
        assert illegal, legal
        for action in [*illegal[:3], "play 9", "fly away", "draw draw"]:
            error = await refused(table, player, {"type": "act", "action": action, "seq": seq}, "illegal_action")
            if action.startswith("play") and action != "play 9":
                assert action in error["message"]
                assert all(text in error["message"] for text in legal), error["message"]

    with_table(server, api, body)


MALFORMED: list[Any] = [
    "hello",
    "{not json",
    "[1, 2, 3]",
    '"act"',
    "42",
    "null",
    {},
    {"type": 5},
    {"type": None},
    {"action": "draw", "seq": 1},
    {"type": "act"},
    {"type": "act", "seq": 1},
    {"type": "act", "action": "draw"},
    {"type": "act", "action": "", "seq": 1},
    {"type": "act", "action": "   ", "seq": 1},
    {"type": "act", "action": 3, "seq": 1},
    {"type": "act", "action": "draw", "seq": "1"},
    {"type": "act", "action": "draw", "seq": 1.5},
    {"type": "act", "action": "draw", "seq": True},
    {"type": "act", "action": "draw", "seq": None},
    b"\xff\xfe not text",
    b"",
]


@pytest.mark.parametrize("start", range(0, len(MALFORMED), 8), ids=lambda start: f"from-{start}")
def test_malformed_messages_are_refused(server: InProcessServer, api: Api, start: int) -> None:
    async def body(table: Table) -> None:
        player = table.current()  # the seat to act: a good message would change the table
        for message in MALFORMED[start : start + 8]:
            if isinstance(message, dict) and type(message.get("seq")) is int:  # the seq of the state it sees
                message = {**message, "seq": table.summary()["seq"]}
            text = message if isinstance(message, str | bytes) else json.dumps(message)
            await refused(table, player, text, "malformed")

    with_table(server, api, body)


def test_an_oversized_message_is_refused_and_the_connection_stays(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        player = table.current()
        seq = table.summary()["seq"]
        legal = player.state["legal_actions"] if player.state else []
        padded = {"type": "act", "action": legal[0], "seq": seq, "padding": "x" * 5000}
        error = await refused(table, player, json.dumps(padded), "too_large")
        assert "4096" in error["message"]
        # bytes count, not characters: 2100 two-byte letters are fewer than 4096 characters but more bytes
        await refused(table, player, json.dumps({"type": "ping", "note": "é" * 2100}, ensure_ascii=False), "too_large")
        await refused(table, player, b"x" * 5000, "too_large")
        # just under the limit is fine
        fits = json.dumps({"type": "ping", "padding": "y" * 4000})
        assert len(fits.encode()) <= 4096
        await player.send(fits)
        await player.wait(lambda m: m["type"] == "pong")
        # the connection plays on
        await player.act(legal[0], seq)
        await player.wait_state(lambda s: s["seq"] == seq + 1)

    with_table(server, api, body)


def test_a_huge_message_closes_the_connection_and_changes_nothing(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        player = table.current()
        before = table.summary()
        await player.send(json.dumps({"type": "ping", "padding": "z" * 70_000}))
        with pytest.raises(Closed) as closed:
            await player.wait(lambda m: False)
        assert closed.value.code == 1009  # message too big
        after = wait_for(table.api, table.id, lambda s: not s["seats"][before["current_player"]]["connected"])
        assert after["seq"] == before["seq"] and after["current_player"] == before["current_player"]
        # the player comes back and plays on
        seat = before["current_player"]
        again = await Client.connect(table.server.ws_base, table.id, table.created.tokens[seat], name="again")
        state = await again.wait_state(lambda s: s["your_turn"])
        assert state["seq"] == before["seq"]
        await again.act(state["legal_actions"][0], state["seq"])
        await again.wait_state(lambda s: s["seq"] == before["seq"] + 1)
        await again.close()

    with_table(server, api, body)


def test_a_wrong_token_is_refused_and_the_connection_closed(server: InProcessServer, api: Api) -> None:
    created = api.seated("lama", 2)
    other = api.create("lama", 2)

    async def main() -> None:
        before = api.table(created.id)
        for token in ("wrong", "", other.tokens[0], created.tokens[0] + "x"):
            client = await Client.connect(server.ws_base, created.id, token, name="intruder")
            error = await client.wait_error("bad_token")
            assert error["message"]
            with pytest.raises(Closed) as closed:
                await client.recv()
            assert closed.value.code == 4403
            assert [m["type"] for m in client.messages] == ["error"]  # no state, no observation
        assert api.table(created.id) == before

    asyncio.run(main())


def test_an_unknown_table_is_refused_and_the_connection_closed(server: InProcessServer) -> None:
    async def main() -> None:
        for token in (None, "some-token"):
            client = await Client.connect(server.ws_base, "no-such-table", token)
            error = await client.wait_error("no_table")
            assert "no-such-table" in error["message"]
            with pytest.raises(Closed) as closed:
                await client.recv()
            assert closed.value.code == 4404

    asyncio.run(main())


def test_a_spectator_cannot_act(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        assert table.spectator is not None
        state = table.spectator.state
        assert state is not None and state["seat"] is None and state["legal_actions"] == [] and not state["your_turn"]
        legal = table.current().state["legal_actions"]  # type: ignore[index]
        await refused(table, table.spectator, {"type": "act", "action": legal[0], "seq": state["seq"]}, "spectator")

    with_table(server, api, body)


def test_an_unknown_type_is_refused(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        for kind in ("dance", "ACT", "join", ""):
            error = await refused(table, table.current(), {"type": kind, "action": "draw"}, "unknown_type")
            assert "act" in error["message"]

    with_table(server, api, body)


def test_ping_and_sync_are_answered(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        client = table.other()
        before = table.summary()
        await client.send({"type": "ping"})
        assert (await client.wait(lambda m: m["type"] != "state")) == {"type": "pong"}
        count = len(client.messages)
        await client.send({"type": "sync"})
        state = await client.wait(lambda m: m["type"] == "state")
        assert len(client.messages) == count + 1 and state["seq"] == before["seq"]
        assert state["table"] == before
        assert table.summary() == before

    with_table(server, api, body)


def test_acting_before_the_table_starts_is_refused(server: InProcessServer, api: Api) -> None:
    created = api.create("lama", 2)
    api.join(created.id, 0, created.tokens[0], "Ana")

    async def main() -> None:
        table = Table(server, api, created)
        client = await Client.connect(server.ws_base, created.id, created.tokens[0], name="seat 0")
        state = await client.wait_state()
        assert state["table"]["status"] == "open" and not state["your_turn"] and state["legal_actions"] == []
        table.seats = [client]
        await refused(table, client, {"type": "act", "action": "draw", "seq": state["seq"]}, "not_started")
        await client.close()

    asyncio.run(main())


def test_acting_on_a_seat_that_was_left_is_refused(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        summary = table.summary()
        seat = summary["current_player"]
        player = table.seats[seat]
        api.leave(table.id, seat, table.created.tokens[seat])
        state = await player.wait_state(lambda s: s["seq"] == summary["seq"] + 1)
        assert not state["table"]["seats"][seat]["joined"]
        assert not state["your_turn"] and state["legal_actions"] == []  # nothing it may send until it is back
        legal = [f"play {card}" for card in "123456L"] + ["draw", "quit"]
        for action in legal:  # whatever the action, it waits for the seat to be taken again
            await player.send({"type": "act", "action": action, "seq": state["seq"]})
            assert (await player.wait_error())["code"] == "not_joined"
        assert table.summary()["seq"] == state["seq"]
        api.join(table.id, seat, table.created.tokens[seat], "Back")
        state = await player.wait_state(lambda s: s["seq"] == summary["seq"] + 2 and s["your_turn"])
        await player.act(state["legal_actions"][0], state["seq"])
        await player.wait_state(lambda s: s["seq"] == summary["seq"] + 3)

    with_table(server, api, body)


def test_acting_after_the_game_is_refused(server: InProcessServer, api: Api) -> None:
    created = api.seated("lama", 2, {"end_score": 10}, {1: "random"})

    async def main() -> None:
        table = Table(server, api, created)
        player = await Client.connect(server.ws_base, created.id, created.tokens[0], name="seat 0")
        table.seats = [player]
        final = await player.play(random.Random(11))
        assert final["legal_actions"] == [] and not final["your_turn"]
        await refused(table, player, {"type": "act", "action": "draw", "seq": final["seq"]}, "game_over")
        await player.close()
        wait_for(api, created.id, lambda s: not s["seats"][0]["connected"])  # nobody watches: out of memory
        # a new connection to the finished table gets its last state, then the server says goodbye
        late = await Client.connect(server.ws_base, created.id, created.tokens[0], name="late")
        state = await late.wait_state()
        assert state["seq"] == final["seq"] and state["table"]["status"] == "over"
        assert state["observation"] == final["observation"]
        with pytest.raises(Closed) as closed:
            await late.recv()
        assert closed.value.code == 1000

    asyncio.run(main())


def test_a_flood_is_rate_limited_and_the_table_is_unaffected(server: InProcessServer, api: Api) -> None:
    async def body(table: Table) -> None:
        flooder = table.other()  # not its turn: a flood of actions would change nothing anyway
        before = table.summary()
        await flooder.send({"type": "ping"})  # read everything sent before the flood
        await flooder.wait(lambda m: m["type"] == "pong")
        await asyncio.gather(*(flooder.ws.send(json.dumps({"type": "ping"})) for _ in range(70)))
        await asyncio.sleep(1.0)  # the bucket fills up again: a sync is welcome, and answered after the rest
        await flooder.send({"type": "sync"})
        count = len(flooder.messages)
        await flooder.wait(lambda m: m["type"] == "state")
        answers = flooder.messages[count:-1]
        pongs = sum(message["type"] == "pong" for message in answers)
        limited = [message for message in answers if message["type"] == "error"]
        assert limited and all(message["code"] == "rate_limited" for message in limited), [
            m["type"] for m in flooder.messages
        ]
        assert pongs <= 41, pongs  # a burst of 40 (and what refilled meanwhile), the rest refused
        assert "second" in limited[0]["message"]
        assert table.summary() == before
        # the others play on meanwhile, and after a pause the flooder is welcome again
        player = table.current()
        await player.act(player.state["legal_actions"][0], before["seq"])  # type: ignore[index]
        await player.wait_state(lambda s: s["seq"] == before["seq"] + 1)
        await asyncio.sleep(0.5)
        await flooder.send({"type": "ping"})
        await flooder.wait(lambda m: m["type"] == "pong")

    with_table(server, api, body)
