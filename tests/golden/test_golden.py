"""Golden game records: the checked-in records replay to exactly the checked-in final states."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from laro.core import GameRecord, iter_replay, replay, result_of

HERE = Path(__file__).resolve().parent
FILES = sorted(HERE.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) == {"record", "final_state"}
    return data


def test_golden_files_are_checked_in() -> None:
    """The golden records exist (regenerate them with tests/golden/make_golden.py)."""
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_golden_record_replays_exactly(path: Path) -> None:
    """A stored record replays to the stored final state, move by move without error, and to the stored result."""
    data = _load(path)
    record = GameRecord.from_json(data["record"])
    final = replay(record)
    assert final.to_json() == data["final_state"]
    assert final.is_over and result_of(final) == record.result
    assert sum(1 for _ in iter_replay(record)) == len(record.actions) + 1


def test_golden_records_cover_the_options() -> None:
    """Between them the golden records use 2, 4 and 6 players and every non-default option value."""
    records = [_load(path)["record"] for path in FILES]
    assert {2, 4, 6} <= {record["num_players"] for record in records}
    used = {(key, json.dumps(value)) for record in records for key, value in record["options"].items()}
    assert ("next_round_starter", '"ended_round"') in used
    assert ("token_supply", '"boxed"') in used
    assert ("edition", '"party"') in used
    assert any(key == "end_score" and value != "40" for key, value in used)
