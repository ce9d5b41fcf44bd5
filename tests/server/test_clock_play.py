"""Clocks on the real server, with short clocks: a seat that never acts is played for by its stand-in, then handed
to it, then taken back; a player who disconnects on their turn is taken for away; a table whose every person is
away ends as abandoned. (A restart in the middle of a running clock, which charges nobody, is tested with the
hub's clock in the test's hands: test_table_time.py.)"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

import pytest
from tests.server.client import Api, Client, wait_for
from tests.server.server_process import RELAXED, ServerProcess

SHORT = {"bank": 10, "increment": 0}  # the shortest bank a table may have


def _log_types(api: Api, table_id: str) -> list[tuple[str, int | None]]:
    return [(entry["type"], entry["seat"]) for entry in api.table_log(table_id)]


@pytest.mark.slow  # waits out real turn clocks
def test_a_seat_that_never_acts_is_played_for_then_handed_over_then_taken_back(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory(limits=(*RELAXED, "--away-after=600"))
    api = Api(server.base, clock=SHORT)
    table = api.seated("lama", 2, seed=31)

    async def main() -> None:
        mover = await Client.connect(server.ws_base, table.id, table.tokens[0], name="mover")
        start = time.monotonic()
        while True:  # seat 1 never connects, never acts: its clock runs out twice
            assert time.monotonic() - start < 60, "the idle seat was never handed over"
            message = await mover.recv()
            state = mover.state
            if message["type"] != "state" or state is None:
                continue
            if state["table"]["seats"][1]["handed"]:
                break
            if state["your_turn"] and state["seq"] not in mover.acted:
                await mover.act(state["legal_actions"][0], state["seq"])
        log = state["log"]
        assert sum(1 for entry in log if entry["type"] == "timeout" and entry["seat"] == 1) == 2
        entry = next(e for e in log if e["type"] == "timeout")
        assert entry["text"] == "Player 1 ran out of time — the heuristic bot played for them"
        assert any(e.get("standin") == "heuristic" and e["type"] == "act" and e["seat"] == 1 for e in log)
        # the player comes back: joining again takes the seat back, with a fresh small bank
        back = api.join(table.id, 1, table.tokens[1], "Idle")
        assert back["seats"][1]["handed"] is False and back["seats"][1]["away"] is False
        assert back["clock"]["remaining"][1] == 10
        await mover.close()

    asyncio.run(main())


def test_a_player_who_disconnects_on_their_turn_is_taken_for_away(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory(limits=(*RELAXED, "--away-after=1"))
    api = Api(server.base, clock="normal")
    table = api.seated("lama", 2, seed=32)
    current = api.table(table.id)["current_player"]

    async def main() -> None:
        client = await Client.connect(server.ws_base, table.id, table.tokens[current])
        await client.wait_state()
        await client.close()  # gone on their turn

    asyncio.run(main())
    summary = wait_for(api, table.id, lambda s: s["seats"][current]["handed"], timeout=20)
    assert summary["seats"][current]["away"] is True
    log = api.table_log(table.id)
    away = next(e for e in log if e["type"] == "away")
    assert away["reason"] == "disconnected" and "is away — the heuristic bot plays for them" in away["text"]


def test_a_table_whose_people_all_went_ends_as_abandoned(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory(limits=(*RELAXED, "--away-after=1"))
    api = Api(server.base, clock="normal")
    table = api.seated("lama", 3, bots={2: "random"}, seed=33)  # nobody ever connects
    summary = wait_for(api, table.id, lambda s: s["status"] == "abandoned", timeout=30)
    assert all(seat["handed"] for seat in summary["seats"][:2]) and summary["result"]["ended"] == "abandoned"
    assert table.id not in [t["id"] for t in api.tables()]


def test_four_friends_one_walks_away_and_the_game_ends(server_factory: Callable[..., ServerProcess]) -> None:
    """Four people at a table with the default clock; one never comes (walked away): once it is their turn their
    stand-in takes over, and the other three play the game to its end."""
    server = server_factory(limits=(*RELAXED, "--away-after=1"))
    api = Api(server.base)  # the server's default clock for several people: normal
    table = api.seated("lama", 4, {"end_score": 15}, seed=35)
    assert api.table(table.id)["clock"]["name"] == "normal"

    async def main() -> None:
        players = [await Client.connect(server.ws_base, table.id, table.tokens[seat]) for seat in (0, 1, 2)]
        finals = await asyncio.wait_for(
            asyncio.gather(*(p.play(random.Random(seat)) for seat, p in enumerate(players))), 90
        )
        assert all(final["table"]["status"] == "over" for final in finals)
        assert finals[0]["table"]["seats"][3]["handed"] is True
        for player in players:
            await player.close()

    asyncio.run(main())
    assert table.id not in [t["id"] for t in api.tables()]
