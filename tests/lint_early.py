"""mypy --strict takes about 40 s on its own: in a run of one process it is started as the tests are collected, on
the second core, and its test (tests/test_lint.py) reads its answer when its turn comes."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MYPY_TEST = "tests/test_lint.py::test_clean[mypy-strict]"


def tool(name: str) -> str:
    """The path of one of the dev extra's commands, beside this Python's."""
    path = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed; install the dev extra: pip install -e '.[dev]'")
    return path


class Early:
    """A command started now, its output kept in a file until it is asked for."""

    def __init__(self, command: list[str]) -> None:
        self.output = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115  (open until the answer is read, or stop())
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=self.output, stderr=subprocess.STDOUT, text=True)

    def result(self, timeout: float = 600) -> tuple[int, str]:
        """Wait (at most ``timeout`` seconds) for the command; its exit code and what it printed."""
        code = self.process.wait(timeout=timeout)
        self.output.seek(0)
        return code, self.output.read()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.output.close()


_started: dict[str, Early] = {}


def start_mypy_early(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start mypy now if its test is to run in this process and this is not one of several workers (each of which
    would run it again)."""
    if hasattr(config, "workerinput") or not any(item.nodeid == MYPY_TEST for item in items):
        return
    _started["mypy"] = Early([tool("mypy")])


def early(name: str) -> Early | None:
    return _started.get(name)


def stop_all() -> None:
    for started in _started.values():
        started.stop()
    _started.clear()
