"""``laro serve --bot NAME=BOT``: a trained policy (``policy:PATH``, the rl extra) seated at the server's tables
by name, thinking in the server's bot workers like every bot."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from tests.polling import until

from .client import Api
from .server_process import RELAXED, ServerProcess

POLICY = Path(__file__).resolve().parents[2] / "examples" / "lama-ppo-2p.npz"
DEADLINE = 60.0


def test_a_policy_offered_by_name_plays_whole_games(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory(limits=(*RELAXED, f"--bot=ppo=policy:{POLICY}", "--bot-workers=1"))
    api = Api(server.base)
    bots = {game["name"]: game["bots"] for game in api.games()}
    assert "ppo" in bots["lama"] and "ppo" not in bots["kamara"]  # the policy plays only the game it learnt
    created = api.create("lama", 2, bots={0: "ppo", 1: "random"}, seed=5)
    stored = until(partial(server.stored_finished, created.id), "the bots' game did not finish", DEADLINE, every=0.2)
    assert stored.final.is_over
    assert [seat.get("bot") for seat in stored.seats] == ["ppo", "random"]


def test_a_bad_offer_stops_the_server_with_a_message(tmp_path: Path) -> None:
    for offer, message in (
        ("ppo=policy:/nowhere/agent.npz", "plays no game here"),
        ("Bad Name=random", "give NAME=BOT"),
        ("hard=random", "'hard' is already a bot"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "laro", "serve", "--data-dir", str(tmp_path), "--port", "0", "--bot", offer],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 2 and message in result.stderr, result.stderr
