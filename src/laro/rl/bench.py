"""``laro bench rl``: the batched engine against the scalar engine stepped through PettingZoo, and PettingZoo's
own classic card environment, all measured in the same run on one core; and the batched engine playing the Party
Edition, against its classic game measured just before.

The PettingZoo figures are measured the way PettingZoo's ``performance_benchmark`` measures an environment: every
agent stepped through ``agent_iter``/``last``, a uniformly random action from the mask, a reset when every agent
is done, turns counted; here for a given number of seconds instead of its fixed five.

Every figure is per second of this process's CPU time (``time.process_time``), so that it is the speed on one
core even while other work shares the machine; nothing here runs on more than one thread.

>>> figures = bench_rl(seconds=0.05, batch=64, players=3)
>>> [figure.name for figure in figures][:5]
['batched engine steps/s', 'scalar engine via PettingZoo steps/s', 'batched ÷ scalar via PettingZoo',
 'batched engine, Party Edition steps/s', 'batched Party ÷ classic']
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from laro.rl import lama_v0
from laro.rl.vector import VectorLama

__all__ = ["TARGET_RATIO", "TARGET_STEPS", "RLFigure", "bench_rl", "pettingzoo_turns_per_second"]

TARGET_STEPS = 3_000_000.0  # batched steps per second on one core at B = 4096
TARGET_RATIO = 10.0  # batched ÷ scalar engine through PettingZoo


@dataclass(slots=True)
class RLFigure:
    name: str
    value: float  # steps (turns) per second
    detail: str
    target: float | None = None
    baseline: str = ""
    ratio: float | None = None
    target_ratio: float | None = None

    @property
    def met(self) -> bool | None:
        if self.target_ratio is not None:
            return self.ratio is not None and self.ratio >= self.target_ratio
        return None if self.target is None else self.value >= self.target


def pettingzoo_turns_per_second(env: Any, seconds: float, seed: int = 0) -> float:
    """Turns per second of ``env`` in PettingZoo's ``performance_benchmark`` loop."""
    choose = random.Random(seed).choice
    turns = 0
    env.reset(seed=seed)
    start = time.process_time()
    while True:
        for agent in env.agent_iter(env.num_agents):
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            elif isinstance(observation, dict) and "action_mask" in observation:
                action = choose(np.flatnonzero(observation["action_mask"]).tolist())
            else:
                action = env.action_space(agent).sample()
            env.step(action)
            turns += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
        elapsed = time.process_time() - start
        if elapsed > seconds:
            return turns / elapsed


def batched_steps_per_second(
    batch: int, players: int, seconds: float, seed: int = 0, options: dict[str, Any] | None = None
) -> tuple[float, int]:
    """Game steps per second of :class:`VectorLama` (``batch`` games, random legal actions), and games finished."""
    engine = VectorLama(batch, players, seed=seed, options=options)
    engine.reset()
    rng = np.random.default_rng(seed)
    for _ in range(10):  # warm-up
        engine.step(engine.random_actions(rng))
    finished = engine.games_finished
    steps = 0
    start = time.process_time()
    while True:
        for _ in range(20):
            engine.step(engine.random_actions(rng))
        steps += 20
        elapsed = time.process_time() - start
        if elapsed > seconds:
            return steps * batch / elapsed, engine.games_finished - finished


def _leduc() -> Any | None:
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError:  # rlcard and pygame-ce come with the rl extra
        return None
    return leduc_holdem_v4.env()


def bench_rl(
    seconds: float = 3.0, batch: int = 4096, players: int = 4, progress: Callable[[str], None] | None = None
) -> list[RLFigure]:
    """Measure the three figures, one after the other in this process."""
    say = progress or (lambda _: None)
    say(f"batched engine: {batch} games of {players} players")
    batched, finished = batched_steps_per_second(batch, players, seconds)
    say(f"batched engine, Party Edition: {batch} games of {players} players")
    party, party_finished = batched_steps_per_second(batch, players, seconds, options={"edition": "party"})
    say(f"scalar engine through PettingZoo's AEC API ({players} players)")
    scalar = pettingzoo_turns_per_second(lama_v0.env(num_players=players), seconds)
    figures = [
        RLFigure(
            "batched engine steps/s",
            batched,
            f"laro.rl.vector, B = {batch}, {players} players, random legal actions, observations and masks; "
            f"{finished:,} games finished",
            target=TARGET_STEPS if batch == 4096 else None,
        ),
        RLFigure(
            "scalar engine via PettingZoo steps/s",
            scalar,
            f"laro.rl.lama_v0, {players} players, PettingZoo's performance_benchmark loop",
        ),
        RLFigure(
            "batched ÷ scalar via PettingZoo",
            batched / scalar,
            "the two figures above",
            baseline="scalar engine via PettingZoo",
            ratio=batched / scalar,
            target_ratio=TARGET_RATIO,
        ),
        RLFigure(
            "batched engine, Party Edition steps/s",
            party,
            f"laro.rl.vector with edition=party, B = {batch}, {players} players, random legal actions, observations "
            f"and masks; {party_finished:,} games finished",
        ),
        RLFigure(
            "batched Party ÷ classic",
            party / batched,
            "the Party Edition's batched steps against the classic game's, both above",
            baseline="batched engine steps/s",
            ratio=party / batched,
        ),
    ]
    leduc = _leduc()
    if leduc is not None:
        say("PettingZoo's leduc_holdem_v4")
        turns = pettingzoo_turns_per_second(leduc, seconds)
        figures.append(RLFigure("PettingZoo leduc_holdem_v4 steps/s", turns, "PettingZoo's performance_benchmark loop"))
        figures.append(
            RLFigure(
                "scalar via PettingZoo ÷ leduc_holdem_v4",
                scalar / turns,
                "laro's L.A.M.A. against PettingZoo's classic card game, same loop",
                ratio=scalar / turns,
                baseline="PettingZoo leduc_holdem_v4",
            )
        )
    return figures
