"""Undo through the real server: a step back and a takeback over WebSocket, refused where they must be, and the
same table after a restart."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

from tests.server.client import Api, Client, Created, wait_for
from tests.server.server_process import ServerProcess


def _word(action: str) -> str:
    return action.split(" ", 1)[0]


async def _my_play_turn(client: Client) -> dict[str, object]:
    """Play the setup (the first legal action each time) until this seat's first turn of the play phase."""
    while True:
        state = await client.wait_state(lambda s: s["your_turn"] and s["seq"] not in client.acted)
        if state["observation"]["phase"] == "play":
            return state
        await client.act(state["legal_actions"][0], state["seq"])


def test_a_step_back_and_a_takeback_against_a_bot(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    api = Api(server.base, clock="none")
    created = api.create("kamara", 2, {"max_rounds": 20}, {1: "random"}, seed=3, takebacks=True)
    api.join(created.id, 0, created.tokens[0], "Ana")
    summary = api.table(created.id)
    assert summary["practice"] is True and summary["takebacks"] is True
    assert any(table["id"] == created.id and table["practice"] for table in api.tables())

    async def play() -> tuple[dict[str, object], dict[str, object]]:
        me = await Client.connect(server.ws_base, created.id, created.tokens[0], "Ana")
        watcher = await Client.connect(server.ws_base, created.id, name="spectator")
        start = await _my_play_turn(me)
        assert start["undo"] == {
            "step": False,
            "step_refusal": "you have taken no step this turn",
            "step_why": {"code": "no_step", "action": None},
            "takeback": True,  # the setup's last diwa was a turn of its own
            "takeback_refusal": None,
            "takeback_why": None,
        }
        move = next(a for a in start["legal_actions"] if _word(a) == "move")
        await me.act(move, start["seq"])
        moved = await me.wait_state(lambda s: s["seq"] > start["seq"])
        assert moved["undo"]["step"] is True
        await watcher.undo("step", moved["seq"])
        assert (await watcher.wait_error("spectator"))["message"]
        await me.undo("step", moved["seq"] - 1)
        await me.wait_error("stale_seq")
        await me.undo("step", moved["seq"])
        back = await me.wait_state(lambda s: s["seq"] > moved["seq"])
        assert back["observation"] == start["observation"] and back["legal_actions"] == start["legal_actions"]
        assert back["log"][-1]["type"] == "undo" and back["log"][-1]["text"] == f"Ana takes back {move}"
        # a whole turn, then the bot's; a step back is refused, a takeback brings the turn's start back
        await me.act(move, back["seq"])
        state = await me.wait_state(lambda s: s["seq"] > back["seq"])
        await me.act("end", state["seq"])
        again = await me.wait_state(lambda s: s["your_turn"] and s["seq"] > state["seq"] + 1)
        assert again["undo"]["step"] is False
        await me.undo("step", again["seq"])
        assert "no step" in (await me.wait_error("cannot_undo"))["message"]
        await me.undo("takeback", again["seq"])
        taken = await me.wait_state(lambda s: s["seq"] > again["seq"])
        assert taken["observation"] == start["observation"]
        assert taken["log"][-1]["kind"] == "takeback" and taken["table"]["takebacks_taken"] == 1
        await me.close()
        await watcher.close()
        return taken, start

    taken, _ = asyncio.run(play())
    wait_for(api, created.id, lambda s: not any(seat["connected"] for seat in s["seats"]))
    before = api.table(created.id)
    stored = server.stored(created.id)
    assert [e["type"] for e in stored.events].count("undo") == 2
    assert stored.final.observation(0) == taken["observation"]

    assert server.stop() in (0, -signal.SIGTERM)
    server.start()
    assert api.table(created.id) == before

    async def look() -> dict[str, object]:
        me = await Client.connect(server.ws_base, created.id, created.tokens[0], "Ana")
        state = await me.wait_state()
        await me.close()
        return state

    restored = asyncio.run(look())
    assert restored["observation"] == taken["observation"] and restored["undo"] == taken["undo"]
    record = api.call("GET", f"/api/tables/{created.id}/record")  # a spectator's record of the running game
    assert record["practice"] is True and record["takebacks"] == 1
    in_force = [e for e in stored.events if e["type"] == "act"]
    assert len(record["actions"]) == len(in_force) - sum(len(e["undone"]) for e in stored.events if e["type"] == "undo")
    assert "Traceback" not in server.log_text()


def test_no_takeback_against_a_person_nor_without_the_tables_permission(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    api = Api(server.base, clock="none")
    friends = api.seated("lama", 2, seed=4, takebacks=True)
    alone = api.seated("lama", 2, bots={1: "random"}, seed=4)
    assert api.table(alone.id)["practice"] is False

    async def refused(created: Created) -> list[str]:
        clients = {s: await Client.connect(server.ws_base, created.id, t) for s, t in created.tokens.items()}
        mover = api.table(created.id)["current_player"]
        if mover not in clients:  # the bot moves first
            mover = 0
            await clients[0].wait_state(lambda s: s["your_turn"])
        state = await clients[mover].wait_state(lambda s: s["your_turn"])
        await clients[mover].act("draw", state["seq"])
        after = await clients[mover].wait_state(
            lambda s: s["seq"] > state["seq"] and s["table"]["current_player"] in clients
        )
        messages = []
        for kind in ("step", "takeback"):
            await clients[mover].undo(kind, after["seq"])
            messages.append((await clients[mover].wait_error("cannot_undo"))["message"])
        for client in clients.values():
            await client.close()
        return messages

    assert asyncio.run(refused(friends)) == [
        "a step can be taken back only during your own turn",
        "takebacks are for games against bots only",
    ]
    assert asyncio.run(refused(alone)) == [
        "you have taken no step this turn",
        "this table was created without takebacks",
    ]
