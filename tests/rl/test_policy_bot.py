"""A trained policy as a laro bot (``policy:PATH``): in tournaments and the terminal, with clear errors."""

from __future__ import annotations

import functools
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from laro.bots import BotError, get_bot
from laro.bots import base as bot_base
from laro.core import get_game
from laro.games.lama.cards import ALL_CARD_TEXT
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.policy_bot import PolicyBot, save_policy
from laro.server.errors import Refusal
from laro.server.table import create
from laro.sim.tournament import Tournament

LARO = (sys.executable, "-m", "laro")
SHIPPED = Path(__file__).resolve().parents[2] / "examples" / "lama-ppo-2p.npz"


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
    with pytest.raises(BotError, match=r"trained for L\.A\.M\.A\. with 2 players; this table is for 3 players"):
        bot.choose(state.observation(0), state.legal_actions(), random.Random(0))


def test_the_file_records_what_the_policy_was_trained_for(tmp_path: Path) -> None:
    size = LamaEncoding(4, ALL_CARD_TEXT).size
    layers = [(np.ones((size, 8)), np.zeros(8)), (np.ones((8, 16)), np.zeros(16))]
    save_policy(tmp_path / "party.npz", layers, "lama", 4, options={"edition": "party"}, activation="relu")
    with np.load(tmp_path / "party.npz") as data:
        meta = json.loads(str(data["meta"]))
    assert meta["num_players"] == 4 and meta["options"]["edition"] == "party" and meta["options"]["end_score"] == 40
    assert meta["activation"] == "relu" and meta["layer_sizes"] == [size, 8, 16]
    bot = PolicyBot(str(tmp_path / "party.npz"), "lama")
    state = get_game("lama").new_game(4, seed=2, options={"edition": "party"})
    x = bot.table.encode(state, 0)
    assert np.allclose(bot.logits(state.observation(0)), np.maximum(x @ layers[0][0], 0) @ layers[1][0])
    with pytest.raises(ValueError, match="activation must be one of tanh, relu"):
        save_policy(tmp_path / "x.npz", layers, "lama", 4, options={"edition": "party"}, activation="gelu")


def test_the_shipped_policy_file_without_those_fields_is_a_classic_two_player_tanh_policy() -> None:
    bot = PolicyBot(str(SHIPPED), "lama")
    assert bot.meta["options"]["edition"] == "classic" and bot.table.num_players == 2
    assert bot.meta["activation"] == "tanh" and bot.meta["layer_sizes"] == [34, 64, 64, 9]
    bot.check_table(2, {})
    bot.check_table(2, {"end_score": 60})  # another end score: the same observations and actions


@pytest.mark.parametrize(
    ("players", "options", "why"),
    [
        (2, {"edition": "party"}, "with 2 players, edition classic; this table is for 2 players, edition party"),
        (4, {}, "with 2 players; this table is for 4 players"),
    ],
)
def test_a_tournament_refuses_a_policy_for_another_table_before_any_game(
    tmp_path: Path, players: int, options: dict[str, object], why: str
) -> None:
    lineup = [f"policy:{SHIPPED}", *["random"] * (players - 1)]
    with pytest.raises(BotError, match=re.escape(why)):
        Tournament.create("lama", lineup, seed=1, options=options)
    out = tmp_path / "games.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "laro", "tournament", "lama", "--bots", ",".join(lineup), "--games", "2"]
        + [arg for key, value in options.items() for arg in ("-o", f"{key}={value}")]
        + ["--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0 and why in " ".join(result.stderr.split()), result.stderr
    assert "KeyError" not in result.stderr and not out.exists()


def test_laro_play_refuses_a_policy_for_another_edition_before_the_game(tmp_path: Path) -> None:
    result = subprocess.run(
        [*LARO, "play", "lama", "--players", "2", "--bots", f"policy:{SHIPPED}", "-o", "edition=party", "--seed", "1"],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert "this table is for 2 players, edition party" in " ".join(result.stderr.split()), result.stderr


def test_the_server_refuses_a_table_its_policy_bot_cannot_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bot_base._BOTS, ("ppo", "lama"), functools.partial(get_bot, f"policy:{SHIPPED}", "lama"))
    with pytest.raises(
        Refusal, match=r"bot 'ppo': the policy .* edition classic; this table is for 2 players, edition party"
    ):
        create("lama", 2, {"edition": "party"}, {1: "ppo"}, created=0.0, seed=1)
    table, _ = create("lama", 2, {}, {1: "ppo"}, created=0.0, seed=1)  # its own game
    assert table.meta.seats[1]["bot"] == "ppo"


def test_a_decision_at_a_party_table_is_refused_clearly_not_with_a_key_error() -> None:
    bot = PolicyBot(str(SHIPPED), "lama")
    state = get_game("lama").new_game(2, seed=5, options={"edition": "party"})
    seat = state.current_player
    with pytest.raises(BotError, match="edition classic; this table is for 2 players, edition party"):
        bot.choose(state.observation(seat), state.legal_actions(), random.Random(0))


def test_the_shipped_trained_policy_beats_random_bots() -> None:
    """examples/lama-ppo-2p.npz (MaskablePPO, 200,000 steps against random, see docs/rl.md) wins most games."""
    path = SHIPPED
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
