"""A small client of the server for the end-to-end tests: the HTTP API through urllib, play through WebSocket.

``Api`` creates tables and manages seats (``api.create``, ``api.join``, ``api.seated`` for a table whose human
seats are all taken). ``Client`` is one WebSocket connection that records every message it receives (``messages``,
and their text in ``texts``): ``wait_state(predicate)`` reads until a state matches, ``act(action, seq)`` sends an
action, and ``play(rng)`` plays random legal actions until the game is over. Everything async is meant for
``asyncio.run`` inside a plain (sync) test.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import socket
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.polling import until
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

__all__ = [
    "Api",
    "Client",
    "Closed",
    "Created",
    "HttpError",
    "RawSocket",
    "analysed",
    "play_table",
    "played_by_bots",
    "request",
    "some_moves",
    "wait_for",
]

TIMEOUT = 20.0  # seconds any single wait may take before a test fails

_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))

Message = dict[str, Any]


class HttpError(AssertionError):
    """An HTTP answer other than the one expected."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body

    @property
    def code(self) -> str:
        return str(self.body["error"]["code"]) if isinstance(self.body, dict) and "error" in self.body else ""


def request(base: str, method: str, path: str, body: Any = None, *, data: bytes | None = None) -> tuple[int, Any]:
    """``(status, decoded JSON answer)`` of one HTTP request; ``data`` sends raw bytes instead of ``body``."""
    if data is None and body is not None:
        data = json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with _NO_PROXY.open(req, timeout=TIMEOUT) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")


@dataclass(frozen=True)
class Created:
    """A new table as ``POST /api/tables`` answered it."""

    id: str
    tokens: dict[int, str]  # seat -> secret token (human seats only)
    answer: dict[str, Any]


class Api:
    """The HTTP API of the server at ``base``; each call checks the status it expects."""

    def __init__(self, base: str, clock: object = None) -> None:
        self.base = base
        self.clock = clock  # the clock of the tables it makes (None: the server's default)

    def call(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        status, answer = request(self.base, method, path, body)
        if status != expect:
            raise HttpError(status, answer)
        return answer

    def games(self) -> list[dict[str, Any]]:
        return list(self.call("GET", "/api/games")["games"])

    def create(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        bots: dict[int, str] | None = None,
        seed: int | None = None,
        takebacks: bool | None = None,
    ) -> Created:
        body: dict[str, Any] = {"game": game, "players": players}
        if takebacks is not None:
            body["takebacks"] = takebacks
        if seed is not None:  # a server started with --allow-seeds (as the tests' servers are) takes it
            body["seed"] = seed
        if self.clock is not None:
            body["clock"] = self.clock
        if options is not None:
            body["options"] = options
        if bots is not None:
            body["bots"] = {str(seat): bot for seat, bot in bots.items()}
        answer = self.call("POST", "/api/tables", body, expect=201)
        return Created(answer["id"], {seat["seat"]: seat["token"] for seat in answer["seats"]}, answer)

    def seated(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        bots: dict[int, str] | None = None,
        seed: int | None = None,
        takebacks: bool | None = None,
    ) -> Created:
        """A table whose human seats have all been taken (by "Player 0", "Player 1", …): it is running."""
        created = self.create(game, players, options, bots, seed, takebacks)
        for seat, token in created.tokens.items():
            self.join(created.id, seat, token)
        return created

    def table(self, table_id: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.call("GET", f"/api/tables/{table_id}")
        return answer

    def tables(self) -> list[dict[str, Any]]:
        return list(self.call("GET", "/api/tables")["tables"])

    def seat(self, table_id: str, seat: int, what: str, body: dict[str, Any], expect: int = 200) -> Any:
        return self.call("POST", f"/api/tables/{table_id}/seats/{seat}/{what}", body, expect=expect)

    def table_log(self, table_id: str) -> list[dict[str, Any]]:
        """The table's public log (its last 40 entries), as a spectator is told it."""

        async def look() -> list[dict[str, Any]]:
            client = await Client.connect(self.base.replace("http://", "ws://"), table_id)
            state = await client.wait_state()
            await client.close()
            return list(state["log"])

        return asyncio.run(look())

    def join(self, table_id: str, seat: int, token: str, name: str | None = None) -> dict[str, Any]:
        answer: dict[str, Any] = self.seat(table_id, seat, "join", {"token": token, "name": name or f"Player {seat}"})
        return answer

    def leave(self, table_id: str, seat: int, token: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.seat(table_id, seat, "leave", {"token": token})
        return answer

    def bot(self, table_id: str, seat: int, token: str, bot: str = "random") -> dict[str, Any]:
        answer: dict[str, Any] = self.seat(table_id, seat, "bot", {"token": token, "bot": bot})
        return answer

    def refused(self, method: str, path: str, body: Any = None, *, data: bytes | None = None) -> tuple[int, str]:
        """``(status, error code)`` of a request the server must refuse (4xx with an error of the usual shape)."""
        status, answer = request(self.base, method, path, body, data=data)
        assert 400 <= status < 500, f"expected a refusal, got HTTP {status}: {answer}"
        assert isinstance(answer, dict) and set(answer) == {"error"}, answer
        assert set(answer["error"]) == {"code", "message"} and answer["error"]["message"], answer
        return status, str(answer["error"]["code"])


def wait_for(api: Api, table_id: str, predicate: Callable[[Message], bool], timeout: float = 20.0) -> Message:
    """Poll the table's summary until ``predicate(summary)``; that summary."""
    seen: list[Message] = [{}]

    def matching() -> Message | None:
        seen[0] = api.table(table_id)
        return seen[0] if predicate(seen[0]) else None

    return until(matching, lambda: f"table {table_id} never got there: {seen[0]}", timeout)


def played_by_bots(api: Api, game: str, players: int, options: dict[str, Any], seed: int) -> str:
    """The id of a table of heuristic bots only, once its game is over."""
    created = api.create(game, players, options, bots=dict.fromkeys(range(players), "heuristic"), seed=seed)
    wait_for(api, created.id, lambda summary: summary["status"] == "over", timeout=60)
    return created.id


def analysed(base: str, table_id: str, seat: int, timeout: float = 120.0) -> dict[str, Any]:
    """Poll the analysis of the seat's moves (asked for before) until it is made; the analysis. Anything but
    "running" or "done" on the way fails the test."""

    def made() -> dict[str, Any] | None:
        status, answer = request(base, "GET", f"/api/tables/{table_id}/analysis?seat={seat}")
        assert status in (200, 202) and answer["status"] in ("running", "done"), answer
        return dict(answer["analysis"]) if answer["status"] == "done" else None

    return until(made, f"no analysis of seat {seat} of table {table_id} at {base}", timeout, every=0.2)


def _random_choice(legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


class Closed(AssertionError):
    """The server closed the connection (``code`` is its close code)."""

    def __init__(self, code: int | None, reason: str = "") -> None:
        super().__init__(f"the connection was closed (code {code}) {reason}".strip())
        self.code = code


@dataclass
class Client:
    """One WebSocket connection to a table, as a seat (with its token) or a spectator; it keeps every message."""

    ws: ClientConnection
    name: str = "client"
    messages: list[Message] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    state: Message | None = None  # the newest state received
    acted: set[int] = field(default_factory=set)  # the seqs this client acted on
    pause: bool = False  # the server said to slow down

    @classmethod
    async def connect(cls, ws_base: str, table_id: str, token: str | None = None, name: str = "client") -> Client:
        url = f"{ws_base}/ws/tables/{table_id}"
        opening = connect(url, proxy=None, open_timeout=TIMEOUT, close_timeout=2, max_size=2**22)
        ws = await asyncio.wait_for(opening, TIMEOUT)
        with contextlib.suppress(ConnectionClosed):  # a server that refuses at once (no table) has closed already
            await ws.send(json.dumps({"type": "hello"} if token is None else {"type": "hello", "token": token}))
        return cls(ws, name)

    @property
    def seq(self) -> int:
        return -1 if self.state is None else int(self.state["seq"])

    async def recv(self, timeout: float = TIMEOUT) -> Message:
        """The next message (recorded); :class:`Closed` if the server closed the connection."""
        try:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            raise Closed(code, closed.rcvd.reason if closed.rcvd is not None else "") from None
        except TimeoutError:
            raise AssertionError(f"{self.name}: no message within {timeout} s (last state {self.seq})") from None
        text = raw if isinstance(raw, str) else raw.decode()
        message: Message = json.loads(text)
        self.texts.append(text)
        self.messages.append(message)
        if message.get("type") == "state":
            self.state = message
        return message

    async def wait(self, predicate: Callable[[Message], bool], timeout: float = TIMEOUT) -> Message:
        """Read until a message matches ``predicate``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"{self.name}: no matching message within {timeout} s (last state {self.seq})")
            message = await self.recv(left)
            if predicate(message):
                return message

    async def wait_state(self, predicate: Callable[[Message], bool] = bool, timeout: float = TIMEOUT) -> Message:
        """Read until a state matches ``predicate`` (the newest state already received counts too)."""
        if self.state is not None and predicate(self.state):
            return self.state
        return await self.wait(lambda m: m.get("type") == "state" and predicate(m), timeout)

    async def wait_error(self, code: str | None = None, timeout: float = TIMEOUT) -> Message:
        message = await self.wait(lambda m: m.get("type") == "error", timeout)
        assert code is None or message["code"] == code, f"{self.name}: expected error {code}, got {message}"
        return message

    async def send(self, message: Message | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def act(self, action: str, seq: int | None = None) -> None:
        if self.pause:  # rate-limited before: wait for the server's bucket to refill a little
            self.pause = False
            await asyncio.sleep(0.2)
        seq = self.seq if seq is None else seq
        self.acted.add(seq)
        await self.send({"type": "act", "action": action, "seq": seq})

    async def undo(self, kind: str, seq: int | None = None) -> None:
        await self.send({"type": "undo", "kind": kind, "seq": self.seq if seq is None else seq})

    async def play(
        self,
        rng: random.Random,
        choose: Callable[[list[str], random.Random], str] | None = None,
        think: float = 0.0,
    ) -> Message:
        """Play legal actions (random ones by default) whenever it is this seat's turn, until the game is over;
        the final state. ``think``: up to that many seconds of pause before each action. A refusal because
        someone was faster (``stale_seq``, ``not_your_turn``) waits for the newer state; ``rate_limited`` slows
        down and tries again; any other refusal fails the test."""
        choose = choose or _random_choice
        while True:
            state = self.state
            if state is not None and state["table"]["status"] == "over":
                return state
            if state is not None and state["your_turn"] and state["seq"] not in self.acted:
                if think:
                    await asyncio.sleep(rng.uniform(0, think))
                await self.act(choose(state["legal_actions"], rng), state["seq"])
            message = await self.recv()
            if message["type"] == "error":
                self.refused(message)

    def refused(self, error: Message) -> None:
        """Take an error in stride if a player may get it in normal play (see :meth:`play`), else fail."""
        if error["code"] == "rate_limited":
            self.acted.discard(self.seq)  # act on the same state again, a little later
            self.pause = True
        elif error["code"] not in ("stale_seq", "not_your_turn"):
            raise AssertionError(f"{self.name}: refused {error}")

    async def watch(self) -> Message:
        """Follow the table until its game is over; the final state."""
        return await self.wait_state(lambda s: s["table"]["status"] == "over", timeout=TIMEOUT * 3)

    async def close(self) -> None:
        await self.ws.close()

    def errors(self) -> list[Message]:
        return [message for message in self.messages if message.get("type") == "error"]


async def play_table(
    ws_base: str,
    created: Created,
    rng: random.Random,
    spectators: int = 1,
    choose: Callable[[list[str], random.Random], str] | None = None,
) -> tuple[list[Client], list[Client]]:
    """Connect every human seat of a seated table (and ``spectators`` watchers) and play it to the end (random
    legal actions, or as ``choose`` says)."""
    players = [
        await Client.connect(ws_base, created.id, token, name=f"seat {seat}") for seat, token in created.tokens.items()
    ]
    watchers = [await Client.connect(ws_base, created.id, name="spectator") for _ in range(spectators)]
    seeds = [rng.random() for _ in players]
    await asyncio.gather(
        *(player.play(random.Random(seed), choose) for player, seed in zip(players, seeds, strict=True)),
        *(watcher.watch() for watcher in watchers),
    )
    for client in (*players, *watchers):
        await client.close()
    return players, watchers


async def some_moves(clients: list[Client], count: int, rng: random.Random) -> int:
    """Let the human seats make ``count`` moves between them (bots play their own); the table's seq after."""
    made = 0
    while made < count:
        client = next((c for c in clients if c.state and c.state["your_turn"]), None)
        if client is None:  # a bot is to move, or a state is still on its way
            await clients[0].recv()
            for other in clients[1:]:
                await other.wait_state(lambda s, seq=clients[0].seq: s["seq"] >= seq)
            continue
        seq = client.seq
        await client.act(rng.choice(client.state["legal_actions"]), seq)  # type: ignore[index]
        for other in clients:
            await other.wait_state(lambda s, seq=seq: s["seq"] > seq)
        made += 1
    return max(client.seq for client in clients)


class RawSocket:
    """A WebSocket made by hand on a plain socket, for clients that misbehave below what a library allows:
    it opens the connection, may send frames, and never reads a byte after the handshake unless asked."""

    def __init__(self, port: int, path: str, token: str | None = None) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: the server must buffer
        self.sock.settimeout(TIMEOUT)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:  # the handshake's answer, and not one byte more
            answer += self.sock.recv(1)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        self.send_text(json.dumps({"type": "hello"} if token is None else {"type": "hello", "token": token}))

    def send_text(self, text: str) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        size = len(payload)
        assert size < 65536, "a short frame"
        header = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def close(self) -> None:
        self.sock.close()
