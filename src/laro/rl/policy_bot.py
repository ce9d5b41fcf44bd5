"""A trained policy as a laro bot: ``policy:PATH`` plays the network saved in ``PATH`` (a ``.npz`` file).

The file holds the layers of a multilayer perceptron (``w0``, ``b0``, ``w1``, … with the recorded activation
between them, the last layer giving one logit per dense action index) and what it was trained for: the game, the
number of players and the game's options (the L.A.M.A. edition among them), whose observation encoding
(``laro.rl``) is its input; and the activation and the layer sizes. The bot plays the legal action with the
highest logit. Only numpy is needed to play it; ``examples/train_maskable_ppo.py`` trains one with sb3-contrib and
saves it so. A file saved before the options, activation and sizes were recorded is read as the classic game
with ``tanh``, its sizes those of its arrays.

A policy plays only the tables it was trained for: :meth:`PolicyBot.check_table` refuses another edition or number
of players with a :class:`~laro.bots.BotError` before a game begins (tournaments, ``laro play`` and the server's
tables call it through ``laro.bots.check_table``), and a decision at such a table is refused the same way.

>>> import numpy as np, random, laro
>>> from laro.rl.lama_encoding import LamaEncoding
>>> rng = np.random.default_rng(0)
>>> size = LamaEncoding(2).size
>>> layers = [(rng.normal(size=(size, 8)), np.zeros(8)), (rng.normal(size=(8, 9)), np.zeros(9))]
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "agent.npz")
>>> save_policy(path, layers, game="lama", num_players=2)
>>> bot = policy_bot(path, "lama")
>>> bot.meta["options"]["edition"], bot.meta["activation"], bot.meta["layer_sizes"]
('classic', 'tanh', [34, 8, 9])
>>> state = laro.get_game("lama").new_game(2, seed=1)
>>> seat = state.current_player
>>> bot.choose(state.observation(seat), state.legal_actions(), random.Random(0)) in state.legal_actions()
True
>>> try:
...     bot.check_table(2, {"edition": "party"})
... except laro.bots.BotError as error:
...     print(str(error).split("; ")[1])
this table is for 2 players, edition party
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from laro.bots import BotError
from laro.core import Action, JSONDict, get_game, validate_options
from laro.core.errors import OptionError
from laro.rl.spec import Table

__all__ = ["PolicyBot", "policy_bot", "save_policy"]

A = TypeVar("A", bound=Action)
Layers = Sequence[tuple[npt.ArrayLike, npt.ArrayLike]]
ACTIVATIONS: dict[str, Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def save_policy(
    path: str | Path,
    layers: Layers,
    game: str,
    num_players: int,
    options: Mapping[str, Any] | None = None,
    activation: str = "tanh",
    **about: Any,
) -> None:
    """Save an MLP's ``(weights, bias)`` layers (weights shaped ``(inputs, outputs)``, ``activation`` between them) as
    a ``policy:`` file for ``game`` with ``num_players`` and ``options`` (checked, and saved with their defaults)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}; got {activation!r}")
    arrays: dict[str, npt.NDArray[Any]] = {}
    for i, (weights, bias) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(weights, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(bias, dtype=np.float32)
    sizes = [arrays["w0"].shape[0], *(arrays[f"w{i}"].shape[1] for i in range(len(layers)))]
    meta = {
        "format": "laro-policy-1",
        "game": game,
        "num_players": num_players,
        "options": validate_options(get_game(game).option_specs, options),
        "activation": activation,
        "layers": len(layers),
        "layer_sizes": sizes,
        **about,
    }
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
        meta.setdefault("options", {})  # a file saved before they were recorded: the classic game
        meta.setdefault("activation", "tanh")
        meta.setdefault("layer_sizes", [self.layers[0][0].shape[0], *(w.shape[1] for w, _ in self.layers)])
        if meta["activation"] not in ACTIVATIONS:
            raise BotError(f"the policy in {path!r} uses the activation {meta['activation']!r}, which laro lacks")
        if meta["layer_sizes"] != [self.layers[0][0].shape[0], *(w.shape[1] for w, _ in self.layers)]:
            raise BotError(f"the policy in {path!r} records layer sizes {meta['layer_sizes']} its arrays do not have")
        self.meta = meta
        self.path = path
        self._activation = ACTIVATIONS[meta["activation"]]
        try:
            self.table = Table(game, int(meta["num_players"]), meta["options"])
        except OptionError as error:
            raise BotError(f"the policy in {path!r} records a game laro cannot set up: {error}") from None
        meta["options"] = validate_options(self.table.game.option_specs, meta["options"])
        if list(meta.get("inputs", ["observation"])) != ["observation"]:
            raise BotError(
                f"the network in {path!r} reads {' and '.join(meta['inputs'])}, not only the observation: it is "
                f"played by the bot it was trained for (the learned L.A.M.A. bot), not as a policy: file"
            )
        inputs = self.layers[0][0].shape[0]
        if inputs != self.table.observation_size or self.layers[-1][0].shape[1] != self.table.num_actions:
            raise BotError(
                f"the policy in {path!r} takes {inputs} inputs and gives {self.layers[-1][0].shape[1]} logits; "
                f"{game} for {meta['num_players']} players needs {self.table.observation_size} and "
                f"{self.table.num_actions}"
            )
        self._checked: tuple[int, str] | None = None

    def _plays(self, table: Table) -> bool:
        """Whether ``table`` shows this policy what it learnt from: the same players, observations and actions."""
        mine = self.table
        return (
            table.num_players == mine.num_players
            and table.num_actions == mine.num_actions
            and table.observation_size == mine.observation_size
            and getattr(table.encoding, "kinds", None) == getattr(mine.encoding, "kinds", None)
        )

    def check_table(self, num_players: int, options: Mapping[str, Any]) -> None:
        """Refuse, saying why, a table (its number of players and options) whose observations or actions are not
        the ones this policy was trained on: another number of players, or another L.A.M.A. edition."""
        try:
            table = Table(self.meta["game"], num_players, options)
            filled = validate_options(table.game.option_specs, options)
        except OptionError as error:
            raise BotError(str(error)) from None
        if self._plays(table):
            return
        trained = self.meta["options"]
        differ = [name for name in filled if filled[name] != trained.get(name)]
        what = "".join(f", {name} {trained.get(name)}" for name in differ)
        here = "".join(f", {name} {filled[name]}" for name in differ)
        raise BotError(
            f"the policy in {self.path} was trained for {table.game.title} with {self.table.num_players} players"
            f"{what}; this table is for {num_players} players{here}"
        )

    def logits(self, observation: JSONDict) -> npt.NDArray[np.float32]:
        x = self.table.encoding.encode(observation)
        for i, (weights, bias) in enumerate(self.layers):
            x = x @ weights + bias
            if i < len(self.layers) - 1:
                x = self._activation(x)
        return x

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A:
        table = (observation["num_players"], json.dumps(observation["options"], sort_keys=True))
        if table != self._checked:  # the first decision at a table nobody checked before the game
            self.check_table(observation["num_players"], observation["options"])
            self._checked = table
        logits = self.logits(observation)
        return max(legal, key=lambda action: float(logits[action.index]))


def policy_bot(path: str, game: str) -> PolicyBot:
    """The ``policy:PATH`` bot (found by ``laro.bots.get_bot`` through the ``laro.bots`` entry point)."""
    return PolicyBot(path, game)
