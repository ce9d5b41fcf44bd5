"""The code stays tidy: ruff and mypy --strict pass on the whole package (configured in pyproject.toml)."""

from __future__ import annotations

import subprocess

import pytest
from tests.lint_early import ROOT, early, tool


@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "src", "tests"], ["ruff", "format", "--check", "src", "tests"], ["mypy"]],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_clean(command: list[str]) -> None:
    """The tool reports nothing."""
    started = early(command[0])
    if started is not None:  # begun as the tests were collected
        code, output = started.result()
    else:
        result = subprocess.run([tool(command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True)
        code, output = result.returncode, result.stdout + result.stderr
    assert code == 0, output
