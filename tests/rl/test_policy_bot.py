"""A trained policy as a laro bot (``policy:PATH``): in tournaments and the terminal, with clear errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from laro.bots import BotError, get_bot
from laro.core import get_game
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.policy_bot import PolicyBot, save_policy


def _policy(path: Path, players: int = 2, game: str = "lama", seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    size = LamaEncoding(players).size
    save_policy(
        path,
        [(rng.normal(size=(size, 16)), rng.normal(size=16)), (rng.normal(size=(16, 9)), np.zeros(9))],
        game,
        players,
    )
    return path


def test_get_bot_finds_the_policy_through_its_entry_point(tmp_path: Path) -> None:
    path = _policy(tmp_path / "agent.npz")
    bot = get_bot(f"policy:{path}", "lama")
    assert isinstance(bot, PolicyBot) and bot.name == f"policy:{path}"
    state = get_game("lama").new_game(2, seed=3)
    for _ in range(50):
        seat = state.current_player
        legal = state.legal_actions()
        action = bot.choose(state.observation(seat), legal, random.Random(0))
        logits = bot.logits(state.observation(seat))
        assert action in legal and logits[action.index] == max(logits[a.index] for a in legal)
        state = state.apply(action)
        if state.is_over:
            break


def test_a_tournament_with_a_policy_bot(tmp_path: Path) -> None:
    path = _policy(tmp_path / "agent.npz")
    out = tmp_path / "games.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "laro",
            "tournament",
            "lama",
            "--bots",
            f"policy:{path},random",
            "--games",
            "6",
            "--seed",
            "1",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert f"policy:{path}" in result.stdout
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len([line for line in lines if json.loads(line).get("winners") is not None]) == 6


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.npz", "no policy file"),
        (lambda d: (d / "text.npz").write_text("hello") and d / "text.npz", "is not a laro policy file"),
        (lambda d: _policy(d / "kamara.npz", game="kamara"), "plays kamara, not lama"),
    ],
)
def test_bad_policy_files_are_refused_clearly(tmp_path: Path, make: object, message: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(BotError, match=message):
        get_bot(f"policy:{path}", "lama")


def test_a_policy_for_other_sizes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "wrong.npz"
    save_policy(path, [(np.zeros((5, 9)), np.zeros(9))], "lama", 2)
    with pytest.raises(BotError, match="takes 5 inputs and gives 9 logits; lama for 2 players needs 34 and 9"):
        get_bot(f"policy:{path}", "lama")
    bot = get_bot(f"policy:{_policy(tmp_path / 'two.npz')}", "lama")
    state = get_game("lama").new_game(3, seed=1)
    with pytest.raises(BotError, match="trained for 2 players; the game has 3"):
        bot.choose(state.observation(0), state.legal_actions(), random.Random(0))


def test_the_shipped_trained_policy_beats_random_bots() -> None:
    """examples/lama-ppo-2p.npz (MaskablePPO, 200,000 steps against random, see docs/rl.md) wins most games."""
    path = Path(__file__).resolve().parents[2] / "examples" / "lama-ppo-2p.npz"
    game = get_game("lama")
    wins = 0.0
    for index in range(200):
        seats = [get_bot(f"policy:{path}", "lama"), get_bot("random", "lama")]
        if index % 2:
            seats.reverse()
        rng = random.Random(index)
        state = game.new_game(2, seed=index)
        while not state.is_over:
            seat = state.current_player
            state = state.apply(seats[seat].choose(state.observation(seat), state.legal_actions(), rng))
        learner = index % 2
        wins += 1 / len(state.winners) if learner in state.winners else 0.0
    assert wins / 200 > 0.85  # a random player wins about half; measured: 94.0% over 400 tournament games
