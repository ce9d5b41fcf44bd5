"""The house stays tidy: ruff and mypy --strict pass on the whole package (configured in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    path = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed; install the dev extra: pip install -e '.[dev]'")
    return path


@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "src", "tests"], ["ruff", "format", "--check", "src", "tests"], ["mypy"]],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_clean(command: list[str]) -> None:
    """The tool reports nothing."""
    result = subprocess.run([_tool(command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
