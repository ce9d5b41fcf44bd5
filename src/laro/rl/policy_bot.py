"""A trained policy as a laro bot: ``policy:PATH`` plays the network saved in ``PATH`` (a ``.npz`` file).

The file holds the layers of a multilayer perceptron (``w0``, ``b0``, ``w1``, … with tanh between them, the last
layer giving one logit per dense action index) and what it was trained on: the game and the number of players,
whose observation encoding (``laro.rl``) is its input. The bot plays the legal action with the highest logit. Only
numpy is needed to play it; ``examples/train_maskable_ppo.py`` trains one with sb3-contrib and saves it so.

>>> import numpy as np, random, laro
>>> from laro.rl.lama_encoding import LamaEncoding
>>> rng = np.random.default_rng(0)
>>> size = LamaEncoding(2).size
>>> layers = [(rng.normal(size=(size, 8)), np.zeros(8)), (rng.normal(size=(8, 9)), np.zeros(9))]
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "agent.npz")
>>> save_policy(path, layers, game="lama", num_players=2)
>>> bot = policy_bot(path, "lama")
>>> state = laro.get_game("lama").new_game(2, seed=1)
>>> seat = state.current_player
>>> bot.choose(state.observation(seat), state.legal_actions(), random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from laro.bots import BotError
from laro.core import Action, JSONDict
from laro.rl.spec import Table

__all__ = ["PolicyBot", "policy_bot", "save_policy"]

A = TypeVar("A", bound=Action)
Layers = Sequence[tuple[npt.ArrayLike, npt.ArrayLike]]


def save_policy(path: str | Path, layers: Layers, game: str, num_players: int, **about: Any) -> None:
    """Save an MLP's ``(weights, bias)`` layers (weights shaped ``(inputs, outputs)``) as a ``policy:`` file."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    for i, (weights, bias) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(weights, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(bias, dtype=np.float32)
    meta = {"format": "laro-policy-1", "game": game, "num_players": num_players, "layers": len(layers), **about}
    np.savez(path, meta=np.array(json.dumps(meta)), **arrays)  # type: ignore[arg-type]


class PolicyBot:
    """Plays the saved policy's best legal action; sees only its seat's observation."""

    def __init__(self, path: str, game: str) -> None:
        self.name = f"policy:{path}"
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                self.layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(int(meta["layers"]))]
        except FileNotFoundError:
            raise BotError(f"no policy file {path!r}") from None
        except (OSError, ValueError, KeyError) as error:
            raise BotError(
                f"{path!r} is not a laro policy file (.npz from laro.rl.policy_bot.save_policy): {error}"
            ) from None
        if meta.get("format") != "laro-policy-1":
            raise BotError(f"{path!r} is not a laro policy file")
        if meta["game"] != game:
            raise BotError(f"the policy in {path!r} plays {meta['game']}, not {game}")
        self.meta = meta
        self.table = Table(game, int(meta["num_players"]), meta.get("options"))
        inputs = self.layers[0][0].shape[0]
        if inputs != self.table.observation_size or self.layers[-1][0].shape[1] != self.table.num_actions:
            raise BotError(
                f"the policy in {path!r} takes {inputs} inputs and gives {self.layers[-1][0].shape[1]} logits; "
                f"{game} for {meta['num_players']} players needs {self.table.observation_size} and "
                f"{self.table.num_actions}"
            )

    def logits(self, observation: JSONDict) -> npt.NDArray[np.float32]:
        x = self.table.encoding.encode(observation)
        for i, (weights, bias) in enumerate(self.layers):
            x = x @ weights + bias
            if i < len(self.layers) - 1:
                x = np.tanh(x)
        return x

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A:
        if observation["num_players"] != self.table.num_players:
            raise BotError(
                f"this policy was trained for {self.table.num_players} players; the game has "
                f"{observation['num_players']}"
            )
        logits = self.logits(observation)
        return max(legal, key=lambda action: float(logits[action.index]))


def policy_bot(path: str, game: str) -> PolicyBot:
    """The ``policy:PATH`` bot (found by ``laro.bots.get_bot`` through the ``laro.bots`` entry point)."""
    return PolicyBot(path, game)
