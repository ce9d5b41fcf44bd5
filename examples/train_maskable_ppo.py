"""Train sb3-contrib's MaskablePPO on the Gymnasium L.A.M.A. environment against random bots, report the win
rate it reached against the win rate of a random player measured the same way, and save the policy as a laro bot.

    pip install -e '.[rl,train]'
    python examples/train_maskable_ppo.py --timesteps 200000 --players 2 --out lama-ppo
    laro tournament lama --bots policy:lama-ppo.npz,random --games 400      # the trained policy as a laro bot
    laro play lama --players 2 --bots policy:lama-ppo.npz                   # play against it

Writes ``OUT.zip`` (the sb3 model) and ``OUT.npz`` (the policy network, which laro plays with numpy alone).
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import laro.rl  # noqa: F401  # registers laro/Lama-v0
from laro.rl.policy_bot import save_policy


def win_rate(env: gymnasium.Env, choose, games: int, seed: int) -> float:  # type: ignore[type-arg, no-untyped-def]
    """The learner's share of the wins over ``games`` games (a shared win counts its share)."""
    total = 0.0
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        done = False
        reward = 0.0
        while not done:
            action = choose(observation, info["action_mask"].astype(bool))
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        total += reward  # the reward is the learner's share of the win
    return total / games


def export(model: MaskablePPO, path: str, players: int, **about: object) -> None:
    """The policy network (shared layers, policy layers, action layer) as ``(weights, bias)`` pairs for laro."""
    import torch.nn as nn

    linear = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    linear.append(model.policy.action_net)
    layers = [(m.weight.detach().numpy().T, m.bias.detach().numpy()) for m in linear]
    save_policy(path, layers, game="lama", num_players=players, **about)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="the laro bot at every other seat")
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="lama-ppo")
    args = parser.parse_args()

    torch.set_num_threads(1)  # small networks: one thread is fastest, and leaves the other cores alone
    env = gymnasium.make("laro/Lama-v0", num_players=args.players, opponents=args.opponents)
    rng = np.random.default_rng(args.seed)

    def random_player(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    baseline = win_rate(env, random_player, args.eval_games, seed=10**6)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, device="cpu")
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    trained_for = time.perf_counter() - start

    def trained(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    reached = win_rate(env, trained, args.eval_games, seed=10**6)
    model.save(args.out + ".zip")
    export(model, args.out + ".npz", args.players, opponents=args.opponents, timesteps=args.timesteps)
    report = {
        "players": args.players,
        "opponents": args.opponents,
        "timesteps": args.timesteps,
        "training_seconds": round(trained_for, 1),
        "eval_games": args.eval_games,
        "win_rate_trained": round(reached, 4),
        "win_rate_random_player": round(baseline, 4),
        "fair_share": round(1 / args.players, 4),
    }
    print(json.dumps(report, indent=1))
    print(
        f"MaskablePPO, {args.timesteps:,} steps in {trained_for:.0f} s: won {reached:.1%} of {args.eval_games} games "
        f"against {args.players - 1} {args.opponents} bot(s); a random player won {baseline:.1%} the same way"
    )


if __name__ == "__main__":
    main()
