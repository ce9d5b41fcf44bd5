"""Game records: saved and loaded exactly; every kind of corrupt record raises RecordError with a clear message."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import laro
from laro.core import GameRecord, LaroError, RecordError, iter_replay, replay, result_of
from laro.core.record import RECORD_FORMAT

GAME = laro.get_game("lama")


def _played(seed: int = 5, num_players: int = 3, options: dict[str, Any] | None = None) -> tuple[GameRecord, Any]:
    state = GAME.new_game(num_players, seed=seed, options=options)
    record = GameRecord.start(state, seed=seed, players=["ana", "ben", "cy"][:num_players])
    rng = random.Random(seed)
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        record.actions.append(str(action))
        state = state.apply(action)
    record.result = result_of(state)
    return record, state


def _valid() -> dict[str, Any]:
    record, _ = _played()
    return record.to_json()


def test_start_fills_in_the_game() -> None:
    """A record started from a new state names the game, version, players, options (defaults included) and seed."""
    state = GAME.new_game(2, seed=9, options={"end_score": 30})
    record = GameRecord.start(state, seed=9)
    assert (record.game, record.rules_version, record.num_players, record.seed) == ("lama", "1", 2, 9)
    assert record.options == {
        "edition": "classic",
        "next_round_starter": "last_card",
        "token_supply": "unlimited",
        "end_score": 30,
    }
    assert record.actions == [] and record.players == [] and record.result is None


def test_to_json_names_the_format() -> None:
    """The JSON form carries the record format and every field."""
    data = _valid()
    assert data["format"] == RECORD_FORMAT
    assert set(data) == {
        "format", "game", "rules_version", "num_players", "options", "seed", "players", "bots", "actions", "result"
    }  # fmt: skip
    assert json.loads(json.dumps(data)) == data


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    """A saved record loads back equal and replays to the same final state; save creates folders."""
    record, final = _played(options={"token_supply": "boxed"})
    path = record.save(tmp_path / "games" / "one.json")
    assert path.exists() and path.read_text(encoding="utf-8").endswith("\n")
    assert [p.name for p in path.parent.iterdir()] == ["one.json"]  # no temporary file left behind
    loaded = GameRecord.load(path)
    assert loaded == record
    assert replay(loaded).to_json() == final.to_json()
    assert result_of(replay(loaded)) == record.result


def test_save_overwrites(tmp_path: Path) -> None:
    """Saving again over a record replaces it."""
    first, _ = _played(seed=1)
    second, _ = _played(seed=2)
    path = tmp_path / "game.json"
    first.save(path)
    second.save(path)
    assert GameRecord.load(path) == second


def test_iter_replay_yields_every_state() -> None:
    """iter_replay yields the start, then each action with the state after it."""
    record, final = _played()
    steps = list(iter_replay(record))
    assert steps[0][0] is None and steps[0][1].to_json() == GAME.new_game(3, seed=5).to_json()
    assert [action for action, _ in steps[1:]] == record.actions
    assert steps[-1][1].to_json() == final.to_json()


def test_result_of() -> None:
    """result_of reports whether the game is over, the winners and the scores."""
    _, final = _played()
    assert result_of(final) == {"over": True, "winners": list(final.winners), "scores": list(final.scores)}
    assert result_of(GAME.new_game(2, seed=1)) == {"over": False, "winners": [], "scores": [0, 0]}


def test_a_record_of_an_unfinished_game_replays() -> None:
    """A record may stop mid-game (a saved game); it replays to that state."""
    record, _ = _played()
    record.actions = record.actions[:3]
    state = GAME.new_game(3, seed=5)
    for action in record.actions:
        state = state.apply(action)
    assert replay(record).to_json() == state.to_json()


# -- corrupt records -----------------------------------------------------------------------------------------


def test_not_json(tmp_path: Path) -> None:
    """Loading a file that is not JSON raises RecordError naming the file."""
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match=r"bad\.json is not valid JSON"):
        GameRecord.load(path)


def test_missing_file(tmp_path: Path) -> None:
    """Loading a file that does not exist raises RecordError, not OSError."""
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "nothing.json")


@pytest.mark.parametrize("data", [[], "record", 3, None])
def test_not_an_object(data: Any) -> None:
    """A record must be a JSON object."""
    with pytest.raises(RecordError, match="must be a JSON object"):
        GameRecord.from_json(data)


@pytest.mark.parametrize("fmt", [None, "laro-record/0", "laro-record/2", 1])
def test_wrong_format(fmt: Any) -> None:
    """A record of another format (or none) is refused, naming the format expected."""
    data = _valid()
    if fmt is None:
        del data["format"]
    else:
        data["format"] = fmt
    with pytest.raises(RecordError, match=f"expected {RECORD_FORMAT}"):
        GameRecord.from_json(data)


def test_wrong_format_file(tmp_path: Path) -> None:
    """A JSON file that is not a record (e.g. a state) is refused on load."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps(GAME.new_game(2, seed=1).to_json()), encoding="utf-8")
    with pytest.raises(RecordError, match="not a laro game record"):
        GameRecord.load(path)


@pytest.mark.parametrize("field", ["game", "rules_version", "num_players", "seed", "options", "actions"])
def test_missing_field(field: str) -> None:
    """A record lacking a required field is refused, naming the field."""
    data = _valid()
    del data[field]
    with pytest.raises(RecordError, match=f"lacks the field '{field}'"):
        GameRecord.from_json(data)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("game", 3),
        ("rules_version", 1),
        ("num_players", "3"),
        ("num_players", True),
        ("seed", 1.5),
        ("seed", False),
        ("options", []),
        ("actions", "play 1"),
    ],
)
def test_wrong_field_type(field: str, value: Any) -> None:
    """A field of the wrong type is refused, naming the field and the type."""
    data = _valid()
    data[field] = value
    with pytest.raises(RecordError, match=f"field '{field}' must be of type"):
        GameRecord.from_json(data)


def test_actions_must_be_texts() -> None:
    """Recorded actions must be texts."""
    data = _valid()
    data["actions"] = ["draw", 7]
    with pytest.raises(RecordError, match="actions must all be texts"):
        GameRecord.from_json(data)


def test_actions_that_do_not_replay() -> None:
    """An action that is malformed or illegal at its point raises RecordError naming it and its number."""
    record, _ = _played()
    record.actions = [*record.actions[:2], "fly away"]
    with pytest.raises(RecordError, match=r"action 3 \('fly away'\) does not replay"):
        replay(record)
    start = GAME.new_game(3, seed=5)
    illegal = next(str(a) for a in GAME.actions if a not in start.legal_actions())
    record.actions = [illegal]
    with pytest.raises(RecordError, match=rf"action 1 \('{illegal}'\) does not replay: .*not allowed"):
        replay(record)


def test_action_after_the_end() -> None:
    """An action recorded after the game ended does not replay."""
    record, _ = _played()
    record.actions.append("quit")
    with pytest.raises(RecordError, match=f"action {len(record.actions)} .*game is over"):
        replay(record)


def test_unknown_game() -> None:
    """A record of a game this laro does not know raises RecordError listing the known games."""
    record, _ = _played()
    record.game = "chess"
    with pytest.raises(RecordError, match=r"unknown game 'chess'; known games: .*lama"):
        replay(record)


def test_wrong_rules_version() -> None:
    """A record made with other rules of the game raises RecordError naming both versions."""
    record, _ = _played()
    record.rules_version = "0.9"
    with pytest.raises(RecordError, match=r"lama rules 0\.9, this laro implements 1"):
        replay(record)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [("num_players", 9, "2 to 6 players"), ("options", {"speed": "fast"}, "unknown option")],
)
def test_record_that_cannot_start(field: str, value: Any, message: str) -> None:
    """A record whose player count or options are not allowed raises RecordError saying why."""
    record, _ = _played()
    setattr(record, field, value)
    with pytest.raises(RecordError, match=f"cannot start a game: .*{message}"):
        replay(record)


def test_record_error_is_a_value_error() -> None:
    """RecordError is both a laro error and a ValueError."""
    assert issubclass(RecordError, LaroError) and issubclass(RecordError, ValueError)
