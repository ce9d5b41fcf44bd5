"""Fixtures for the command-line tests: run ``laro`` in-process with text fed to its standard input, and make
game records to replay."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from laro.cli.main import cli
from laro.core import GameRecord, result_of
from laro.games.lama import GAME


@pytest.fixture
def run() -> Callable[..., Result]:
    """``run(*args, input="...")``: invoke ``laro`` and return click's result (output, exit code)."""

    def invoke(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)

    return invoke


@pytest.fixture
def make_record(tmp_path: Path) -> Callable[..., Path]:
    """``make_record(name, seed=1, moves=None)``: save a record of random moves (the whole game, or its first
    ``moves``) of a 3-player game that ends at 12 points, and return its path."""

    def save(name: str = "game.json", seed: int = 1, moves: int | None = None) -> Path:
        state = GAME.new_game(3, seed=seed, options={"end_score": 12})
        record = GameRecord.start(state, seed, players=["Ana", "Bot 1 (random)", "Bot 2 (random)"])
        rng = random.Random(seed)
        while not state.is_over and (moves is None or len(record.actions) < moves):
            action = str(rng.choice(state.legal_actions()))
            state = state.apply(action)
            record.actions.append(action)
        if state.is_over:
            record.result = result_of(state)
        return record.save(tmp_path / name)

    return save
