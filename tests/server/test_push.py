"""Turn notifications by Web Push on the real server, with a push service on loopback that checks the server's
VAPID signature and decrypts each payload with the subscription's own keys, as the browser would: one
notification per turn to a seat without a connection, none to a connected one, a reminder before the stand-in
takes over, one at the end; a subscription its push service says is gone (404, 410) is dropped; two processes on
one PostgreSQL database send each turn once."""

from __future__ import annotations

import asyncio
import base64
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from tests.polling import until
from tests.server.client import Api, Client, request
from tests.server.cluster_support import database, url  # noqa: F401  (a fixture)
from tests.server.in_process import InProcessServer
from tests.server.push_service import PushService
from tests.server.server_process import RELAXED, ServerProcess

from laro.cli.serve import _push_settings
from laro.server.errors import Code, Refusal
from laro.server.push import PushSettings, Subscription, load_key

pytestmark = pytest.mark.in_process  # the module's server runs in this process (tests/server/in_process.py)

OPTIONS = ["--push-over-http", "--away-after=86400", "--handover-after=0", "--push-reminder=4"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    running = InProcessServer(tmp_path_factory.mktemp("laro-push") / "data", limits=[*RELAXED, *OPTIONS])
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def service(served: InProcessServer) -> Iterator[PushService]:
    status, answer = request(served.base, "GET", "/api/push")
    assert status == 200
    pushes = PushService(answer["key"])
    try:
        yield pushes
    finally:
        pushes.close()
        assert pushes.refused == []  # every post was signed by the server's key and decrypted


def subscribe(base: str, table: str, seat: int, token: str, subscription: dict[str, Any]) -> None:
    body = {"token": token, "subscription": subscription}
    status, answer = request(base, "POST", f"/api/tables/{table}/seats/{seat}/push", body)
    assert status == 201 and answer == {"seat": seat, "subscribed": True}, answer


def kept(served: InProcessServer, table: str) -> list[tuple[int, str]]:
    """The subscriptions the store keeps for the table: (seat, endpoint's last part)."""
    con = sqlite3.connect(f"file:{served.db_path}?mode=ro", uri=True, timeout=10)
    try:
        rows = con.execute("SELECT seat, endpoint FROM laro_push WHERE table_id = ? ORDER BY endpoint", (table,))
        return [(seat, endpoint.rsplit("/", 1)[1]) for seat, endpoint in rows.fetchall()]
    finally:
        con.close()


def table_for(
    served: InProcessServer, service: PushService, clock: Any, names: dict[str, int] | None = None
) -> tuple[str, dict[int, str]]:
    """A L.A.M.A. table of Ana (seat 0) and Bora (seat 1), waiting for Bora to join, with the subscriptions
    ``names`` (endpoint name -> seat) given first."""
    api = Api(served.base, clock=clock)
    created = api.create("lama", 2, seed=11)
    api.join(created.id, 0, created.tokens[0], "Ana")
    for name, seat in (names or {"ana": 0, "bora": 1}).items():
        subscribe(served.base, created.id, seat, created.tokens[seat], service.subscription(name))
    return created.id, created.tokens


def choice(state: dict[str, Any], rng: random.Random) -> str:
    """A legal action, never quitting the round (so that turns go on passing between the two)."""
    legal = [action for action in state["legal_actions"] if action != "quit"] or state["legal_actions"]
    return rng.choice(legal)


async def play_until_turn_of(ana: Client, seat: int, rng: random.Random, after: int = 0) -> dict[str, Any]:
    """Ana plays from the state of seq ``after`` on until it is ``seat``'s turn; the state then."""
    await ana.wait_state(lambda s: s["seq"] >= after)
    while True:
        state = await ana.wait_state(lambda s: s["your_turn"] or s["table"]["current_player"] == seat)
        if state["table"]["current_player"] == seat and not state["your_turn"]:
            return state
        await ana.act(choice(state, rng), state["seq"])
        await ana.wait_state(lambda s, seq=state["seq"]: s["seq"] > seq)


async def play_turn(client: Client, rng: random.Random) -> None:
    """The client plays until it is not its turn (a round it ends may begin with its turn again)."""
    state = await client.wait_state(lambda s: s["your_turn"])
    while state["your_turn"]:
        await client.act(choice(state, rng), state["seq"])
        state = await client.wait_state(lambda s, seq=state["seq"]: s["seq"] > seq)


def test_a_seat_without_a_connection_is_told_once_per_turn_and_a_connected_one_never(
    served: InProcessServer, service: PushService
) -> None:
    table, tokens = table_for(served, service, "daily")
    rng = random.Random(3)

    async def main() -> None:
        ana = await Client.connect(served.ws_base, table, tokens[0], "ana")
        Api(served.base).join(table, 1, tokens[1], "Bora")
        await play_until_turn_of(ana, 1, rng)  # Bora's first turn: she has no connection
        first = service.wait("bora", 1)[0]
        assert first["type"] == "turn" and first["table"] == table and first["url"] == f"/table/{table}"
        assert first["game"] == "lama" and first["seat"] == 1 and first["others"] == ["Ana"]
        assert 23 * 3600 < first["left"] <= 24 * 3600
        assert first["text"] == "Your turn at L.A.M.A. with Ana — 23 h left"
        bora = await Client.connect(served.ws_base, table, tokens[1], "bora")  # she comes, and plays
        await play_turn(bora, rng)
        await play_until_turn_of(ana, 1, rng, bora.seq)  # her next turn: she is connected, her page tells her
        await play_turn(bora, rng)
        await bora.close()
        await ana.wait_state(lambda s: not s["table"]["seats"][1]["connected"])
        await play_until_turn_of(ana, 1, rng, bora.seq)  # her third: gone again
        third = service.wait("bora", 2)[1]
        assert third["type"] == "turn" and third["text"].startswith("Your turn at L.A.M.A. with Ana — ")
        await ana.close()

    asyncio.run(main())
    time.sleep(0.3)  # anything sent late would be here by now
    assert len(service.received("bora")) == 2  # the connected turn was not told
    assert service.received("ana") == []  # Ana was connected all along


def test_a_subscription_its_push_service_says_is_gone_is_dropped(served: InProcessServer, service: PushService) -> None:
    names = {"bora": 1, "gone": 1, "missing": 1, "ana": 0}
    table, tokens = table_for(served, service, "none", names)
    service.answer.update(gone=410, missing=404)
    assert kept(served, table) == [(0, "ana"), (1, "bora"), (1, "gone"), (1, "missing")]

    async def main() -> None:
        ana = await Client.connect(served.ws_base, table, tokens[0], "ana")
        Api(served.base).join(table, 1, tokens[1], "Bora")
        await play_until_turn_of(ana, 1, rng=random.Random(5))
        for name in ("bora", "gone", "missing"):
            (told,) = service.wait(name, 1)
            assert told["type"] == "turn" and told["text"] == "Your turn at L.A.M.A. with Ana"  # no clock, no time
        await ana.close()

    asyncio.run(main())
    deadline = time.monotonic() + 10
    while kept(served, table) != [(0, "ana"), (1, "bora")] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert kept(served, table) == [(0, "ana"), (1, "bora")]
    status, metrics = request(served.base, "GET", "/metrics")
    assert status == 200
    lines = [line.split(" ") for line in str(metrics).splitlines() if line.startswith("laro_pushes_total{")]
    counted = {name: float(value) for name, value in lines}
    assert counted['laro_pushes_total{outcome="sent"}'] >= 1 and counted['laro_pushes_total{outcome="gone"}'] >= 2


@pytest.mark.slow  # a real absence waited out
def test_an_absent_player_is_reminded_before_the_stand_in_takes_over(
    served: InProcessServer, service: PushService
) -> None:
    table, tokens = table_for(served, service, {"per_turn": 10})  # reminded 4 s before the 10 s are out

    async def main() -> None:
        ana = await Client.connect(served.ws_base, table, tokens[0], "ana")
        Api(served.base).join(table, 1, tokens[1], "Bora")
        await play_until_turn_of(ana, 1, random.Random(7))
        turn, reminder = service.wait("bora", 2, timeout=15)
        assert turn["type"] == "turn" and reminder["type"] == "reminder"
        assert 3 <= reminder["left"] <= 4, reminder
        left = reminder["left"]
        assert reminder["text"] == f"Still your turn at L.A.M.A. with Ana — {left} s left before a bot plays"
        await ana.wait_state(lambda s: any(entry["type"] == "timeout" for entry in s["log"]), timeout=15)
        await ana.close()

    asyncio.run(main())
    assert len(service.received("bora")) == 2


def test_a_player_gone_is_told_when_the_game_ends(served: InProcessServer, service: PushService) -> None:
    table, tokens = table_for(served, service, "normal")
    rng = random.Random(9)

    async def main() -> None:
        ana = await Client.connect(served.ws_base, table, tokens[0], "ana")
        Api(served.base).join(table, 1, tokens[1], "Bora")
        Api(served.base).seat(table, 1, "away", {"token": tokens[0]})  # Ana lets Bora's stand-in play for her
        while True:
            state = await ana.wait_state(lambda s: s["your_turn"] or s["table"]["status"] == "over", timeout=60)
            if state["table"]["status"] == "over":
                return
            await ana.act(rng.choice(state["legal_actions"]), state["seq"])
            await ana.wait_state(lambda s, seq=state["seq"]: s["seq"] > seq)

    asyncio.run(main())
    until(lambda: any(told["type"] == "end" for told in service.received("bora")), "the end told to Bora")
    end = service.received("bora")[-1]
    summary = Api(served.base).table(table)
    won = 1 in summary["result"]["winners"]
    assert end["type"] == "end" and end["won"] is won and end["others"] == ["Ana"]
    assert end["text"] == "The game of L.A.M.A. with Ana is over — " + ("you won" if won else "Ana won")
    assert [told["type"] for told in service.received("bora")].count("end") == 1
    assert service.received("ana") == []


def test_subscriptions_are_a_seat_s_own(served: InProcessServer, service: PushService) -> None:
    api = Api(served.base)
    created = api.create("lama", 2)
    path = f"/api/tables/{created.id}/seats/1/push"
    subscription = service.subscription("someone")
    wrong = {"token": created.tokens[0], "subscription": subscription}  # seat 0's token for seat 1
    assert request(served.base, "POST", path, wrong)[0] == 403
    bad = {"token": created.tokens[1], "subscription": {**subscription, "keys": {"p256dh": "x", "auth": "y"}}}
    assert request(served.base, "POST", path, bad)[0] == 400
    subscribe(served.base, created.id, 1, created.tokens[1], subscription)
    subscribe(served.base, created.id, 1, created.tokens[1], subscription)  # again: kept once
    assert kept(served, created.id) == [(1, "someone")]
    body = {"token": created.tokens[1], "endpoint": subscription["endpoint"]}
    assert request(served.base, "DELETE", path, body) == (200, {"seat": 1, "subscribed": False})
    assert kept(served, created.id) == []


def test_the_key_is_made_once_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "data" / "vapid.pem"
    made = PushSettings(load_key(path)).public_key
    assert path.stat().st_mode & 0o777 == 0o600
    assert PushSettings(load_key(path)).public_key == made  # read back, not made again
    assert len(base64.urlsafe_b64decode(made + "=")) == 65  # an uncompressed P-256 point
    path.write_text("not a key")
    with pytest.raises(click.ClickException, match="cannot use the VAPID key"):
        _push_settings(path, "mailto:admin@example.org", 3600.0, False)
    with pytest.raises(click.BadParameter, match="mailto:"):
        _push_settings(tmp_path / "other.pem", "admin@example.org", 3600.0, False)


@pytest.mark.slow
def test_two_processes_on_postgresql_send_each_turn_once(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
    tmp_path: Path,
) -> None:
    """Ana on one process, Bora on the other when she comes: each turn of Bora's without a connection is pushed
    once, whichever process drives the table and whichever stored the move."""
    key = tmp_path / "vapid.pem"
    shared = ["--push-over-http", "--vapid-key", str(key)]  # every process of a server has the same key
    first, second = (server_factory(db=url(database), extra=shared) for _ in range(2))
    service = PushService(request(first.base, "GET", "/api/push")[1]["key"])
    try:
        assert request(second.base, "GET", "/api/push")[1]["key"] == service.server_key
        api = Api(first.base, clock="daily")
        created = api.create("lama", 2, seed=11)
        table, tokens = created.id, created.tokens
        api.join(table, 0, tokens[0], "Ana")
        subscribe(first.base, table, 1, tokens[1], service.subscription("bora"))
        rng = random.Random(13)

        async def main() -> None:
            ana = await Client.connect(second.ws_base, table, tokens[0], "ana")
            Api(second.base).join(table, 1, tokens[1], "Bora")
            after = 0
            for turn in range(1, 4):
                await play_until_turn_of(ana, 1, rng, after)
                assert len(service.wait("bora", turn)) == turn
                bora = await Client.connect(first.ws_base, table, tokens[1], "bora")
                await play_turn(bora, rng)
                await bora.close()
                after = bora.seq  # her moves and her going, as Ana's process heard of them
                await ana.wait_state(
                    lambda s, after=after: s["seq"] >= after and not s["table"]["seats"][1]["connected"]
                )
            await ana.close()

        asyncio.run(main())
        time.sleep(0.5)  # a second post of any turn would be here by now
        assert service.posts == 3 and [told["type"] for told in service.received("bora")] == ["turn"] * 3
    finally:
        service.close()


def test_an_endpoint_is_a_push_service_on_the_internet() -> None:
    keys = {"p256dh": base64.urlsafe_b64encode(b"\4" + bytes(64)).decode(), "auth": "AAAAAAAAAAAAAAAAAAAAAA"}
    found = Subscription.read({"endpoint": "https://fcm.googleapis.com/fcm/send/abc", "keys": keys}, http=False)
    assert found.endpoint == "https://fcm.googleapis.com/fcm/send/abc" and found.keys == keys
    for endpoint in (
        "http://fcm.googleapis.com/x",
        "https://127.0.0.1/x",
        "https://192.168.1.9/x",
        "https://localhost/x",
    ):
        with pytest.raises(Refusal) as refused:
            Subscription.read({"endpoint": endpoint, "keys": keys}, http=False)
        assert refused.value.code == Code.BAD_REQUEST, endpoint
    assert Subscription.read({"endpoint": "http://127.0.0.1:9/x", "keys": keys}, http=True).endpoint.startswith("http:")
