"""What knowing the other hands is worth in L.A.M.A.: one seat searches, three ``heuristic`` seats play.

    python examples/lama_hand_information.py --games 400 --seed 10000
    python examples/lama_hand_information.py --games 400 --seed 10000 --hands hidden

The searching seat plays the paired one-step search of the ``hard`` level (every legal move played out to the
round's end by the L.A.M.A. judge on the same ``--samples`` determinisations, the heuristic's move kept unless
another beats it by two standard errors of the paired differences). With ``--hands known`` its
determinisations hold the other seats' true hands and only the draw pile and later deals are shuffled: a seat
that sees every hand, which no fair bot does. With ``--hands hidden`` they are the game's own determinisations
(everything unseen dealt at random), as a fair bot draws them. The seats rotate from game to game; game ``k`` is
dealt from seed ``--seed + k``. Prints the searching seat's share of the wins with its 95% interval (Wilson).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence

from laro import get_game
from laro.bots.lama_judge import LamaJudge
from laro.games.lama.state import LamaState
from laro.sim.ratings import wilson_interval

JUDGE = LamaJudge(reading=False)


def known_hands(state: LamaState) -> Callable[[random.Random], LamaState]:
    """Determinisations that keep every hand: the draw pile shuffled and a new seed for later rounds."""

    def sample(rng: random.Random) -> LamaState:
        copy = object.__new__(type(state))
        for name in (name for kind in type(state).__mro__ for name in getattr(kind, "__slots__", ())):
            setattr(copy, name, getattr(state, name))
        pile = list(state.deck[state.draw_pos :])
        rng.shuffle(pile)
        copy.deck = state.deck[: state.draw_pos] + tuple(pile)
        copy.seed = rng.getrandbits(62)
        return copy

    return sample


def hidden_hands(state: LamaState) -> Callable[[random.Random], LamaState]:
    """The game's own determinisations of the seat's observation."""
    return state.game.sampler(state.observation(state.current_player))


def search(state: LamaState, sample: Callable[[random.Random], LamaState], samples: int, rng: random.Random) -> object:
    """The heuristic's move unless another beats it by two standard errors over the same determinisations."""
    legal = state.legal_actions()
    default = JUDGE.policy(state, rng)
    if len(legal) == 1:
        return default
    seat: int = state.current_player  # type: ignore[assignment]
    kept = legal.index(default)
    gains: list[list[float]] = []
    for _ in range(samples):
        values = [value[seat] for value in JUDGE.play_each(sample(rng), legal, rng)]
        gains.append([value - values[kept] for value in values])
    best, best_z = kept, 2.0
    for k in range(len(legal)):
        column = [row[k] for row in gains]
        mean = sum(column) / samples
        spread = math.sqrt(sum((gain - mean) ** 2 for gain in column) / (samples - 1) / samples)
        z = mean / spread if spread else (math.inf if mean > 0 else 0.0)
        if k != kept and z > best_z:
            best, best_z = k, z
    return legal[best]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=100, help="determinisations a decision")
    parser.add_argument("--hands", choices=("known", "hidden"), default="known")
    parser.add_argument("--edition", choices=("classic", "party"), default="classic")
    args = parser.parse_args(argv)
    game = get_game("lama")
    determinise = known_hands if args.hands == "known" else hidden_hands
    rng = random.Random(args.seed)
    wins = 0.0
    start = time.perf_counter()
    for k in range(args.games):
        searcher = k % 4
        state = game.new_game(4, seed=args.seed + k, options={"edition": args.edition})
        while state.current_player is not None:
            if state.current_player == searcher:
                action = search(state, determinise(state), args.samples, rng)
            else:
                action = JUDGE.policy(state, rng)
            state = state.apply(action)
        if searcher in state.winners:
            wins += 1 / len(state.winners)
    low, high = wilson_interval(wins, args.games)
    print(
        f"hands {args.hands}, {args.edition}: the searching seat won {wins / args.games:.1%} of {args.games} games "
        f"(95% CI {low:.1%}-{high:.1%}; fair share 25.0%) in {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
