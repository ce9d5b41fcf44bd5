"""Nothing a seat may not know ever reaches it: many games on the real server, every message recorded and scanned.

Several L.A.M.A. and Kamara tables are played at once by human clients (random legal actions) and bots, each
watched by a spectator; every message any client receives is kept. Afterwards each table's seed and event log are
read from the server's SQLite file and the game is replayed, so the whole state is known at every ``seq``. For a
message about state ``seq`` sent to seat ``s``, no value the game hides from ``s`` at that state (``HIDDEN`` of
the conformance suite: other hands, decks, the seed, …) may appear anywhere in it, compared as in that suite
(lists of plain values as bags); for a spectator, nothing any seat hides. No message may hold a seed, a token or a
token's hash, and the server's own log (every event logged) holds none of them either, nor the cards in anyone's
hand.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest
from tests.conformance.test_contract import HIDDEN, _norm, _norms, _subvalues
from tests.server.client import Api, Client, Created, play_table
from tests.server.server_process import StoredGame, make_server

import laro
from laro.server.table import hash_token

YELLOW_CARD = re.compile(r"\bY\d\d\b")  # a Kamara yellow card's id (what hands and decks hold)
LAMA_CARDS = re.compile(r"""\[\s*(['"][1-6L]['"],\s*)+['"][1-6L]['"]\s*\]""")  # a list of cards: a hand, a pile

# the tables' seeds are SEED, SEED + 1, …: the same games every run, Kamara's order and keep among them
SEED = 7_346_190_528_717
# (game, players, bots, options): several people at most tables, bots at most, one table of people only
TABLES: list[tuple[str, int, dict[int, str], dict[str, Any]]] = [
    ("lama", 2, {}, {}),
    ("lama", 3, {2: "heuristic"}, {}),
    ("lama", 4, {3: "random"}, {"end_score": 25}),
    ("lama", 5, {0: "heuristic", 4: "random"}, {}),
    ("lama", 6, {1: "random", 3: "heuristic", 5: "random"}, {"end_score": 20}),
    ("lama", 3, {0: "random", 1: "heuristic"}, {"next_round_starter": "ended_round", "token_supply": "boxed"}),
    ("kamara", 2, {}, {"max_rounds": 6}),
    ("kamara", 3, {2: "heuristic"}, {"max_rounds": 6}),
    ("kamara", 4, {0: "random", 3: "heuristic"}, {"max_rounds": 5, "open_cards": True}),
    ("kamara", 3, {1: "random", 2: "random"}, {"max_rounds": 6, "actions_per_turn": 3}),
]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Play every table of ``TABLES`` at once on a server that logs every event; the server, tables and clients."""
    server = make_server(tmp_path_factory, quiet=False)
    server.start()
    try:
        api = Api(server.base)
        valid = {name: {option["name"] for option in game["options"]} for name, game in _games(api).items()}
        tables: list[Created] = []
        for number, (game, players, bots, options) in enumerate(TABLES):
            assert set(options) <= valid[game], options
            tables.append(api.seated(game, players, options, bots, seed=SEED + number))
        rng = random.Random(2024)

        async def main() -> list[tuple[list[Client], list[Client]]]:
            plays = [
                play_table(server.ws_base, table, random.Random(rng.random()), choose=_oddly_spelt(name))
                for table, (name, *_) in zip(tables, TABLES, strict=True)
            ]
            return await asyncio.gather(*plays)

        games = asyncio.run(main())
        yield server, tables, games
    finally:
        server.stop()


def odd_spellings(text: str) -> list[str]:
    """Spellings of an action's text other than the canonical one: other case, blanks doubled and around."""
    return [text.upper(), "  " + text.replace(" ", "   ") + " ", text.title()]


def _oddly_spelt(game_name: str) -> Any:
    """A player's choice: a random legal action (Kamara's green cards played more often than not, so that their
    hidden choices come up), sent in an odd spelling that the game still reads as the same action."""
    game = laro.get_game(game_name)

    def choose(legal: list[str], rng: random.Random) -> str:
        cards = [text for text in legal if text.startswith("play ")] if game_name == "kamara" else []
        text = rng.choice(cards if cards and rng.random() < 0.7 else legal)  # Kamara: green cards played often
        accepted = [odd for odd in odd_spellings(text) if odd != text and _reads_as(game, odd, text)]
        return rng.choice(accepted) if accepted else text

    return choose


def _reads_as(game: Any, odd: str, text: str) -> bool:
    try:
        return str(game.parse_action(odd)) == text
    except ValueError:
        return False


def _games(api: Api) -> dict[str, Any]:
    return {game["name"]: game for game in api.games()}


_FULL: dict[tuple[str, int], dict[str, Any]] = {}


def _full(stored: StoredGame, seq: int) -> dict[str, Any]:
    """The whole state of the table after event ``seq``, as JSON (kept: many messages are about one state)."""
    key = (stored.table_id, seq)
    if key not in _FULL:
        _FULL[key] = stored.state_at(seq).to_json()
    return _FULL[key]


def _secrets_and_known(stored: StoredGame, seq: int, seat: int | None) -> tuple[list[Any], set[Any]]:
    """What must not show in a message about state ``seq`` to ``seat`` (None: a spectator), and what may."""
    data = _full(stored, seq)
    hiding = HIDDEN[stored.game]
    if seat is None:
        secrets = [secret for other in range(stored.players) for secret in hiding.hidden(data, other)]
        known = hiding.visible(data, -1)
    else:
        secrets, known = hiding.hidden(data, seat), hiding.visible(data, seat)
    return secrets, _norms(known)


def _check_message(stored: StoredGame, client: Client, text: str, message: dict[str, Any]) -> None:
    if message["type"] != "state":
        return
    seq, seat = message["seq"], message["seat"]
    state = stored.state_at(seq)
    # the observation is exactly the game's for that seat (or the public one): nothing added, nothing older
    assert message["observation"] == (state.observation(seat) if seat is not None else state.public_observation())
    mine = seat is not None and state.current_player == seat
    assert message["legal_actions"] == ([str(action) for action in state.legal_actions()] if mine else [])
    secrets, known = _secrets_and_known(stored, seq, seat)
    seen = _norms(message)
    for secret in secrets:
        if secret in ([], {}, "", None) or _norm(secret) in known:
            continue  # nothing to reveal, or something the seat may know anyway
        assert _norm(secret) not in seen, f"{client.name} of {stored.table_id} at seq {seq} can see {secret!r}"
    if stored.game == "kamara":  # no card id in the text that the seat may not know
        visible = HIDDEN["kamara"].visible(_full(stored, seq), -1 if seat is None else seat)
        allowed = {value for value in _subvalues(visible) if isinstance(value, str)}
        for card in set(YELLOW_CARD.findall(text)):
            assert card in allowed, f"{client.name} of {stored.table_id} at seq {seq} is told of card {card}"


def test_no_message_holds_what_its_seat_may_not_see(played: Any) -> None:
    server, tables, games = played
    checked = 0
    for created, (players, watchers) in zip(tables, games, strict=True):
        stored = server.stored(created.id)
        assert stored.finished
        for client in (*players, *watchers):
            assert client.texts, client.name
            for text, message in zip(client.texts, client.messages, strict=True):
                _check_message(stored, client, text, message)
                checked += 1
    assert checked > 500


def test_no_message_holds_a_seed_a_token_or_a_token_hash(played: Any) -> None:
    server, tables, games = played
    seeds = [str(server.stored(created.id).seed) for created in tables]
    tokens = [token for created in tables for token in created.tokens.values()]
    forbidden = [*seeds, *tokens, *map(hash_token, tokens)]
    assert all(len(secret) >= 10 for secret in forbidden)  # long enough never to turn up by chance
    for _, (players, watchers) in zip(tables, games, strict=True):
        for client in (*players, *watchers):
            for text in client.texts:
                for secret in forbidden:
                    assert secret not in text, f"{client.name} was sent a secret"


def test_the_state_a_seat_sees_follows_the_table(played: Any) -> None:
    """Seats and spectators get states in seq order, each about their own seat, and see the whole game's end."""
    server, tables, games = played
    for created, (players, watchers) in zip(tables, games, strict=True):
        stored = server.stored(created.id)
        for client in (*players, *watchers):
            states = [message for message in client.messages if message["type"] == "state"]
            seqs = [state["seq"] for state in states]
            assert seqs == sorted(seqs) and seqs[-1] == len(stored.events)
            assert len({state["seat"] for state in states}) == 1
            log = [entry for state in states for entry in state["log"]]
            by_seq = {entry["seq"]: entry for entry in log}
            assert len(by_seq) == len({json.dumps(entry, sort_keys=True) for entry in log})  # one entry per seq


def test_the_server_log_holds_no_secret(played: Any) -> None:
    server, tables, _ = played
    text = server.log_text()
    assert "takes seat" in text and " over: winners" in text  # every event is logged: there is a lot to scan
    forbidden: list[str] = []
    for created in tables:
        stored = server.stored(created.id)
        forbidden.append(str(stored.seed))
        forbidden += [*created.tokens.values(), *map(hash_token, created.tokens.values())]
        game = laro.get_game(stored.game)
        for event in stored.events:  # actions whose full text names hidden cards (Kamara's order and keep)
            if event["type"] == "act" and game.public_text(event["action"]) != event["action"]:
                forbidden += [event["action"], *odd_spellings(event["action"])]
    for secret in forbidden:
        assert secret not in text, "the server's log holds a secret"
    assert not YELLOW_CARD.search(text), "the server's log names a Kamara card"
    assert not LAMA_CARDS.search(text), "the server's log lists L.A.M.A. cards"
    for word in ("hands", "draw_pile", "yellow_deck", "green_deck", '"seed"', "token_hash"):
        assert word not in text, f"the server's log holds {word}"


def test_the_scan_catches_a_planted_secret(played: Any) -> None:
    """The checks above are not vacuous: a recorded message with another seat's hand (in another order) or a
    hidden card's id planted in it is caught."""
    server, tables, games = played
    planted = 0
    for created, (players, watchers) in zip(tables, games, strict=True):
        stored = server.stored(created.id)
        options = stored.options
        if stored.players < 3 or options.get("open_cards"):
            continue
        for client in (*players, *watchers):
            text, message = next(
                (text, message)
                for text, message in zip(client.texts, client.messages, strict=True)
                if message["type"] == "state" and message["observation"].get("phase", "play") == "play"
            )
            seat, data = message["seat"], _full(stored, message["seq"])
            other = (0 if seat is None else seat + 1) % stored.players
            _, known = _secrets_and_known(stored, message["seq"], seat)
            if stored.game == "lama":
                secret: Any = list(reversed(data["hands"][other]))
                if not secret or _norm(secret) in known:
                    continue  # nothing to plant that the seat does not know
                leaky = {**message, "table": {**message["table"], "note": secret}}
                with pytest.raises(AssertionError, match="can see"):
                    _check_message(stored, client, json.dumps(leaky), leaky)
            else:
                if not data["yellow_deck"]:
                    continue
                secret = data["yellow_deck"][-1]
                entry = {"seq": message["seq"], "seat": other, "type": "act", "text": f"seat {other}: order {secret}"}
                leaky = {**message, "log": [*message["log"], entry]}
                with pytest.raises(AssertionError, match="is told of card"):
                    _check_message(stored, client, json.dumps(leaky), leaky)
            _check_message(stored, client, text, message)  # the message as it came is fine
            planted += 1
    assert planted >= 10


def test_actions_are_kept_and_told_in_their_canonical_text(played: Any) -> None:
    """Players sent their actions in odd spellings (``KEEP Y12``, ``  order   y20 …``): the store holds each in its
    canonical text, and no other seat or spectator ever receives a hidden card's name in any spelling. The
    tables' fixed seeds make Kamara's ``order`` and ``keep`` happen in every run."""
    server, tables, games = played
    hidden_kinds: set[str] = set()
    for created, (players, watchers) in zip(tables, games, strict=True):
        stored = server.stored(created.id)
        game = laro.get_game(stored.game)
        for event in stored.events:
            if event["type"] != "act":
                continue
            assert str(game.parse_action(event["action"])) == event["action"]  # canonical
            public = game.public_text(event["action"])
            if public == event["action"]:
                continue
            hidden_kinds.add(public)
            spellings = [event["action"], *odd_spellings(event["action"])]
            for client in (*players, *watchers):
                if client.name == f"seat {event['seat']}":
                    continue
                for text in client.texts:
                    assert not any(spelt.lower() in text.lower() for spelt in spellings), f"{client.name} was told"
    assert hidden_kinds >= {"order", "keep"}, hidden_kinds
