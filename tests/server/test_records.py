"""A table's game record from the real server: while the game runs, only what its reader may know; once it is
over, the whole game, which ``laro replay`` reads and the replay endpoint steps through.

Tables of both games are played part of the way by people's clients (random legal actions); then the record is
read as a spectator, as each seat (its token in ``Authorization: Bearer``), and with wrong tokens. Each is scanned
for every value the game hides from that reader at that state (as the conformance suite hides them), for the
seed, and for every token.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tests.conformance.test_contract import HIDDEN, _norm, _norms
from tests.server.client import _NO_PROXY, TIMEOUT, Api, Client, Created, request
from tests.server.in_process import InProcessServer
from tests.server.server_process import StoredGame

import laro
from laro.cli.main import cli
from laro.core import GameRecord, PartialRecord, read_record, replay
from laro.server.table import hash_token

pytestmark = pytest.mark.in_process  # the module's server runs in this process (tests/server/in_process.py)

SEED = 5_550_123_987_001
# (game, players, options, moves to play before reading, seed): this Kamara game has kept and ordered cards
# (``keep``, ``order``: moves whose text names hidden cards) by its 36th move, its players playing as ``_choose``
TABLES = [
    ("lama", 3, {}, 10, SEED),
    ("lama", 3, {"edition": "party"}, 10, SEED + 1),
    ("kamara", 3, {"max_rounds": 8}, 40, SEED + 9),
]


def _choose(legal: list[str], rng: random.Random) -> str:
    """A random legal action, most often a flip or a green card (flips draw green cards, some of which keep or
    order yellow cards)."""
    eager = [action for action in legal if action.split()[0] in ("flip", "play")]
    return rng.choice(eager if eager and rng.random() < 0.8 else legal)


def get(base: str, path: str, token: str | None = None, header: str | None = None) -> tuple[int, Any, str]:
    """``(status, JSON, text)`` of a GET, with the seat's token as a bearer token (or ``header`` as is)."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    if header is not None:
        headers = {"Authorization": header}
    req = urllib.request.Request(base + path, headers=headers)
    try:
        with _NO_PROXY.open(req, timeout=TIMEOUT) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    return status, json.loads(raw), raw.decode()


async def _play(server: InProcessServer, created: Created, moves: int, rng: random.Random) -> None:
    """Play ``moves`` turns (or to the game's end): the people's seats choose as ``_choose``, bots as they do."""
    clients = {
        seat: await Client.connect(server.ws_base, created.id, token, name=f"seat {seat}")
        for seat, token in created.tokens.items()
    }
    try:
        for client in clients.values():
            await client.wait_state()
        for _ in range(moves):
            state = next(iter(clients.values())).state
            assert state is not None
            if state["table"]["status"] == "over":
                return
            seq = state["seq"]
            mover = clients.get(state["observation"]["current_player"])
            if mover is None:  # a bot's turn: wait for its move
                for client in clients.values():
                    await client.wait_state(lambda s, seq=seq: s["seq"] > seq)
                continue
            mine = await mover.wait_state(lambda s, seq=seq: s["seq"] == seq)
            await mover.act(_choose(mine["legal_actions"], rng), seq)
            for client in clients.values():
                await client.wait_state(lambda s, seq=seq: s["seq"] > seq)
    finally:
        for client in clients.values():
            await client.close()


@pytest.fixture(scope="module")
def running(server: InProcessServer) -> list[tuple[Created, StoredGame]]:
    api = Api(server.base)
    tables = []
    for game, players, options, moves, seed in TABLES:
        created = api.seated(game, players, options, seed=seed)
        asyncio.run(_play(server, created, moves, random.Random(2)))
        stored = server.stored(created.id)
        assert not stored.finished, "the table should still be running"
        tables.append((created, stored))
    return tables


def _leaks(stored: StoredGame, text: str, data: Any, reader: int | None, told: list[str]) -> list[Any]:
    """The values hidden from ``reader`` now that ``data`` holds (``told``: cards its own moves named)."""
    full = stored.final.to_json()
    hiding = HIDDEN[stored.game]
    if reader is None:
        secrets = [secret for other in range(stored.players) for secret in hiding.hidden(full, other)]
    else:
        secrets = hiding.hidden(full, reader)
    known = _norms(hiding.visible(full, -1 if reader is None else reader))
    known |= {_norm(card) for card in told}
    seen = _norms(data)
    found = [s for s in secrets if s not in ([], {}, "", None) and _norm(s) not in known and _norm(s) in seen]
    if str(stored.seed) in text:
        found.append(stored.seed)
    return found


def test_a_running_games_record_shows_each_reader_only_what_it_may_know(
    server: InProcessServer, running: list[tuple[Created, StoredGame]]
) -> None:
    kept_seen = 0
    for created, stored in running:
        game = laro.get_game(stored.game)
        moves = [(event["seat"], event["action"]) for event in stored.events if event["type"] == "act"]
        tokens = [*created.tokens.values()]
        for reader in [None, *range(stored.players)]:
            token = None if reader is None else created.tokens[reader]
            status, data, text = get(server.base, f"/api/tables/{created.id}/record", token)
            assert status == 200, data
            record = read_record(data)
            assert isinstance(record, PartialRecord) and data["seed"] is None
            assert record.seat == reader and record.seats == [seat for seat, _ in moves]
            expected = [action if seat == reader else game.public_text(action) for seat, action in moves]
            assert record.actions == expected
            state = stored.final
            assert record.observation == (state.public_observation() if reader is None else state.observation(reader))
            own_cards = [word for seat, action in moves if seat == reader for word in action.split()[1:]]
            assert _leaks(stored, text, data, reader, own_cards) == [], (stored.game, reader)
            for secret in [*tokens, *map(hash_token, tokens)]:
                assert secret not in text
            kept_seen += sum(action.startswith("keep ") for action in record.actions)
            if stored.game == "kamara" and reader is None:
                assert "keep" in record.actions, "the Kamara game should have kept cards by now"
                assert "order" in record.actions
                assert not any(action.startswith(("keep ", "order ")) for action in record.actions)
    assert kept_seen, "some seat should see its own kept cards in its record"


@pytest.mark.parametrize("header", ["Bearer not-a-token", "Bearer ", "Basic abc", "not-a-token", "Bearer " + "x" * 300])
def test_a_wrong_token_gets_no_record(
    server: InProcessServer, running: list[tuple[Created, StoredGame]], header: str
) -> None:
    created, _ = running[0]
    status, data, _ = get(server.base, f"/api/tables/{created.id}/record", header=header)
    assert status == 403 and data["error"]["code"] == "bad_token"


def test_a_token_of_another_table_gets_no_record(
    server: InProcessServer, running: list[tuple[Created, StoredGame]]
) -> None:
    (first, _), (second, _) = running[0], running[1]
    status, data, _ = get(server.base, f"/api/tables/{first.id}/record", second.tokens[0])
    assert status == 403 and data["error"]["code"] == "bad_token"
    status, data, _ = get(server.base, "/api/tables/no-such-table/record")
    assert status == 404 and data["error"]["code"] == "no_table"


def test_a_running_game_is_not_replayed(server: InProcessServer, running: list[tuple[Created, StoredGame]]) -> None:
    created, _ = running[0]
    status, data, _ = get(server.base, f"/api/tables/{created.id}/replay")
    assert status == 409 and data["error"]["code"] == "not_over"


def test_laro_replay_tells_what_a_running_games_record_holds(
    server: InProcessServer, running: list[tuple[Created, StoredGame]], tmp_path: Path
) -> None:
    created, stored = running[2]
    _, data, _ = get(server.base, f"/api/tables/{created.id}/record")
    path = tmp_path / "running.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["replay", "--all", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    moves = sum(event["type"] == "act" for event in stored.events)
    assert f"{moves} moves so far" in result.output and "as a spectator saw it" in result.output
    assert f"{moves}. Player " in result.output and "keep" in result.output
    assert "once it is over" in result.output


def test_a_finished_games_record_is_the_whole_game(server: InProcessServer, tmp_path: Path) -> None:
    """Played to the end, a table's record (for anyone) holds the seed and every action: it replays to the
    server's own final state, ``laro replay`` shows it, and the replay endpoint steps through it."""
    api = Api(server.base)
    finished = [("lama", 2, {"end_score": 15}), ("kamara", 2, {"max_rounds": 3})]
    for number, (game, players, options) in enumerate(finished):
        created = api.seated(game, players, options, bots={1: "random"}, seed=SEED + 10 + number)
        asyncio.run(_play(server, created, 10_000, random.Random(number)))
        stored = server.stored(created.id)
        assert stored.finished
        status, data, _ = get(server.base, f"/api/tables/{created.id}/record")
        assert status == 200
        record = GameRecord.from_json(data)
        assert record.seed == stored.seed and record.bots == {1: "random"}
        assert record.players == ["Player 0", "random bot"]
        final = stored.final
        assert replay(record).to_json() == final.to_json()
        assert record.result == {"over": True, "winners": list(final.winners), "scores": list(final.scores)}
        assert get(server.base, f"/api/tables/{created.id}/record", created.tokens[0])[1] == data  # a seat: the same
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(data))
        result = CliRunner().invoke(cli, ["replay", "--all", str(path)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert f"Move {len(record.actions)}/{len(record.actions)}" in result.output and "differs" not in result.output
        status, steps, _ = get(server.base, f"/api/tables/{created.id}/replay?view=open")
        assert status == 200 and len(steps["steps"]) == len(record.actions) + 1
        assert steps["steps"][-1]["observation"] == stored.final.public_observation()
        status, sent = request(server.base, "POST", "/api/replay", {"record": data, "view": "1"})
        assert status == 200 and sent["steps"][-1]["observation"] == stored.final.observation(1)


def test_finished_games_are_listed_by_name_a_page_at_a_time(server: InProcessServer) -> None:
    """``GET /api/finished`` lists finished games, the last to end first, with their players' names and result,
    a page at a time; a running table is not among them; a bad cursor is refused."""
    api = Api(server.base)
    ours = []
    for number in range(3):
        created = api.seated("lama", 2, {"end_score": 5}, bots={1: "random"}, seed=SEED + 20 + number)
        asyncio.run(_play(server, created, 10_000, random.Random(number)))
        ours.append(created.id)
    running = api.seated("lama", 2, {}, bots={1: "random"}, seed=SEED + 30)
    listed: list[dict[str, Any]] = []
    path = "/api/finished?limit=2"
    for _ in range(100):
        status, page = request(server.base, "GET", path)
        assert status == 200 and len(page["games"]) <= 2
        listed += page["games"]
        if page["next"] is None:
            break
        path = f"/api/finished?limit=2&before={urllib.parse.quote(page['next'])}"
    ids = [game["id"] for game in listed]
    assert len(ids) == len(set(ids)) and running.id not in ids
    assert [table_id for table_id in ids if table_id in ours] == ours[::-1]  # the last to end first
    for game in listed:
        if game["id"] in ours:
            summary = api.table(game["id"])
            assert game["players"] == ["Player 0", "random bot"] and game["game"] == "lama"
            assert game["result"] == summary["result"] and abs(game["ended"] - summary["updated"]) < 5
    ended = [game["ended"] for game in listed]
    assert ended == sorted(ended, reverse=True)
    status, answer = request(server.base, "GET", "/api/finished?before=nonsense")
    assert status == 400 and answer["error"]["code"] == "bad_request"


def test_a_replay_is_sent_compressed_to_a_client_that_accepts_gzip(server: InProcessServer) -> None:
    """A replay runs to hundreds of KiB: a browser (which accepts gzip) gets it compressed, the same JSON."""
    api = Api(server.base)
    created = api.seated("lama", 3, bots={1: "random", 2: "random"}, seed=SEED + 30)
    asyncio.run(_play(server, created, 10_000, random.Random(3)))
    path = f"/api/tables/{created.id}/replay?view=open"
    plain = get(server.base, path)
    req = urllib.request.Request(server.base + path, headers={"Accept-Encoding": "gzip"})
    with _NO_PROXY.open(req, timeout=TIMEOUT) as answer:
        encoding, raw = answer.headers.get("Content-Encoding"), answer.read()
    assert plain[0] == 200 and encoding == "gzip", (encoding, len(raw), len(plain[2]))
    assert len(raw) * 4 < len(plain[2].encode())
    assert json.loads(gzip.decompress(raw)) == plain[1]
