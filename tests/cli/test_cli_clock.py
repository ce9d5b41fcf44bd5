"""``laro play --clock``: the person's turns are timed; when the clock runs out the heuristic bot plays that turn,
and the next turn starts from a small bank. The real command, with nothing typed in time."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from laro.cli.main import cli


@pytest.mark.slow  # a real turn clock waited out
def test_a_clock_that_runs_out_lets_the_stand_in_play(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "laro", "play", "lama", "-n", "2", "--seed", "5", "--delay", "0"]
    command += ["--clock", "10+0", "--records", str(tmp_path)]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert process.stdin is not None and process.stdout is not None
    seen = []
    start = time.monotonic()
    try:
        for line in process.stdout:  # nothing is typed: the first turn times out
            seen.append(line)
            assert time.monotonic() - start < 40, "".join(seen)
            if "Your time ran out" in line:
                break
        assert any("Your clock: 0:10 left" in line for line in seen)
        assert time.monotonic() - start >= 9  # not before the clock ran out
        process.stdin.write("exit\ny\n")
        process.stdin.close()
        rest = process.stdout.read()
    finally:
        process.wait(timeout=30)
    assert "Your time ran out — the heuristic bot plays this turn for you." in "".join(seen)
    assert "Your clock:" in rest  # the next turn is timed again, from the small bank
    record = json.loads(next(tmp_path.glob("lama_*.json")).read_text())
    assert len(record["actions"]) >= 2  # the stand-in's move is in the record, as any move


def test_a_bad_clock_is_refused() -> None:
    result = CliRunner().invoke(cli, ["play", "lama", "--clock", "blitz"])
    assert result.exit_code == 2 and "--clock" in result.output and "no clock 'blitz'" in result.output
    result = CliRunner().invoke(cli, ["play", "lama", "--clock", "1+0"])
    assert result.exit_code == 2 and "bank is a number of seconds from 10" in result.output
