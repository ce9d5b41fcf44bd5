"""The training example as a researcher runs it: MaskablePPO (sb3-contrib, torch) learns L.A.M.A. against random
bots in a small configuration, its exported network plays exactly as the trained model does, and laro's
tournament plays it as ``policy:PATH``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from laro.core import get_game
from laro.rl.policy_bot import PolicyBot
from laro.rl.spec import Table

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, float]]:
    out = tmp_path_factory.mktemp("ppo") / "lama-ppo"
    args = ["--timesteps", "8192", "--eval-games", "200", "--seed", "1", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout[: done.stdout.rindex("}") + 1])
    assert "MaskablePPO, 8,192 steps" in done.stdout
    return out, report


def test_the_example_trains_a_policy_that_beats_a_random_player(trained: tuple[Path, dict[str, float]]) -> None:
    out, report = trained
    assert out.with_suffix(".zip").is_file() and out.with_suffix(".npz").is_file()
    assert report["timesteps"] == 8192 and report["eval_games"] == 200 and report["training_seconds"] > 0
    # the same 200 deals for both; a random player wins about its fair share, the learner clearly more
    assert abs(report["win_rate_random_player"] - 0.5) < 0.1
    assert report["win_rate_trained"] > report["win_rate_random_player"] + 0.15


def test_the_exported_network_chooses_as_the_trained_model(trained: tuple[Path, dict[str, float]]) -> None:
    from sb3_contrib import MaskablePPO

    out, _ = trained
    model = MaskablePPO.load(str(out.with_suffix(".zip")), device="cpu")
    bot = PolicyBot(str(out.with_suffix(".npz")), "lama")
    table = Table("lama", 2, None)
    rng = random.Random(5)
    state = get_game("lama").new_game(2, seed=5)
    compared = 0
    while compared < 400:
        if state.is_over:
            state = get_game("lama").new_game(2, seed=rng.randrange(10**6))
        seat = state.current_player
        assert seat is not None
        observation = state.observation(seat)
        legal = state.legal_actions()
        mask = np.zeros(table.num_actions, dtype=bool)
        mask[[action.index for action in legal]] = True
        expected, _ = model.predict(table.encoding.encode(observation), action_masks=mask, deterministic=True)
        assert bot.choose(observation, legal, rng).index == int(expected)
        compared += 1
        state = state.apply(rng.choice(legal))


def test_laro_plays_the_trained_policy_in_a_tournament(trained: tuple[Path, dict[str, float]]) -> None:
    out, _ = trained
    policy = f"policy:{out.with_suffix('.npz')}"
    done = subprocess.run(
        [sys.executable, "-m", "laro", "tournament", "lama", "--bots", f"{policy},random", "--games", "20"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert policy in done.stdout and "20 games" in done.stdout
