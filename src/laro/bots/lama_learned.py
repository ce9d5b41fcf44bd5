"""The ``learned`` L.A.M.A. bot: a small network trained on the batched engine's playouts (``laro.rl.distil_lama``),
shipped with the package, one per edition, for four players.

Each file in ``laro/bots/data`` is a ``policy:`` file (``laro.rl.policy_bot.save_policy``'s format): the layers of a
multilayer perceptron and what it was trained for, its game, number of players and options (the edition among
them), its activation and layer sizes, what it reads (``inputs``) and how it was trained. The bot reads its seat's
observation as the environments encode it (:class:`~laro.bots.lama_encoding.LamaEncoding`) and runs the network in
numpy. A network that reads only the observation gives a logit per action: the bot plays the legal action with the
highest. The shipped ones also read the ``heuristic`` bot's move in that observation (:data:`ADVANTAGE_INPUTS`) and
give every action's advantage over it, the hard search's values distilled: the bot plays the heuristic's move
unless another legal action's advantage exceeds the network's ``margin``. It plays the tables a network was trained
for: another number of players is refused before the game begins (:meth:`LearnedBot.check_table`), and the edition
picks the network.

>>> import random, laro
>>> state = laro.get_game("lama").new_game(4, seed=2)
>>> bot = LearnedBot()
>>> seat = state.current_player
>>> bot.choose(state.observation(seat), state.legal_actions(), random.Random(0)) in state.legal_actions()
True
>>> try:
...     bot.check_table(3, {})
... except laro.bots.BotError as error:
...     print(error)
the learned L.A.M.A. bot plays 4 players (its networks: classic, party); this table is for 3
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import IO, Any, TypeVar

import numpy as np
import numpy.typing as npt

from laro.bots.base import BotError
from laro.bots.lama_encoding import LamaEncoding
from laro.bots.lama_heuristic import LamaHeuristicBot
from laro.core.game import Action, JSONDict
from laro.games.lama.cards import ALL_CARD_TEXT, CARD_TEXT

__all__ = ["ADVANTAGE_INPUTS", "ADVANTAGE_SCALE", "NETWORKS", "LearnedBot", "Network", "load_network", "read_network"]

A = TypeVar("A", bound=Action)
NETWORKS = {"classic": "lama-learned-4p-classic.npz", "party": "lama-learned-4p-party.npz"}  # by edition
Activation = Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]]
_ACTIVATIONS: dict[str, Activation] = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}
# A network that reads these (``inputs`` in its file) gives each action's advantage over the heuristic's move, in
# tenths of a win chance (``laro.rl.distil_lama``); it is played above its ``margin``.
ADVANTAGE_INPUTS = ("observation", "heuristic_move")
ADVANTAGE_SCALE = 10.0


class Network:
    """A ``policy:`` file's network and what it records (``meta``: game, players, options, activation, sizes)."""

    def __init__(self, meta: dict[str, Any], layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]):
        self.meta = meta
        self.layers = layers
        self.activation = _ACTIVATIONS[meta["activation"]]
        party = meta["options"].get("edition") == "party"
        self.encoding = LamaEncoding(int(meta["num_players"]), ALL_CARD_TEXT if party else CARD_TEXT)
        self.reads_heuristic = tuple(meta.get("inputs", ("observation",))) == ADVANTAGE_INPUTS
        self.margin = float(meta.get("margin", 0.0))
        self.num_actions = int(meta["layer_sizes"][-1])

    def logits(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The network's logits for a batch of observation vectors (or one)."""
        x = vectors
        for i, (weights, bias) in enumerate(self.layers):
            x = x @ weights + bias
            if i < len(self.layers) - 1:
                x = self.activation(x)
        return x


_HEURISTIC = LamaHeuristicBot()


@functools.cache
def load_network(edition: str) -> Network:
    """The shipped network of ``edition`` (read once per process)."""
    with resources.files("laro.bots.data").joinpath(NETWORKS[edition]).open("rb") as file:
        return read_network(file, edition, NETWORKS[edition])


def read_network(file: str | os.PathLike[str] | IO[bytes], edition: str, name: str) -> Network:
    """The network of a ``policy:`` file (a path or an open binary file) that must be a L.A.M.A. ``edition`` policy;
    ``name`` names it in the error."""
    with np.load(file) as data:
        meta = json.loads(str(data["meta"]))
        layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(int(meta["layers"]))]
    if meta.get("format") != "laro-policy-1" or meta["options"].get("edition", "classic") != edition:
        raise BotError(f"the learned network {name} is not a L.A.M.A. {edition} policy")
    return Network(meta, layers)


class LearnedBot:
    """Plays the shipped network of the table's edition (see the module docstring)."""

    name = "learned"
    players = 4

    def check_table(self, num_players: int, options: Mapping[str, Any]) -> None:
        """Refuse a table the networks were not trained for (another number of players), saying why."""
        edition = options.get("edition", "classic")
        if num_players != self.players or edition not in NETWORKS:
            raise BotError(
                f"the learned L.A.M.A. bot plays {self.players} players (its networks: {', '.join(NETWORKS)}); "
                f"this table is for {num_players}" + ("" if edition in NETWORKS else f", edition {edition}")
            )

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A:
        self.check_table(observation["num_players"], observation["options"])
        network = load_network(observation["options"].get("edition", "classic"))
        vector = network.encoding.encode(observation)
        if not network.reads_heuristic:
            logits = network.logits(vector)
            return max(legal, key=lambda action: float(logits[action.index]))
        move = _HEURISTIC.choose(observation, legal, rng)
        one_hot = np.zeros(network.num_actions, dtype=np.float32)
        one_hot[move.index] = 1.0
        out = network.logits(np.concatenate([vector, one_hot]))
        best = max(legal, key=lambda action: float(out[action.index]))
        return best if float(out[best.index] - out[move.index]) > network.margin else move
