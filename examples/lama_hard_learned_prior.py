"""Does the learned bot make ``hard`` stronger as its prior, or as its own play in the playouts? ``hard`` so changed,
against three ``heuristic`` seats, game by game against ``hard`` itself on the same deals and seats.

    python examples/lama_hard_learned_prior.py --edition classic --games 400 --seed 1 \\
        --against docs/strength/lama-hard-heuristic.jsonl
    python examples/lama_hard_learned_prior.py --edition party --games 400 --seed 1 \\
        --against docs/strength/lama-party-hard-heuristic.jsonl
    python examples/lama_hard_learned_prior.py --playing-on --edition party --games 400 --seed 1 \\
        --against docs/strength/lama-party-hard-heuristic.jsonl

The bot ``hard+learned`` searches as ``hard`` does (the paired search: every legal move played out by the judge on
the same determinisations), but the move it keeps unless another beats it by two standard errors is the ``learned``
bot's choice, not the heuristic's. With ``--playing-on`` the bot is ``hard+onward``: ``hard``'s search and default,
but in every playout its own seat plays on by the ``learned`` bot's network, the others by the heuristic
(:mod:`laro.rl.lama_continued`, on the batched engine). The games are those of ``laro tournament lama --bots
hard+learned,heuristic,heuristic,heuristic --seed SEED`` (or ``hard+onward``): with ``--against``, a tournament
file of ``hard`` in the same lineup, seed and edition, each game is paired with the same game there, and the script
prints the mean difference of the searching seat's result with its 95% interval. ``--out`` saves the games as a
tournament file.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from laro import get_game
from laro.bots.base import register_bot
from laro.bots.ismcts import IsmctsBot
from laro.bots.judges import Judge, judge_for
from laro.bots.lama_deals import Dealt
from laro.bots.lama_judge import LamaJudge
from laro.bots.lama_learned import LearnedBot, load_network
from laro.core.game import Action, Game, JSONDict
from laro.games.lama.sampling import LamaSampler
from laro.rl.distil_lama import network_policy
from laro.rl.lama_continued import Decision, SeatPolicy, continued_values
from laro.sim.executors import get_executor
from laro.sim.ratings import wilson_interval
from laro.sim.tournament import GameResult, Tournament, prepare, run_tournament

NAME = "hard+learned"
PLAYING_ON = "hard+onward"
OTHERS = ("heuristic", "heuristic", "heuristic")
A = TypeVar("A", bound=Action)


class HardWithPrior(IsmctsBot):
    """``hard``'s paired search, keeping the learned bot's move unless another is better beyond doubt."""

    def __init__(self) -> None:
        super().__init__("hard", name=NAME)
        self.prior = LearnedBot()

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A:
        game = get_game(observation["game"])
        judge = judge_for(game)
        sample = self.determinisations(game, judge, observation)  # read every decision, as hard does
        if len(legal) == 1:
            return legal[0]
        move = self.prior.choose(observation, legal, random.Random(0))  # the search's generator left as hard's
        order = (move.index, *(action.index for action in legal if action.index != move.index))
        self.search(sample, judge, rng, self.settings(game.name), order)
        return next((action for action in legal if action.index == self.preferred), move)


class PlayingOnJudge(LamaJudge):
    """The ``hard`` judge whose batched playouts let the seat that decides play on by the learned network."""

    def __init__(self) -> None:
        super().__init__()
        self.onward: dict[str, SeatPolicy] = {}  # by edition, made once

    def value_dealt(self, sample: LamaSampler, dealt: Dealt, actions: Sequence[Action]) -> npt.NDArray[np.float64]:
        edition = sample.template.options["edition"]
        if edition not in self.onward:
            self.onward[edition] = network_policy(load_network(edition))
        return continued_values([Decision(sample, dealt, actions)], sample.template.options, self.onward[edition])[0]


class HardPlayingOn(IsmctsBot):
    """``hard``'s paired search and default, its own seat playing on by the learned network in every playout."""

    def __init__(self) -> None:
        super().__init__("hard", name=PLAYING_ON)
        self.judge = PlayingOnJudge()

    def judge_of(self, game: Game) -> Judge:
        return self.judge


def searching_seat(result: GameResult, bot: str) -> float:
    """The result of the seat ``bot`` played in one game."""
    return result.result[result.seats.index(bot)]


def paired(
    ours: Sequence[GameResult], theirs: Sequence[GameResult], bot: str, name: str = NAME
) -> tuple[int, float, float, float]:
    """On the games in both (the same deal and seat): how many, the searching seat's mean result in ``ours`` and
    in ``theirs`` (where ``bot`` searched), and the 95% half-width of the mean paired difference."""
    by_index = {result.index: result for result in theirs}
    pairs = []
    for result in ours:
        other = by_index.get(result.index)
        if other is not None:
            if other.seed != result.seed or other.seats.index(bot) != result.seats.index(name):
                raise SystemExit(f"game {result.index} is another deal or seat in the --against file")
            pairs.append((searching_seat(result, name), searching_seat(other, bot)))
    if len(pairs) < 2:
        raise SystemExit("fewer than two games in common with the --against file")
    count = len(pairs)
    gaps = [mine - other for mine, other in pairs]
    mean = sum(gaps) / count
    spread = math.sqrt(sum((gap - mean) ** 2 for gap in gaps) / (count - 1) / count)
    return count, sum(mine for mine, _ in pairs) / count, sum(other for _, other in pairs) / count, 1.96 * spread


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", choices=("classic", "party"), default="classic")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="save the games as a laro tournament file (and resume it)")
    parser.add_argument("--against", type=Path, help="a tournament file of hard,heuristic,heuristic,heuristic")
    parser.add_argument(
        "--playing-on", action="store_true", help="play hard+onward (the learned network in the playouts) instead"
    )
    args = parser.parse_args(argv)
    name = PLAYING_ON if args.playing_on else NAME
    register_bot(name, "lama", HardPlayingOn if args.playing_on else HardWithPrior)  # this run's games only
    options = {"edition": args.edition}
    tournament = Tournament.create("lama", [name, *OTHERS], seed=args.seed, options=options)
    results = run_tournament(tournament, args.games, get_executor("local", jobs=args.jobs), args.out)
    wins = sum(searching_seat(result, name) for result in results)
    low, high = wilson_interval(wins, len(results))
    print(
        f"{name}, {args.edition}: won {wins / len(results):.1%} of {len(results)} games "
        f"(95% CI {low:.1%}-{high:.1%}; fair share 25.0%)"
    )
    if args.against is not None:
        with args.against.open() as file:
            header = json.loads(file.readline())
        bot = header["bots"][0]
        against = Tournament.create("lama", [bot, *OTHERS], seed=args.seed, options=options)
        theirs = prepare(against, header["games"], args.against)
        games, mine, other, half = paired(results, theirs.done, bot, name)
        gap = mine - other
        print(
            f"on the same {games} games: {name} {mine:.1%}, {bot} {other:.1%}; the difference {gap:+.1%} "
            f"(95% CI {gap - half:+.1%} to {gap + half:+.1%})"
        )


if __name__ == "__main__":
    main()
