"""A terminal game's record on disk, kept up to date after every move.

While the game runs, its file holds only what the person may know: a :class:`~laro.core.PartialRecord` of their
seat, as the server's running records are (no seed, since the seed deals every hidden card; the bots' moves as the
person was told them). The whole record, seed included, is kept beside it in the hidden folder ``.unfinished/``
for ``laro play --resume`` alone: no laro command shows it. Once the game is over the file is the whole record
and the hidden copy is gone.

>>> import laro, tempfile
>>> state = laro.get_game("lama").new_game(2, seed=7)
>>> record = GameRecord.start(state, seed=7, players=["You", "random bot"], bots={1: "random"})
>>> with tempfile.TemporaryDirectory() as folder:
...     path = write(Path(folder) / "lama.json", record, state, seats=[], human=0)
...     load_record(path).seat, load_resumable(path).seed
(0, 7)
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from laro.core import GameRecord, GameState, PartialRecord, RecordError, get_game, load_record

__all__ = ["UNFINISHED", "load_resumable", "told", "whole_record_path", "write"]

UNFINISHED = ".unfinished"  # the folder, beside the records, of the whole records of unfinished games


def whole_record_path(path: Path) -> Path:
    """Where the whole record of the unfinished game saved at ``path`` is kept."""
    return path.parent / UNFINISHED / path.name


def told(game: str, actions: Sequence[str], seats: Sequence[int], human: int) -> list[str]:
    """Each of the ``actions`` of ``game`` as the person at ``human`` was told it (``seats``: who made each)."""
    rules = get_game(game)
    return [a if seat == human else rules.public_text(a) for a, seat in zip(actions, seats, strict=True)]


def write(path: Path, record: GameRecord, state: GameState, seats: Sequence[int], human: int) -> Path:
    """Save ``record`` at ``path``: the whole record once ``state`` is over, else the person's view of it there
    and the whole record in the hidden folder (written first: a crash between the two leaves it ahead)."""
    whole = whole_record_path(path)
    if state.is_over:
        record.save(path)
        with contextlib.suppress(FileNotFoundError):
            whole.unlink()
        with contextlib.suppress(OSError):
            whole.parent.rmdir()  # when no other unfinished game is kept there
        return path
    record.save(whole)
    view = PartialRecord(
        game=record.game,
        rules_version=record.rules_version,
        num_players=record.num_players,
        options=record.options,
        seat=human,
        actions=told(record.game, record.actions, seats, human),
        seats=list(seats),
        players=record.players,
        bots=record.bots,
        observation=state.observation(human),
        practice=record.practice,
        takebacks=record.takebacks,
    )
    return _save_json(path, view.to_json())


def _save_json(path: Path, data: Any) -> Path:
    """Write ``data`` as JSON at ``path`` atomically (a crash never leaves half a file), as records are."""
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as tmp:
        json.dump(data, tmp, indent=1)
        tmp.write("\n")
    os.replace(tmp.name, path)
    return path


def load_resumable(path: Path) -> GameRecord:
    """The whole record of the game saved at ``path``: the file itself once the game is over (or as an earlier
    laro saved it), else the copy kept for resuming it, which must agree with the file."""
    seen = load_record(path)
    if isinstance(seen, GameRecord):
        return seen
    whole = whole_record_path(path)
    if not whole.is_file():
        raise RecordError(
            f"{path} holds an unfinished game as its player saw it; the whole game, which resuming needs, is kept "
            f"in {whole}, and that file is missing"
        )
    record = GameRecord.load(whole)
    moves = len(seen.actions)
    same = (record.game, record.players) == (seen.game, seen.players) and len(record.actions) >= moves
    if not same or told(record.game, record.actions[:moves], seen.seats, seen.seat or 0) != seen.actions:
        raise RecordError(f"{whole} does not hold the game saved in {path}: it cannot be resumed")
    return record
