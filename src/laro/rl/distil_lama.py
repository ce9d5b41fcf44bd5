"""Train the ``learned`` L.A.M.A. bot by distilling the ``hard`` search's values: numpy only, one core.

    python -m laro.rl.distil_lama --edition classic --seed 1 --games 1000 --labels classic-values.npz \
        --out lama-learned-4p-classic.npz --plot lama-learned-4p-classic.png

First the labels: four ``heuristic`` seats play ``--games`` four-player games (game ``k`` dealt from seed
``100000 * --seed + k``, so two seeds never share a deal), and at every decision with more than one legal action
the seat to move's position is valued as the ``hard`` search values it: ``--determinisations`` determinisations
(the judge's own, with its reading of the other hands), each played out to the round's end from every legal
action by the judge on the batched engine (``LamaJudge.play_batch``), an action's value being the mean of the
seat's estimated chances to win. The observation vector (:class:`~laro.rl.lama_encoding.LamaEncoding`), the
heuristic's move, the values and the spread of their paired differences are saved to ``--labels`` (and read from
there when the file exists). About 85 positions a second on one core; a game has about 200. With ``--onward``
(``learned``, or a network file of the same kind), the seat that decided plays every playout on by that network
instead of the heuristic (:mod:`laro.rl.lama_continued`): a further round of the same distillation.

Then the network: a multilayer perceptron (``tanh``) reads the observation vector and the heuristic's move there
(one-hot; the heuristic's move is a function of the observation) and is fitted to every legal action's advantage
over the heuristic's move: the paired difference of their values, in tenths of a win chance, a move worse by more
than a tenth fitted as a tenth worse (all that matters of it is that it is worse). Squared error over the legal
actions, Adam, its rate falling linearly from 0.001, on nine tenths of the positions; the error on the tenth held
out is printed every epoch. The network plays the heuristic's move unless another's predicted advantage exceeds
``--margin`` (a win chance). Every ``--eval-every`` epochs its share of the wins of ``--eval-games`` games against
three heuristic seats on the batched engine (:class:`~laro.rl.gym_vector.LamaVectorEnv`) is measured: the curve.
The network is saved as a ``policy:`` file (:func:`~laro.rl.policy_bot.save_policy`) that records, besides the
game, players, edition, activation and sizes, what it reads (``inputs``) and its ``margin``, for
:mod:`laro.bots.lama_learned`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt

from laro.bots.base import BotError, get_bot
from laro.bots.lama_deals import deal_many
from laro.bots.lama_judge import LamaJudge
from laro.bots.lama_learned import ADVANTAGE_INPUTS, ADVANTAGE_SCALE, Network, load_network, read_network
from laro.core import get_game
from laro.core.game import Action
from laro.games.lama.sampling import LamaSampler
from laro.rl.gym_vector import Masks, Observations
from laro.rl.lama_continued import Decision, SeatPolicy, continued_values
from laro.rl.policy_bot import save_policy
from laro.rl.spec import Table
from laro.rl.train_lama import (
    PLAYERS,
    Adam,
    Layers,
    backward,
    forward,
    heuristic_actions,
    plot_curve,
    share_against_heuristic,
)

__all__ = ["advantages", "choose", "features", "fit", "label", "network_policy", "win_share"]

Floats = npt.NDArray[np.float64]
Labels = dict[str, npt.NDArray[np.generic]]
FLOOR = 0.1  # a move worse than the heuristic's by more is fitted as this much worse


def label(edition: str, seed: int, games: int, determinisations: int, onward: SeatPolicy | None = None) -> Labels:
    """Heuristic games' decisions valued as the hard search values them (see the module docstring); with
    ``onward``, the seat that decided plays the playouts on by that policy (:mod:`laro.rl.lama_continued`)."""
    game = get_game("lama")
    options = {"edition": edition}
    judge = LamaJudge()
    heuristic = get_bot("heuristic", "lama")
    table = Table("lama", PLAYERS, options)
    encoding = table.encoding
    rng = random.Random(seed)
    rows: dict[str, list[npt.NDArray[np.generic]]] = {"x": [], "h": [], "q": [], "s": []}

    def keep(values: Floats, legal: Sequence[Action], choice: int) -> None:
        columns = [action.index for action in legal]
        q, s = np.full(table.num_actions, np.nan), np.full(table.num_actions, np.nan)
        q[columns] = values.mean(axis=0)
        s[columns] = (values - values[:, [columns.index(choice)]]).std(axis=0)
        rows["q"].append(q)
        rows["s"].append(s)

    for k in range(games):
        state = game.new_game(PLAYERS, seed=100_000 * seed + k, options=options)
        memories: list[dict[object, object]] = [{} for _ in range(PLAYERS)]
        decisions: list[tuple[Decision, int]] = []
        while (seat := state.current_player) is not None:
            observation = state.observation(seat)
            legal = state.legal_actions()
            sample = judge.sampler(game, observation, memories[seat])
            choice = heuristic.choose(observation, legal, rng)
            if len(legal) > 1:
                rows["x"].append(encoding.encode(observation))
                rows["h"].append(np.array(choice.index))
                lama = cast(LamaSampler, sample)  # the judge's sampler: a LamaSampler
                dealt = deal_many(lama, rng, determinisations)
                if onward is None:
                    keep(judge.value_dealt(lama, dealt, legal), legal, choice.index)
                else:
                    decisions.append((Decision(lama, dealt, legal), choice.index))
            state = state.apply(choice)
        if onward is not None and decisions:
            valued = continued_values([decision for decision, _ in decisions], options, onward)
            for values, (decision, choice_index) in zip(valued, decisions, strict=True):
                keep(values, decision.actions, choice_index)
    return {name: np.array(column) for name, column in rows.items()}


def network_policy(network: Network) -> SeatPolicy:
    """A shipped-format advantage network as the seat's policy in :func:`~laro.rl.lama_continued.continued_values`
    (:class:`~laro.bots.BotError` for a network of another kind or number of players)."""
    if not network.reads_heuristic or int(network.meta["num_players"]) != PLAYERS:
        raise BotError(
            f"a network that plays on must read the observation and the heuristic's move, for {PLAYERS} players; "
            f"this one reads {', '.join(network.meta.get('inputs', ['the observation']))} "
            f"for {network.meta['num_players']}"
        )
    layers: Layers = [(w.astype(np.float64), b.astype(np.float64)) for w, b in network.layers]
    margin = network.margin / ADVANTAGE_SCALE

    def play(observations: Observations, masks: Masks, moves: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return choose(layers, features(observations, moves, masks.shape[1]), moves, masks, margin)

    return play


def features(vectors: npt.NDArray[np.floating], moves: npt.NDArray[np.integer], actions: int) -> Floats:
    """The network's input: the observation vector and the heuristic's move, one-hot."""
    return np.concatenate([vectors.astype(np.float64), np.eye(actions)[moves]], axis=1)


def advantages(layers: Layers, x: Floats, moves: npt.NDArray[np.integer], legal: npt.NDArray[np.bool_]) -> Floats:
    """The predicted advantage of every legal action over the heuristic's move (0 for an illegal one)."""
    _, out = forward(layers, x)
    return np.where(legal, out - out[np.arange(len(out)), moves][:, None], 0.0)


def choose(
    layers: Layers, x: Floats, moves: npt.NDArray[np.integer], legal: npt.NDArray[np.bool_], margin: float
) -> npt.NDArray[np.int64]:
    """The heuristic's move unless another's predicted advantage exceeds ``margin`` (a win chance)."""
    ahead = np.where(legal, advantages(layers, x, moves, legal), -np.inf)
    best = ahead.argmax(axis=1)
    return np.where(ahead[np.arange(len(best)), best] > margin * ADVANTAGE_SCALE, best, moves)


def win_share(layers: Layers, edition: str, margin: float, games: int, seed: int, envs: int = 512) -> float:
    """The network's share of the wins of the first ``games`` games to end against three heuristic seats."""
    options = {"edition": edition}

    def play(observations: Observations, masks: Masks) -> npt.NDArray[np.int64]:
        moves = heuristic_actions(observations, PLAYERS, options)
        return choose(layers, features(observations, moves, masks.shape[1]), moves, masks, margin)

    return share_against_heuristic(play, options, games, seed, envs)


def fit(
    labels: Labels,
    hidden: Sequence[int],
    epochs: int,
    seed: int,
    evaluate: tuple[str, float, int, int] | None = None,
) -> tuple[Layers, npt.NDArray[np.int64], list[dict[str, float]]]:
    """Fit the advantages on nine tenths of the positions (see the module docstring): the layers, the held-out
    rows and the curve; ``evaluate`` (edition, margin, games, every so many epochs) measures the win share."""
    q, moves = labels["q"].astype(np.float64), labels["h"].astype(np.int64)
    legal = ~np.isnan(q)
    n, actions = q.shape
    x = features(labels["x"].astype(np.float64), moves, actions)
    target = np.where(legal, q - q[np.arange(n), moves][:, None], 0.0)
    target = np.maximum(target, -FLOOR) * ADVANTAGE_SCALE
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    held, train = order[: n // 10], order[n // 10 :]
    sizes = [x.shape[1], *hidden, actions]
    layers: Layers = [(rng.normal(0, 1 / np.sqrt(a), (a, b)), np.zeros(b)) for a, b in itertools.pairwise(sizes)]
    adam = Adam(layers, 1e-3)
    curve: list[dict[str, float]] = []
    began = time.process_time()
    for epoch in range(1, epochs + 1):
        adam.rate = 1e-3 * (epochs + 1 - epoch) / epochs
        for start in range(0, len(train), 256):
            rows = train[start : start + 256]
            hiddens, out = forward(layers, x[rows])
            picked = out[np.arange(len(rows)), moves[rows]]
            delta = np.where(legal[rows], out - picked[:, None] - target[rows], 0.0) * (2 / len(rows))
            delta[np.arange(len(rows)), moves[rows]] -= delta.sum(axis=1)  # the heuristic's move is subtracted
            adam.step(layers, backward(layers, hiddens, delta))
        train = rng.permutation(train)
        error = advantages(layers, x[held], moves[held], legal[held]) - target[held]
        point = {"epoch": epoch, "held_out_error": float((error**2).sum() / len(held))}
        if evaluate is not None and (epoch % evaluate[3] == 0 or epoch == epochs):
            edition, margin, games, _ = evaluate
            point["win_share"] = win_share(layers, edition, margin, games, 100_000 * seed + 99 + epoch)
            point["steps"] = float(epoch * len(train))
        point["seconds"] = time.process_time() - began
        curve.append(point)
        print(json.dumps(point), flush=True)
    return layers, held, curve


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--edition", choices=("classic", "party"), default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=20, help="heuristic games whose decisions are labelled")
    parser.add_argument("--determinisations", type=int, default=64, help="a position's determinisations")
    parser.add_argument(
        "--labels",
        help="save the labels here, or read them if the file exists; files that exist, joined by commas, are fitted "
        "together",
    )
    parser.add_argument(
        "--onward",
        help="the seat that decided plays the labels' playouts on by this network: 'learned' (the shipped one) or "
        "a policy: file of the same kind; without it, by the heuristic",
    )
    parser.add_argument("--hidden", default="256,256", help="hidden layer sizes")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--margin", type=float, default=0.01, help="the advantage (a win chance) to leave the move")
    parser.add_argument("--eval-every", type=int, default=10, help="epochs between measurements")
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--out", help="fit a network and save it here (without it, only the labels are made)")
    parser.add_argument("--plot", help="draw the curve into this PNG (matplotlib)")
    args = parser.parse_args(argv)
    began = time.process_time()
    paths = args.labels.split(",") if args.labels else []
    read = bool(paths) and all(Path(path).exists() for path in paths)
    if read:
        parts = []
        for path in paths:
            with np.load(path) as data:
                parts.append({name: data[name] for name in data.files})
        labels = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    else:
        if len(paths) > 1:
            parser.error("labels are made into one file at a time")
        onward = None
        if args.onward:
            try:
                network = (
                    load_network(args.edition)
                    if args.onward == "learned"
                    else read_network(args.onward, args.edition, args.onward)
                )
                onward = network_policy(network)
            except (OSError, ValueError, KeyError, BotError) as error:
                parser.error(f"--onward {args.onward}: {error}")
        labels = label(args.edition, args.seed, args.games, args.determinisations, onward)
        if paths:
            np.savez(paths[0], **labels)  # type: ignore[arg-type]
    print(json.dumps({"positions": len(labels["h"]), "seconds": round(time.process_time() - began)}), flush=True)
    if args.out is None:
        if not paths:
            parser.error("--out or --labels: without a network to save, the labels must be kept")
        return
    hidden = [int(size) for size in args.hidden.split(",")]
    evaluate = (args.edition, args.margin, args.eval_games, args.eval_every)
    layers, held, curve = fit(labels, hidden, args.epochs, args.seed, evaluate)
    q, moves = labels["q"][held].astype(np.float64), labels["h"][held].astype(np.int64)
    chosen = choose(
        layers, features(labels["x"][held].astype(np.float64), moves, q.shape[1]), moves, ~np.isnan(q), args.margin
    )
    gain = float(np.mean(q[np.arange(len(q)), chosen] - q[np.arange(len(q)), moves]))
    print(
        f"held out: leaves the heuristic's move at {np.mean(chosen != moves):.1%} of {len(q)} positions, "
        f"gaining {gain:+.5f} of a win chance each on average; won {curve[-1]['win_share']:.1%} of "
        f"{args.eval_games} games against three heuristic seats (fair share 25.0%)",
        flush=True,
    )
    made = "" if read else f" --games {args.games} --determinisations {args.determinisations}"
    made += f" --onward {args.onward}" if args.onward and not read else ""
    command = (
        f"python -m laro.rl.distil_lama --edition {args.edition} --seed {args.seed}{made} --hidden {args.hidden} "
        f"--epochs {args.epochs} --margin {args.margin} --eval-every {args.eval_every} --eval-games {args.eval_games}"
        + (f" --labels {','.join(Path(path).name for path in paths)}" if paths else "")
    )
    save_policy(
        args.out,
        layers,
        "lama",
        PLAYERS,
        {"edition": args.edition},
        "tanh",
        inputs=list(ADVANTAGE_INPUTS),
        margin=args.margin * ADVANTAGE_SCALE,
        method="the hard search's values of the heuristic's games' decisions, distilled: each move's advantage "
        "over the heuristic's move",
        seed=args.seed,
        command=command,
        positions=len(labels["h"]),
        curve=curve,
    )
    if args.plot:
        plot_curve(curve, args.plot, args.edition, "positions fitted (epochs × positions)")


if __name__ == "__main__":
    main()
