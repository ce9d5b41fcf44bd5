"""The server attacked as a hostile stranger would, on loopback: each attack bounded in time and count.

Every test runs the real ``laro serve`` with its real default limits (``limits=()``), except where a test sets
one figure lower to reach it quickly. Other loopback addresses (127.0.0.2, …) play other strangers: a limit per
address must stop one of them and leave the others be.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.polling import until
from tests.server.attack_support import from_address
from tests.server.client import Api, Client, Closed, HttpError, RawSocket, request
from tests.server.server_process import RELAXED, ServerProcess

DEFAULTS: tuple[str, ...] = ()  # laro serve's own limits, as an operator gets them
DEADLINE = 20.0


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with the default limits (and seeds allowed, which changes no limit)."""
    folder = tmp_path_factory.mktemp("laro-strict")
    process = ServerProcess(folder / "data", folder / "server.log", limits=("--allow-seeds",))
    process.start()
    try:
        yield process
    finally:
        process.stop()


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


# -- 1. tables, joins and the lobby --------------------------------------------------------------------------


def test_one_address_cannot_make_tables_without_end(strict: ServerProcess) -> None:
    """After a burst of 10, new tables from one address are refused (429, with Retry-After); another address
    still makes its own; and at most 10 tables of one address wait for players at once."""
    statuses = [
        from_address("127.0.0.2", strict.port, "POST", "/api/tables", {"game": "lama", "players": 2}) for _ in range(14)
    ]
    codes = [status for status, _, _ in statuses]
    assert codes[:10] == [201] * 10 and set(codes[10:]) == {429}, codes
    _, answer, headers = statuses[-1]
    assert answer["error"]["code"] == "rate_limited" and int(headers["retry-after"]) >= 1
    assert from_address("127.0.0.3", strict.port, "POST", "/api/tables", {"game": "lama", "players": 2})[0] == 201


def test_open_tables_per_address_are_bounded(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory(limits=("--tables-per-address=3", "--tables-per-minute=600"))
    made = [
        from_address("127.0.0.4", server.port, "POST", "/api/tables", {"game": "kamara", "players": 2})
        for _ in range(5)
    ]
    assert [status for status, _, _ in made] == [201, 201, 201, 429, 429]
    assert made[3][1]["error"]["code"] == "too_many"
    # a table that starts no longer waits: its place is free again
    created = made[0][1]
    for seat in created["seats"]:
        status, _, _ = from_address(
            "127.0.0.4",
            server.port,
            "POST",
            f"/api/tables/{created['id']}/seats/{seat['seat']}/join",
            {"token": seat["token"], "name": "Ana"},
        )
        assert status == 200
    assert from_address("127.0.0.4", server.port, "POST", "/api/tables", {"game": "kamara", "players": 2})[0] == 201


def test_a_seat_token_cannot_flood_joins(strict: ServerProcess) -> None:
    """Joins with a seat's token: a burst of 20, then 2 a second; the 429s change nothing."""
    _, created, _ = from_address("127.0.0.5", strict.port, "POST", "/api/tables", {"game": "lama", "players": 3})
    token = created["seats"][0]["token"]
    answers = [
        from_address(
            "127.0.0.5",
            strict.port,
            "POST",
            f"/api/tables/{created['id']}/seats/0/join",
            {"token": token, "name": f"n{i}"},
        )
        for i in range(30)
    ]
    codes = [status for status, _, _ in answers]
    assert codes.count(200) <= 22 and codes[-1] == 429, codes
    last_ok = max(i for i, code in enumerate(codes) if code == 200)
    seats = Api(strict.base).table(created["id"])["seats"]
    assert seats[0]["name"] == f"n{last_ok}"


def test_the_lobby_comes_in_pages(server_factory: Callable[..., ServerProcess]) -> None:
    """120 open tables: the lobby answers 50 at a time, newest first, and the cursor walks them all once."""
    server = server_factory()
    api = Api(server.base)
    made = [api.create("lama", 2).id for _ in range(120)]
    seen: list[str] = []
    page = api.call("GET", "/api/tables")
    sizes = []
    while True:
        sizes.append(len(page["tables"]))
        seen += [table["id"] for table in page["tables"]]
        if page["next"] is None:
            break
        page = api.call("GET", f"/api/tables?before={page['next']}")
    assert sizes == [50, 50, 20] and seen == made[::-1]
    assert len(api.call("GET", "/api/tables?limit=1000")["tables"]) == 100  # a page has at most 100
    for bad in ("limit=-1", "limit=x", "before=nonsense"):
        with pytest.raises(HttpError) as refused:
            api.call("GET", f"/api/tables?{bad}")
        assert refused.value.status == 400


# -- 2. bodies -----------------------------------------------------------------------------------------------


def test_a_huge_body_is_refused_on_its_length(strict: ServerProcess) -> None:
    """A POST announcing 250 MB is refused (413) before its body is read; four that stream bodies without a
    length are cut off at 64 KiB; the server's memory stays small."""
    assert strict.process is not None
    before = _rss_kib(strict.process.pid)
    with socket.create_connection(("127.0.0.1", strict.port), timeout=DEADLINE) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 250000000\r\n\r\n"
        )
        sock.sendall(b"{" * 1000)
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]

    def chunked() -> bytes:
        with socket.create_connection(("127.0.0.1", strict.port), timeout=DEADLINE) as sock:
            sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"a" * 65536
            try:
                for _ in range(400):  # 25 MiB at most, if the server never stopped reading
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:
                pass  # the server hung up: good
            return sock.recv(4096)

    answers = [chunked() for _ in range(4)]
    assert all(answer.startswith(b"HTTP/1.1 413") for answer in answers), [a[:40] for a in answers]
    assert _rss_kib(strict.process.pid) - before < 64 * 1024


def test_deep_json_is_refused(strict: ServerProcess) -> None:
    for body in (b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 30_000 + b"1" + b"}" * 30_000):
        status, answer = request(strict.base, "POST", "/api/tables", data=body[:60_000])
        assert status in (400, 413) and answer["error"]["code"] in ("malformed", "too_large")
    status, answer = request(strict.base, "POST", "/api/tables", data=b"[" * 20_000 + b"]" * 20_000)
    assert status == 400 and answer["error"]["code"] == "malformed"


# -- 3. options and bot tables -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"game": "lama", "players": 2, "options": {"end_score": 10**18}},
        {"game": "kamara", "players": 2, "options": {"max_rounds": 10**9}},
        {
            "game": "kamara",
            "players": 2,
            "options": {"green_cards": {"format": "laro-kamara-green/1", "cards": [], "pad": "x" * 60000}},
        },
    ],
    ids=["endless-lama", "endless-kamara", "padded-kamara"],
)
def test_options_are_bounded(server: ServerProcess, body: dict[str, Any]) -> None:
    status, answer = request(server.base, "POST", "/api/tables", body)
    assert status == 400 and answer["error"]["code"] == "bad_request", answer


def test_tables_of_bots_alone_are_few(server_factory: Callable[..., ServerProcess]) -> None:
    """At most 4 tables of bots alone at once (1 per address), hard bots included; people's tables still open."""
    server = server_factory(limits=("--tables-per-minute=600",), bot_delay=0.5)
    body = {"game": "kamara", "players": 8, "bots": {str(seat): "hard" for seat in range(8)}}
    answers = [from_address(f"127.0.0.{10 + i}", server.port, "POST", "/api/tables", body)[0] for i in range(6)]
    assert answers == [201, 201, 201, 201, 503, 503]
    assert from_address(
        "127.0.0.10", server.port, "POST", "/api/tables", {**body, "players": 2, "bots": {"0": "random", "1": "random"}}
    )[0] in (429, 503)
    assert from_address("127.0.0.10", server.port, "POST", "/api/tables", {"game": "lama", "players": 2})[0] == 201


def test_bots_think_in_lower_priority_processes(server_factory: Callable[..., ServerProcess]) -> None:
    """The server's searching bots run in child processes at nice 10: the server's own process is not the one
    thinking."""
    server = server_factory(limits=("--bot-workers=1",))
    api = Api(server.base)
    api.create("lama", 2, bots={0: "easy", 1: "easy"})  # searching bots: they think in the workers
    assert server.process is not None
    parent = server.process.pid

    def children_nice() -> list[int]:
        return [_nice(int(pid)) for pid in os.listdir("/proc") if pid.isdigit() and _parent(int(pid)) == parent]

    # a worker lowers its priority as it starts
    until(lambda: 10 in children_nice(), lambda: f"no bot worker at nice 10: {children_nice()}", DEADLINE, 0.1)
    assert _nice(parent) == 0


def _nice(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except (OSError, IndexError, ValueError):
        return -100


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


# -- 4. connections ------------------------------------------------------------------------------------------


def test_idle_connections_of_one_address_are_capped(server_factory: Callable[..., ServerProcess]) -> None:
    """80 idle TCP connections from one address: beyond 64 they are dropped at once; other addresses are served."""
    server = server_factory(limits=("--connections-per-address=64",))
    socks = []
    try:
        for _ in range(80):
            sock = socket.socket()
            sock.bind(("127.0.0.20", 0))
            sock.settimeout(DEADLINE)
            sock.connect(("127.0.0.1", server.port))
            socks.append(sock)
        time.sleep(0.5)
        dropped = sum(_is_closed(sock) for sock in socks)
        assert dropped >= 16, dropped
        assert from_address("127.0.0.21", server.port, "GET", "/api/games")[0] == 200
    finally:
        for sock in socks:
            sock.close()


def _is_closed(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        sock.setblocking(True)


def test_half_sent_headers_are_dropped(server_factory: Callable[..., ServerProcess]) -> None:
    """Slowloris: a request whose headers trickle in (and one that never sends a byte) is dropped after the
    header timeout."""
    server = server_factory(limits=("--header-timeout=1",))
    silent = socket.create_connection(("127.0.0.1", server.port), timeout=DEADLINE)
    slow = socket.create_connection(("127.0.0.1", server.port), timeout=DEADLINE)
    try:
        slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        start = time.monotonic()
        for sock in (silent, slow):
            try:
                while sock.recv(1024):
                    pass
            except OSError:
                pass
        assert time.monotonic() - start < 5
        assert Api(server.base).games()
    finally:
        silent.close()
        slow.close()


def test_websockets_per_address_and_per_table_are_capped(strict: ServerProcess) -> None:
    """33 WebSockets from one address: the 33rd is refused (1013, too_many); 64 spectators on one table, then
    the 65th is refused (busy)."""
    created = Api(strict.base).create("lama", 2)

    async def main() -> None:
        import websockets

        opened = []
        try:
            for i in range(33):
                ws = await websockets.connect(f"{strict.ws_base}/ws/tables/{created.id}", proxy=None)
                opened.append(ws)
                if i < 32:
                    await ws.send(json.dumps({"type": "hello"}))
                    message = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
                    assert message["type"] == "state", (i, message)
                    continue
                # the 33rd: told why, then closed with 1013 (try again later)
                message = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
                assert message["type"] == "error" and message["code"] == "too_many"
                with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), DEADLINE)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            await asyncio.sleep(0)
        finally:
            for ws in opened:
                await ws.close()

    asyncio.run(main())


def test_a_client_that_stops_reading_loses_its_socket(server_factory: Callable[..., ServerProcess]) -> None:
    """A seat that never reads while bots race at its table: the server gives up on it after its send timeout
    and aborts the socket (the client sees it reset), so no kernel buffer stays behind."""
    server = server_factory(limits=(*RELAXED, "--send-timeout=2"))  # the timeout's length is not the subject
    api = Api(server.base)
    racing = api.create("kamara", 8, {"max_rounds": 100}, {seat: "random" for seat in range(1, 8)})
    api.join(racing.id, 0, racing.tokens[0], "Deaf")
    deaf = RawSocket(server.port, f"/ws/tables/{racing.id}", racing.tokens[0])
    try:
        until(lambda: api.table(racing.id)["seats"][0]["connected"], "the deaf client never connected", DEADLINE)
        api.bot(racing.id, 0, racing.tokens[0], "random")
        deadline = time.monotonic() + 40
        until(lambda: not api.table(racing.id)["seats"][0]["connected"], "the deaf client was never dropped", 40, 0.2)
        deaf.sock.settimeout(0.2)
        ended = False
        while not ended and time.monotonic() < deadline:
            try:
                ended = deaf.sock.recv(1 << 20) == b""
            except TimeoutError:
                continue
            except OSError:
                ended = True
        assert ended, "the server kept the socket open"
    finally:
        deaf.close()


# -- 6. input that once made 500s -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en.md/../en", "x" * 5000, "../../etc/passwd", "EN", "e"])
def test_odd_rule_languages_are_not_found(server: ServerProcess, lang: str) -> None:
    status, answer = request(server.base, "GET", f"/api/games/lama/rules?lang={lang}")
    assert status == 404 and answer["error"]["code"] == "not_found"
    assert len(json.dumps(answer)) < 300


def test_a_deep_websocket_message_is_a_protocol_error(server: ServerProcess) -> None:
    created = Api(server.base).create("lama", 2)

    async def main() -> None:
        client = await Client.connect(server.ws_base, created.id)
        await client.wait_state()
        await client.ws.send("[" * 1500 + "]" * 1500)
        error = await client.wait(lambda m: m["type"] == "error")
        assert error["code"] == "malformed"
        await client.ws.send(json.dumps({"type": "ping"}))
        await client.wait(lambda m: m["type"] == "pong")  # still connected
        await client.close()

    asyncio.run(main())
    assert "Traceback" not in server.log_text()


# -- 8. tokens, headers, names -------------------------------------------------------------------------------


def test_pages_carry_the_security_headers(server: ServerProcess) -> None:
    for path in ("/", "/api/games", "/static/js/table.js", "/no/such/page"):
        _, _, headers = from_address("127.0.0.1", server.port, "GET", path)
        assert headers["referrer-policy"] == "no-referrer", path
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert "script-src 'self'" in headers["content-security-policy"], path
        assert headers["x-content-type-options"] == "nosniff", path


def test_a_token_in_the_address_opens_no_seat(server: ServerProcess) -> None:
    """Only the hello message takes a seat: ``?token=`` in the WebSocket's address is ignored (the connection
    watches), so a token never needs to travel where proxies log it."""
    api = Api(server.base)
    created = api.seated("lama", 2)

    async def main() -> None:
        import websockets

        async with websockets.connect(
            f"{server.ws_base}/ws/tables/{created.id}?token={created.tokens[0]}", proxy=None
        ) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            state = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
            assert state["type"] == "state" and state["seat"] is None
        seat = await Client.connect(server.ws_base, created.id, created.tokens[0])
        assert (await seat.wait_state())["seat"] == 0
        await seat.close()
        wrong = await Client.connect(server.ws_base, created.id, "not-a-token")
        with pytest.raises(Closed) as closed:
            while True:
                await wrong.recv()
        assert closed.value.code == 4403

    asyncio.run(main())


def test_names_lose_control_and_bidirectional_characters(server: ServerProcess) -> None:
    api = Api(server.base)
    created = api.create("lama", 2)
    api.join(created.id, 0, created.tokens[0], "\u202eAna\u2066\x07\x1b[31m Lee\u200b")
    assert api.table(created.id)["seats"][0]["name"] == "Ana[31m Lee"
    with pytest.raises(HttpError) as refused:
        api.join(created.id, 1, created.tokens[1], "\u202e\u200b\x00")
    assert refused.value.code == "bad_request"


# -- 5. a damaged row --------------------------------------------------------------------------------------


def test_a_damaged_table_is_named_and_the_others_play_on(server_factory: Callable[..., ServerProcess]) -> None:
    """An event row of invalid JSON and a table whose options are not JSON: the server still starts, names
    each damaged table in one line of its log (no traceback), answers them with ``damaged`` (HTTP 503, the
    WebSocket closed with 4410), and every other table is back and plays on."""
    import sqlite3

    server = server_factory()
    api = Api(server.base)
    broken, bad_options, sound = (api.seated("lama", 2) for _ in range(3))
    server.stop()
    with sqlite3.connect(server.db_path) as db:
        db.execute("UPDATE laro_events SET event = '{not json' WHERE table_id = ? AND seq = 1", (broken.id,))
        db.execute("UPDATE laro_tables SET options = '[[[' WHERE id = ?", (bad_options.id,))
    server.start()
    log = server.log_text()
    assert "Traceback" not in log
    for damaged in (broken, bad_options):
        assert sum(damaged.id in line and "damaged" in line for line in log.splitlines()) == 1, log[-2000:]
        status, answer = request(server.base, "GET", f"/api/tables/{damaged.id}")
        assert status == 503 and answer["error"]["code"] == "damaged"

    async def main() -> None:
        client = await Client.connect(server.ws_base, broken.id, broken.tokens[0])
        error = await client.wait_error("damaged")
        assert broken.id in error["message"]
        with pytest.raises(Closed) as closed:
            await client.recv()
        assert closed.value.code == 4410
        player = await Client.connect(server.ws_base, sound.id, sound.tokens[0])
        state = await player.wait_state()
        assert state["table"]["status"] == "running"
        await player.close()

    asyncio.run(main())
