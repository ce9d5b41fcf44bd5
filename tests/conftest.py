"""Shared test settings: hypothesis profiles (choose one with HYPOTHESIS_PROFILE; ``ci`` is the default); mypy begun
early on the second core (tests/lint_early.py); bytecode kept."""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, settings
from tests.lint_early import start_mypy_early, stop_all

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Where the environment turns bytecode caches off (PYTHONDONTWRITEBYTECODE), every process of the run would compile
# laro and rewrite the test modules again: each test worker, and each server, command and bot worker a test starts
# (about 0.4 s a process). The run keeps them, in the __pycache__ folders beside the sources, as Python does.
if sys.dont_write_bytecode:
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # for the processes started from here on, the workers included


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    start_mypy_early(config, items)


def pytest_sessionfinish(session: pytest.Session) -> None:
    stop_all()
