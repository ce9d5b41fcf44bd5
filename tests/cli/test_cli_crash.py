"""Nothing a player did is lost when the process dies: the record is on disk after every move."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from laro.cli.saved import load_resumable
from laro.core import GameRecord, replay


def _start(tmp_path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "COLUMNS": "100", "TERM": "dumb"}
    command = [sys.executable, "-m", "laro", "play", "lama", "--bots", "random", "--delay", "0", "--seed", "7349218"]
    command += ["--records", str(tmp_path / "records")]
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)


def _record(tmp_path: Path, at_least: int, holding: str | None = None) -> GameRecord:
    """The one record in the folder, once it holds ``at_least`` actions (and the action ``holding``, if given;
    waits up to 20 s)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        files = list((tmp_path / "records").glob("*.json"))
        if files:
            try:
                record = load_resumable(files[0])
            except ValueError:
                record = None  # being replaced right now
            if record is not None and len(record.actions) >= at_least and holding in (None, *record.actions):
                return record
        time.sleep(0.05)
    pytest.fail("the record never reached the expected number of actions")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP], ids=["kill-9", "term", "hup"])
def test_record_survives_the_process(tmp_path: Path, sig: signal.Signals) -> None:
    """After a move, killing the process keeps every move made so far, and the record replays."""
    process = _start(tmp_path)
    assert process.stdin is not None
    try:
        process.stdin.write("quit\n")  # quit the round at the first turn; the bots finish it
        process.stdin.flush()
        record = _record(tmp_path, at_least=1, holding="quit")  # a bot may have moved first: wait for our move
        process.send_signal(sig)
        output, _ = process.communicate(timeout=20)
    finally:
        process.kill()
    saved = load_resumable(next((tmp_path / "records").glob("*.json")))
    assert len(saved.actions) >= len(record.actions) >= 1
    assert "quit" in saved.actions
    replay(saved)  # every saved action replays
    if sig != signal.SIGKILL:
        assert "saved to" in output and process.returncode == 130
    assert str(saved.seed) not in output.split("Seed:")[0]  # the seed shows only after the game stopped
    assert json.loads(next((tmp_path / "records").glob("*.json")).read_text())["result"] is None
