"""Chat at a table through the real server: a line reaches the other seat and a spectator, cleaned; what is
refused (a spectator where only players write, too long, too fast, a server without chat) is not stored; a line
is never part of the game's record, and an action on the state before a line is still taken."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.client import Api, Client, Created, wait_for
from tests.server.in_process import InProcessServer
from tests.server.server_process import RELAXED, Served, ServerProcess

from laro.server.errors import Refusal
from laro.server.records import record_of
from laro.server.store import StoredTable
from laro.server.table import Table, commands, create

pytestmark = pytest.mark.in_process  # the module's server runs in this process (tests/server/in_process.py)


def _table(api: Api, spectator_chat: bool = False) -> Created:
    """A running L.A.M.A. table of two people (Ana and Bo)."""
    body: dict[str, Any] = {"game": "lama", "players": 2, "seed": 5, "clock": "none"}
    if spectator_chat:
        body["spectator_chat"] = True
    answer = api.call("POST", "/api/tables", body, expect=201)
    created = Created(answer["id"], {seat["seat"]: seat["token"] for seat in answer["seats"]}, answer)
    api.join(created.id, 0, created.tokens[0], "Ana")
    api.join(created.id, 1, created.tokens[1], "Bo")
    return created


def _chats(server: Served, table_id: str) -> list[dict[str, Any]]:
    return [event for event in server.stored(table_id).events if event["type"] == "chat"]


def _said(state: dict[str, Any]) -> list[tuple[Any, Any, str]]:
    return [(line["seat"], line["by"], line["text"]) for line in state["chat"]]


def test_a_line_reaches_the_other_seat_and_a_spectator_cleaned(server: Served, api: Api) -> None:
    created = _table(api)

    async def talk() -> None:
        ana = await Client.connect(server.ws_base, created.id, created.tokens[0], "Ana")
        bo = await Client.connect(server.ws_base, created.id, created.tokens[1], "Bo")
        watcher = await Client.connect(server.ws_base, created.id, name="spectator")
        await ana.wait_state()
        await ana.send({"type": "chat", "text": " good\u202e luck\u2066!\u0007\n "})
        for client in (bo, watcher, ana):
            state = await client.wait_state(lambda s: bool(s["chat"]))
            assert _said(state) == [(0, "Ana", "good luck!")], client.name
        await watcher.send({"type": "chat", "text": "hello from the stands"})
        refusal = await watcher.wait_error("spectator")
        assert "players" in refusal["message"]
        for client in (ana, bo, watcher):
            await client.close()

    asyncio.run(talk())
    assert [(event["seat"], event["text"]) for event in _chats(server, created.id)] == [(0, "good luck!")]
    assert api.table(created.id)["spectator_chat"] is False


def test_a_spectator_writes_where_the_table_lets_them(server: Served, api: Api) -> None:
    created = _table(api, spectator_chat=True)

    async def talk() -> None:
        ana = await Client.connect(server.ws_base, created.id, created.tokens[0], "Ana")
        watcher = await Client.connect(server.ws_base, created.id, name="spectator")
        await watcher.wait_state()
        await watcher.send({"type": "chat", "text": "nice play"})
        state = await ana.wait_state(lambda s: bool(s["chat"]))
        assert _said(state) == [(None, None, "nice play")]
        await ana.close()
        await watcher.close()

    asyncio.run(talk())
    assert api.table(created.id)["spectator_chat"] is True


def test_too_long_too_fast_and_empty_lines_are_refused_and_not_stored(server: Served, api: Api) -> None:
    created = _table(api)

    async def talk() -> list[str]:
        ana = await Client.connect(server.ws_base, created.id, created.tokens[0], "Ana")
        await ana.wait_state()
        await ana.send({"type": "chat", "text": "x" * 501})
        assert "500 characters" in (await ana.wait_error("too_large"))["message"]
        await ana.send({"type": "chat", "text": "\u200f\t\n"})
        await ana.wait_error("malformed")
        await ana.send({"type": "chat", "text": 5})
        await ana.wait_error("malformed")
        await ana.send({"type": "chat", "text": "y" * 500})  # the most a line may hold
        for line in range(4):  # the burst is five lines; the sixth comes too fast
            await ana.send({"type": "chat", "text": f"line {line}"})
        await ana.send({"type": "chat", "text": "one too many"})
        await ana.wait_error("rate_limited")
        state = await ana.wait_state(lambda s: len(s["chat"]) == 5)
        await ana.close()
        return [line["text"] for line in state["chat"]]

    said = asyncio.run(talk())
    assert said == ["y" * 500, "line 0", "line 1", "line 2", "line 3"]
    assert [event["text"] for event in _chats(server, created.id)] == said


def test_chat_is_never_in_the_record_and_an_action_before_it_is_still_taken(server: Served, api: Api) -> None:
    created = _table(api)
    secret = "CHAT-LINE-<b>never recorded</b>"

    async def play() -> None:
        ana = await Client.connect(server.ws_base, created.id, created.tokens[0], "Ana")
        bo = await Client.connect(server.ws_base, created.id, created.tokens[1], "Bo")
        first = await ana.wait_state()
        mover = ana if first["your_turn"] else bo
        seen = await mover.wait_state(lambda s: s["your_turn"])
        await bo.send({"type": "chat", "text": secret})
        await mover.wait_state(lambda s: bool(s["chat"]))
        await mover.act(seen["legal_actions"][0], seen["seq"])  # the state before the line: the same game
        acted = await mover.wait_state(lambda s: s["log"][-1]["seq"] > seen["seq"])
        assert acted["log"][-1]["type"] == "act" and acted["seq"] == seen["seq"] + 2
        assert all(entry["type"] != "chat" for entry in acted["log"])
        await ana.close()
        await bo.close()

    asyncio.run(play())
    for reader in (None, created.tokens[0]):
        assert "CHAT-LINE" not in json.dumps(_record(api, created.id, reader))
    api.bot(created.id, 0, created.tokens[0])  # bots play the game to its end
    api.bot(created.id, 1, created.tokens[1])
    wait_for(api, created.id, lambda s: s["status"] == "over", timeout=60)
    record = _record(api, created.id, None)
    assert record["seed"] == 5 and "CHAT-LINE" not in json.dumps(record)
    assert len(_chats(server, created.id)) == 1


def _record(api: Api, table_id: str, token: str | None) -> dict[str, Any]:
    request = urllib.request.Request(f"{api.base}/api/tables/{table_id}/record")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=20) as answer:
        record: dict[str, Any] = json.loads(answer.read())
        return record


@pytest.fixture
def chatless(tmp_path: Path) -> Iterator[Served]:
    served = InProcessServer(tmp_path / "data", limits=(*RELAXED, "--no-chat"))
    served.start()
    try:
        yield served
    finally:
        served.stop()


def test_a_server_without_chat_refuses_every_line(chatless: Served) -> None:
    api = Api(chatless.base)
    created = _table(api)

    async def talk() -> None:
        ana = await Client.connect(chatless.ws_base, created.id, created.tokens[0], "Ana")
        await ana.wait_state()
        await ana.send({"type": "chat", "text": "anyone?"})
        assert (await ana.wait_error("no_chat"))["message"] == "this server has no chat"
        await ana.close()

    asyncio.run(talk())
    assert _chats(chatless, created.id) == []


def test_chat_survives_kill_9(server_factory: Callable[..., ServerProcess]) -> None:
    process = server_factory()
    api = Api(process.base)
    created = _table(api)

    async def say(text: str, lines: int) -> list[tuple[Any, Any, str]]:
        ana = await Client.connect(process.ws_base, created.id, created.tokens[0], "Ana")
        bo = await Client.connect(process.ws_base, created.id, created.tokens[1], "Bo")
        await ana.wait_state()
        await ana.send({"type": "chat", "text": text})
        state = await bo.wait_state(lambda s: len(s["chat"]) == lines)
        await ana.close()
        await bo.close()
        return _said(state)

    assert asyncio.run(say("before the crash", 1)) == [(0, "Ana", "before the crash")]
    process.kill()
    process.start()
    assert asyncio.run(say("after it", 2)) == [(0, "Ana", "before the crash"), (0, "Ana", "after it")]


def test_a_seat_chats_before_anyone_has_joined(server: Served, api: Api) -> None:
    answer = api.call("POST", "/api/tables", {"game": "lama", "players": 2, "seed": 5}, expect=201)
    table_id, token = answer["id"], answer["seats"][0]["token"]

    async def talk() -> dict[str, Any]:
        ana = await Client.connect(server.ws_base, table_id, token, "Ana")
        await ana.wait_state()
        await ana.send({"type": "chat", "text": "anyone there?"})
        state = await ana.wait_state(lambda s: bool(s["chat"]))
        await ana.close()
        return state

    state = asyncio.run(talk())
    assert _said(state) == [(0, "seat 0", "anyone there?")] and state["log"] == []
    assert state["table"]["status"] == "open"


def test_a_stored_line_rebuilds_and_an_action_on_the_state_before_it_is_taken() -> None:
    table, tokens = create("lama", 2, {}, {0: "random"}, created=0.0, seed=7, table_id="t1")
    events = [commands.join(table, 1, tokens[1], "Bo")]
    table.apply(events[-1], now=1.0)
    events.append(commands.chat(table, 1, "hi\u2067", most=10))
    assert events[-1].to_json() == {"seq": 2, "type": "chat", "seat": 1, "text": "hi"}
    table.apply(events[-1], now=2.0)
    assert table.state.current_player == 1  # Bo acts on the state he saw before his line
    events.append(commands.act(table, 1, str(table.state.legal_actions()[0]), seq=1, now=3.0))
    table.apply(events[-1], now=3.0)
    stored = StoredTable(table.meta, [{**event.to_json(), "time": 2.0} for event in events])
    again = Table.restore(stored)
    assert list(again.chat) == [{"seq": 2, "seat": 1, "by": "Bo", "text": "hi", "time": 2.0}]
    assert again.actions() == table.actions() and len(again.actions()) == 1
    assert [entry["type"] for entry in again.log] == ["join", "act"]
    assert '"hi"' not in json.dumps(record_of(again, None)) and '"hi"' not in json.dumps(record_of(again, 1))
    with pytest.raises(Refusal) as full:
        commands.chat(again, 1, "more", most=1)
    assert full.value.code == "too_many"
