"""Train a L.A.M.A. policy network on the batched engine by imitation and policy gradient: numpy only, one core.

This trained the first networks of the ``learned`` bot; the shipped ones are now distilled from the hard search's
values (:mod:`laro.rl.distil_lama`), which beat the heuristic where these did not (docs/rl.md).

The learner is seat 0 of ``envs`` four-player games of :class:`~laro.rl.gym_vector.LamaVectorEnv`, the other seats
played by the ``heuristic`` bot, batched (:func:`heuristic_opponent`: the heuristic's moves from the observation
vectors, as the hard search's playouts make them). Training is imitation with the learner in control (DAgger): in
each round of training the learner plays its own (sampled) moves, every observation it meets is labelled with the
heuristic's move there, and the network (a multilayer perceptron, ``tanh``) is fitted to all labels so far by
cross-entropy over the legal actions (Adam). Then, with ``--improve N``, N rounds of policy gradient against the
same seats (:func:`improve`): each move of a L.A.M.A. round is credited with how the learner's estimated chance to
win, read from the totals as the hard search reads it, changed over that round (the game's result for its last
round), less the batch's mean, while the heuristic's moves stay in the loss. Its greedy play is measured against
three heuristic seats every few rounds (the win share over whole games): the curve. The result is saved as a
``policy:`` file (:func:`~laro.rl.policy_bot.save_policy`), recording the edition, players, activation, layer
sizes, seed, the command and the curve. Run it with one BLAS thread (``OPENBLAS_NUM_THREADS=1``): the network is
small, and threads only wait for each other on a busy machine.

    python -m laro.rl.train_lama --edition classic --seed 1 --improve 20 --out imitation-classic.npz
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import time
from collections.abc import Callable, Mapping
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from laro.bots.lama_batch import heuristic_moves
from laro.bots.lama_heuristic import (
    LAST_ROUND_MARGIN,
    QUIT_IF_A_BLACK_TOKEN_BACK,
    QUIT_WHEN_TRAILING_IN_LAST_ROUND,
)
from laro.bots.lama_party import DRAW_MOVE
from laro.bots.lama_playout import POINTS_PER_ROUND, SPREAD_PER_ROUND
from laro.core import validate_options
from laro.games.lama.actions import DRAW, PLAY, QUIT
from laro.games.lama.cards import RANK
from laro.rl.gym_vector import LamaVectorEnv, Masks, Observations, Opponent
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.policy_bot import save_policy
from laro.rl.spec import Table

__all__ = [
    "PLAYERS",
    "Adam",
    "Layers",
    "backward",
    "forward",
    "heuristic_actions",
    "heuristic_opponent",
    "plot_curve",
    "share_against_heuristic",
    "train",
    "win_share",
]

PLAYERS = 4
_OUT = 63


def heuristic_actions(
    observations: Observations, num_players: int, options: Mapping[str, Any]
) -> npt.NDArray[np.int64]:
    """The heuristic's action (a dense index) for the seat whose observation vector each row is (the layout of
    :class:`~laro.rl.lama_encoding.LamaEncoding`; the seat to move)."""
    encoding, end_score, index = _layout(num_players, json.dumps(dict(options), sort_keys=True))
    kinds, party = len(encoding.kinds), options.get("edition") == "party"
    x = observations.astype(np.float64)
    hand = np.rint(x[:, :kinds] * encoding.copies).astype(np.int64)
    top = np.asarray(RANK)[x[:, kinds : 2 * kinds].argmax(axis=1)]
    free = x[:, 3 * kinds] > 0
    seats = x[:, 3 * kinds + 1 :].reshape(len(x), num_players, 6)
    sizes = np.where(seats[:, :, 1] > 0.5, _OUT, np.rint(seats[:, :, 0] * encoding.deck_size)).astype(np.int64)
    scores = np.rint(seats[:, :, 2] * end_score).astype(np.int64)
    last_round = scores.max(axis=1) >= end_score - LAST_ROUND_MARGIN
    trailing = last_round & (scores[:, 0] >= scores[:, 1:].min(axis=1))
    lean = np.where(scores[:, 0] >= 10, QUIT_IF_A_BLACK_TOKEN_BACK, 0.0)
    lean = np.where(trailing, lean + QUIT_WHEN_TRAILING_IN_LAST_ROUND, lean)
    moves = heuristic_moves(hand, top, sizes, np.zeros(len(x), np.int64), free, lean, party)
    played = index[np.maximum(moves, 0)]
    return np.where(moves >= 0, played, np.where(moves == DRAW_MOVE, DRAW.index, QUIT.index))


@functools.cache
def _layout(num_players: int, options: str) -> tuple[LamaEncoding, int, npt.NDArray[np.int64]]:
    """The encoding, the end score and each card's action index of a table (options as JSON)."""
    table = Table("lama", num_players, json.loads(options))
    end_score = int(validate_options(table.game.option_specs, table.options)["end_score"])
    encoding = cast(LamaEncoding, table.encoding)
    return encoding, end_score, np.array([PLAY[card].index for card in range(len(encoding.kinds))])


def heuristic_opponent(num_players: int, options: Mapping[str, Any]) -> Opponent:
    """The heuristic bot for every opponent seat of a vector environment."""

    def choose(observations: Observations, masks: Masks, envs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return heuristic_actions(observations, num_players, options)

    return choose


Layers = list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]]


def forward(layers: Layers, x: npt.NDArray[np.float64]) -> tuple[list[npt.NDArray[np.float64]], npt.NDArray[Any]]:
    """The network's output for the rows of ``x``, and every layer's input (``x`` first) for backpropagation."""
    hidden = [x]
    for weights, bias in layers[:-1]:
        x = np.tanh(x @ weights + bias)
        hidden.append(x)
    weights, bias = layers[-1]
    return hidden, x @ weights + bias


def _masked_softmax(logits: npt.NDArray[np.float64], masks: Masks) -> npt.NDArray[np.float64]:
    z = np.where(masks, logits, -1e9)
    z = np.exp(z - z.max(axis=1, keepdims=True)) * masks
    probabilities: npt.NDArray[np.float64] = z / z.sum(axis=1, keepdims=True)
    return probabilities


class Adam:
    """Adam (β 0.9 and 0.999) over a network's layers, updated in place by :meth:`step`."""

    def __init__(self, layers: Layers, rate: float) -> None:
        self.rate, self.t = rate, 0
        self.m = [(np.zeros_like(w), np.zeros_like(b)) for w, b in layers]
        self.v = [(np.zeros_like(w), np.zeros_like(b)) for w, b in layers]

    def step(self, layers: Layers, grads: Layers) -> None:
        self.t += 1
        for i, ((w, b), (gw, gb)) in enumerate(zip(layers, grads, strict=True)):
            for j, (param, grad) in enumerate(((w, gw), (b, gb))):
                m = self.m[i][j]
                v = self.v[i][j]
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                param -= self.rate * (m / (1 - 0.9**self.t)) / (np.sqrt(v / (1 - 0.999**self.t)) + 1e-8)


def _fit(layers: Layers, adam: Adam, x: Observations, masks: Masks, labels: npt.NDArray[np.int64], rng: Any) -> float:
    """One pass of cross-entropy minibatches over the data; the mean loss."""
    order = rng.permutation(len(x))
    losses = []
    for start in range(0, len(x), 512):
        rows = order[start : start + 512]
        losses.append(_update(layers, adam, x[rows], masks[rows], labels[rows], np.ones(len(rows))))
    return float(np.mean(losses))


def _update(
    layers: Layers,
    adam: Adam,
    x: Observations,
    masks: Masks,
    targets: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float64],
) -> float:
    """One Adam step on the weighted log-likelihood of ``targets`` (cross-entropy with weights 1; the policy
    gradient with the advantages as weights); the mean cross-entropy."""
    hidden, logits = forward(layers, x.astype(np.float64))
    p = _masked_softmax(logits, masks)
    m = len(x)
    loss = float(-np.log(p[np.arange(m), targets] + 1e-12).mean())
    delta = p
    delta[np.arange(m), targets] -= 1.0
    delta *= weights[:, None] / m
    adam.step(layers, backward(layers, hidden, delta))
    return loss


def backward(layers: Layers, hidden: list[npt.NDArray[np.float64]], delta: npt.NDArray[np.float64]) -> Layers:
    """The gradients of every layer, given :func:`forward`'s layer inputs and the loss's gradient by output."""
    grads: Layers = []
    for i in range(len(layers) - 1, -1, -1):
        grads.append((hidden[i].T @ delta, delta.sum(axis=0)))
        if i:
            delta = (delta @ layers[i][0].T) * (1.0 - hidden[i] ** 2)
    return grads[::-1]


def _chances(observations: Observations, end_score: int, kinds: int) -> npt.NDArray[np.float64]:
    """The observing seat's chance to win, estimated from the totals its observation shows (the hard search's
    :func:`~laro.bots.lama_playout.win_chances`)."""
    scores = observations[:, 3 * kinds + 1 :].reshape(len(observations), PLAYERS, 6)[:, :, 2] * end_score
    scores = np.rint(scores)
    rounds_left = np.maximum(1.0, (end_score - scores.max(axis=1)) / POINTS_PER_ROUND)
    temperature = SPREAD_PER_ROUND * np.sqrt(rounds_left)
    weights = np.exp((scores.min(axis=1, keepdims=True) - scores) / temperature[:, None])
    chances: npt.NDArray[np.float64] = weights[:, 0] / weights.sum(axis=1)
    return chances


def improve(
    layers: Layers,
    options: Mapping[str, Any],
    seed: int,
    rounds: int,
    steps: int = 64,
    envs: int = 256,
    anchor: float = 0.5,
    eval_games: int = 600,
    eval_every: int = 2,
    rate: float = 3e-4,
) -> list[dict[str, float]]:
    """Policy-gradient rounds after the imitation, against three heuristic seats: every move of a L.A.M.A. round is
    credited with how the learner's estimated chance to win (from the totals) changed over that round (the game's
    result for its last round), less the batch's mean; the heuristic's moves stay in the loss with weight
    ``anchor``. The curve of its win share."""
    rng = np.random.default_rng(seed + 7)
    adam = Adam(layers, rate)
    encoding, end_score, _ = _layout(PLAYERS, json.dumps(dict(options), sort_keys=True))
    kinds = len(encoding.kinds)
    env = LamaVectorEnv(envs, PLAYERS, options, opponents=heuristic_opponent(PLAYERS, options))
    observations, infos = env.reset(seed=seed + 7)
    start = _chances(observations, end_score, kinds)
    pending: list[list[tuple[Observations, Masks, int, int]]] = [[] for _ in range(envs)]
    curve: list[dict[str, float]] = []
    began, taken = time.process_time(), 0
    for round_number in range(1, rounds + 1):
        done: list[tuple[Observations, Masks, int, int, float]] = []
        for _ in range(steps):
            masks = infos["action_mask"]
            labels = heuristic_actions(observations, PLAYERS, options)
            _, logits = forward(layers, observations.astype(np.float64))
            p = _masked_softmax(logits, masks)
            actions = (p.cumsum(axis=1) > rng.random((len(p), 1))).argmax(axis=1)
            for e in range(envs):
                pending[e].append((observations[e], masks[e], int(actions[e]), int(labels[e])))
            before = observations
            observations, rewards, terminated, _, infos = env.step(actions)
            taken += envs
            now = _chances(observations, end_score, kinds)
            scored = terminated | (np.abs(observations - before)[:, 3 * kinds + 3 :: 6].sum(axis=1) > 0)
            for e in np.flatnonzero(scored).tolist():
                value = float(rewards[e]) if terminated[e] else float(now[e])
                done += [(x, m, a, h, value - start[e]) for x, m, a, h in pending[e]]
                pending[e] = []
                start[e] = now[e]
        if done:
            x = np.array([row[0] for row in done])
            m = np.array([row[1] for row in done])
            a = np.array([row[2] for row in done])
            h = np.array([row[3] for row in done])
            advantage = np.array([row[4] for row in done])
            advantage -= advantage.mean()
            for rows in np.array_split(rng.permutation(len(done)), max(1, len(done) // 1024)):
                _update(layers, adam, x[rows], m[rows], a[rows], advantage[rows])
                _update(layers, adam, x[rows], m[rows], h[rows], np.full(len(rows), anchor))
        if round_number % eval_every == 0 or round_number == rounds:
            share = win_share(layers, options, eval_games, seed + 1000 + round_number)
            curve.append({"steps": taken, "win_share": share, "seconds": time.process_time() - began})
            print(json.dumps({"improve": True, **curve[-1]}), flush=True)
    return curve


def win_share(layers: Layers, options: Mapping[str, Any], games: int, seed: int, envs: int = 256) -> float:
    """The greedy network's share of the wins of ``games`` four-player games against three heuristic seats."""

    def greedy(observations: Observations, masks: Masks) -> npt.NDArray[np.int64]:
        _, logits = forward(layers, observations.astype(np.float64))
        actions: npt.NDArray[np.int64] = np.where(masks, logits, -np.inf).argmax(axis=1)
        return actions

    return share_against_heuristic(greedy, options, games, seed, envs)


def share_against_heuristic(
    choose: Callable[[Observations, Masks], npt.NDArray[np.int64]],
    options: Mapping[str, Any],
    games: int,
    seed: int,
    envs: int,
) -> float:
    """The share of the wins of the first ``games`` four-player games to end that ``choose`` (actions from the
    observation vectors and masks of the seat it plays) takes against three heuristic seats, ``envs`` at once."""
    env = LamaVectorEnv(envs, PLAYERS, options, opponents=heuristic_opponent(PLAYERS, options))
    observations, infos = env.reset(seed=seed)
    won = finished = 0.0
    while finished < games:
        observations, rewards, terminated, _, infos = env.step(choose(observations, infos["action_mask"]))
        won += float(rewards[terminated].sum())
        finished += int(terminated.sum())
    return won / finished


def train(
    options: Mapping[str, Any],
    seed: int,
    rounds: int = 8,
    steps: int = 32,
    envs: int = 256,
    hidden: tuple[int, ...] = (64, 64),
    eval_games: int = 600,
    eval_every: int = 2,
) -> tuple[Layers, list[dict[str, float]]]:
    """Train (see the module docstring); the layers and the curve (learner steps, win share, loss, seconds)."""
    rng = np.random.default_rng(seed)
    table = Table("lama", PLAYERS, options)
    sizes = [table.observation_size, *hidden, table.num_actions]
    layers: Layers = [(rng.normal(0, 1 / np.sqrt(a), (a, b)), np.zeros(b)) for a, b in itertools.pairwise(sizes)]
    adam = Adam(layers, 1e-3)
    env = LamaVectorEnv(envs, PLAYERS, options, opponents=heuristic_opponent(PLAYERS, options))
    observations, infos = env.reset(seed=seed)
    data_x, data_m, data_y = [], [], []
    curve: list[dict[str, float]] = []
    began, taken, loss = time.process_time(), 0, float("nan")
    for round_number in range(1, rounds + 1):
        for _ in range(steps):
            masks = infos["action_mask"]
            labels = heuristic_actions(observations, PLAYERS, options)
            data_x.append(observations)
            data_m.append(masks)
            data_y.append(labels)
            _, logits = forward(layers, observations.astype(np.float64))
            p = _masked_softmax(logits, masks)
            actions = (p.cumsum(axis=1) > rng.random((len(p), 1))).argmax(axis=1)
            observations, _, _, _, infos = env.step(actions)
            taken += len(actions)
        x, m, y = np.concatenate(data_x), np.concatenate(data_m), np.concatenate(data_y)
        for _ in range(2):
            loss = _fit(layers, adam, x, m, y, rng)
        if round_number % eval_every == 0 or round_number == rounds:
            share = win_share(layers, options, eval_games, seed + round_number)
            curve.append({"steps": taken, "win_share": share, "loss": loss, "seconds": time.process_time() - began})
            print(json.dumps(curve[-1]), flush=True)
    return layers, curve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", choices=["classic", "party"], default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=32, help="learner steps per round, in every game")
    parser.add_argument("--envs", type=int, default=256, help="games played at once")
    parser.add_argument("--eval-every", type=int, default=2, help="rounds between measurements")
    parser.add_argument("--eval-games", type=int, default=600)
    parser.add_argument("--improve", type=int, default=0, help="policy-gradient rounds after the imitation")
    parser.add_argument("--out", required=True)
    parser.add_argument("--plot", help="draw the curve into this PNG (matplotlib)")
    args = parser.parse_args(argv)
    options = {"edition": args.edition}
    layers, curve = train(
        options,
        args.seed,
        rounds=args.rounds,
        steps=args.steps,
        envs=args.envs,
        eval_games=args.eval_games,
        eval_every=args.eval_every,
    )
    if args.improve:
        after = improve(
            layers, options, args.seed, args.improve, eval_games=args.eval_games, eval_every=args.eval_every
        )
        steps = curve[-1]["steps"]
        curve += [{**point, "steps": steps + point["steps"], "phase": 2.0} for point in after]
    command = (
        f"python -m laro.rl.train_lama --edition {args.edition} --seed {args.seed} --rounds {args.rounds} "
        f"--steps {args.steps} --envs {args.envs} --eval-every {args.eval_every} --eval-games {args.eval_games} "
        f"--improve {args.improve}"
    )
    save_policy(
        args.out,
        layers,
        "lama",
        PLAYERS,
        options,
        "tanh",
        method="imitation of the heuristic (DAgger), then policy gradient per round, on the batched engine, "
        "against three heuristic seats",
        seed=args.seed,
        command=command,
        curve=curve,
    )
    if args.plot:
        plot_curve(curve, args.plot, args.edition)


def plot_curve(curve: list[dict[str, float]], path: str, edition: str, steps: str = "learner steps") -> None:
    """Draw the win share against three heuristic seats over training (the points that measured it) into ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5))
    measured = [point for point in curve if "win_share" in point]
    axes.plot([point["steps"] for point in measured], [point["win_share"] for point in measured], marker="o")
    axes.axhline(0.25, linestyle="--", color="grey", label="fair share")
    axes.set_xlabel(steps)
    axes.set_ylabel("win share against 3 heuristic")
    axes.set_title(f"learned L.A.M.A. bot, 4 players, {edition}")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
