"""OpenSpiel's ISMCTS bot against laro's bots in L.A.M.A., through the OpenSpiel game ``python_laro_lama``.

    python examples/openspiel_ismcts_vs_hard.py --games 200 --simulations 100 --seed 1
    python examples/openspiel_ismcts_vs_hard.py --lineup openspiel-ismcts,hard,heuristic,heuristic --games 100

The seats rotate from game to game; shared wins are split; each game is written as a JSON line to ``--out``.
Prints each bot's win rate with its 95% interval (Wilson) and its time per move.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

from laro.rl.spiel_match import OPENSPIEL_ISMCTS, play_spiel_game
from laro.sim.ratings import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lineup", default=f"{OPENSPIEL_ISMCTS},hard", help="comma-separated seats")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=100, help="OpenSpiel ISMCTS simulations per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="a JSON-lines file for every game")
    args = parser.parse_args()
    lineup = args.lineup.split(",")
    wins: dict[str, float] = defaultdict(float)
    seats_played: dict[str, int] = defaultdict(int)
    seconds: dict[str, float] = defaultdict(float)
    decisions: dict[str, int] = defaultdict(int)
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    start = time.perf_counter()
    for index in range(args.games):
        shift = index % len(lineup)
        seats = lineup[shift:] + lineup[:shift]
        result = play_spiel_game(seats, seed=args.seed * 1_000_003 + index, simulations=args.simulations)
        for seat, name in enumerate(seats):
            seats_played[name] += 1
            if seat in result.winners:
                wins[name] += 1 / len(result.winners)
        for name in result.decisions:
            seconds[name] += result.seconds[name]
            decisions[name] += result.decisions[name]
        if out:
            record = {"game": index, "seats": seats, "winners": list(result.winners), "scores": list(result.scores)}
            out.write(json.dumps(record) + "\n")
            out.flush()
    if out:
        out.close()
    elapsed = time.perf_counter() - start
    print(
        f"L.A.M.A., {len(lineup)} players, {args.games} games, seats rotated, seed {args.seed}; "
        f"{OPENSPIEL_ISMCTS}: {args.simulations} simulations a move; {elapsed:.0f} s"
    )
    print(f"{'bot':<18} {'seats':>6} {'wins':>8} {'win rate':>9} {'95% CI':>15} {'s/move':>8}")
    for name in dict.fromkeys(lineup):
        games, won = seats_played[name], wins[name]
        low, high = wilson_interval(won, games)
        per_move = seconds[name] / max(1, decisions[name])
        print(f"{name:<18} {games:>6} {won:>8.1f} {won / games:>8.1%} {low:>7.1%}-{high:<6.1%} {per_move:>8.3f}")


if __name__ == "__main__":
    main()
