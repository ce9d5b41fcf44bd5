"""``laro bench rl``: the batched engine against the bare scalar engine, the scalar engine stepped through PettingZoo,
PettingZoo's own classic card environment and the OpenSpiel bridge, all measured in the same run on one core;
what observations cost in each; and the batched engine playing the Party Edition against its classic game.

The PettingZoo figures are measured the way PettingZoo's ``performance_benchmark`` measures an environment: every
agent stepped through ``agent_iter``/``last``, a uniformly random action from the mask, a reset when every agent
is done, turns counted; here for a given number of seconds instead of its fixed five.

Every figure is per second of this process's CPU time (``time.process_time``), so that waiting for a core while
other work runs does not count; nothing here runs on more than one thread, and numpy's BLAS is not used. That
does not make the figures stable on a busy machine: other processes on the same cores evict this one's arrays
from the caches, so each CPU-second does less work (the last figure says how busy the machine was). The ratios,
measured in the same run, are the figures to compare; the two editions of the batched engine are measured in
alternating windows, and each batched figure is the median of its windows.

>>> figures = bench_rl(seconds=0.05, batch=64, players=3)
>>> [figure.name for figure in figures][:4]
['batched engine steps/s', 'batched engine, Party Edition steps/s', 'batched Party ÷ classic',
 'Gymnasium vector env learner steps/s']
"""

from __future__ import annotations

import os
import random
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from laro.games.lama import GAME
from laro.rl import lama_v0
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.spec import Table
from laro.rl.vector import VectorLama

__all__ = ["TARGET_RATIO", "TARGET_STEPS", "RLFigure", "bench_rl", "pettingzoo_turns_per_second"]

TARGET_STEPS = 3_000_000.0  # batched steps per second on one core at B = 4096
TARGET_RATIO = 10.0  # batched ÷ scalar engine through PettingZoo
WINDOWS = 6  # alternating windows of each batched figure


@dataclass(slots=True)
class RLFigure:
    name: str
    value: float  # steps (turns) per second, nanoseconds, or a ratio
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


def _ratio(name: str, value: float, baseline: float, baseline_name: str, detail: str, **target: float) -> RLFigure:
    return RLFigure(name, value / baseline, detail, baseline=baseline_name, ratio=value / baseline, **target)


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


@dataclass(slots=True)
class _Batched:
    """One batched engine stepped in windows: its steps and CPU time so far, and each window's rate."""

    engine: VectorLama
    rng: np.random.Generator
    rates: list[float]
    observe_seconds: float = 0.0
    observe_calls: int = 0

    def window(self, seconds: float) -> None:
        engine, rng = self.engine, self.rng
        steps = 0
        start = time.process_time()
        while True:
            for _ in range(5):
                engine.step(engine.random_actions(rng))
            steps += 5
            elapsed = time.process_time() - start
            if elapsed > seconds:
                break
        self.rates.append(steps * engine.batch / elapsed)
        start = time.process_time()
        for _ in range(5):  # the observations and masks again, alone: what they cost in a step
            engine._observe()
        self.observe_seconds += time.process_time() - start
        self.observe_calls += 5

    @property
    def median(self) -> float:
        return float(np.median(self.rates))

    def spread(self) -> str:
        return f"median of {len(self.rates)} windows, {min(self.rates):,.0f}–{max(self.rates):,.0f}"


def _batched(batch: int, players: int, options: dict[str, Any], seed: int = 0) -> _Batched:
    engine = VectorLama(batch, players, seed=seed, options=options)
    engine.reset()
    rng = np.random.default_rng(seed)
    for _ in range(10):  # warm-up
        engine.step(engine.random_actions(rng))
    return _Batched(engine, rng, [])


def batched_steps_per_second(
    batch: int, players: int, seconds: float, seed: int = 0, options: dict[str, Any] | None = None
) -> tuple[float, int]:
    """Game steps per second of :class:`VectorLama` (``batch`` games, random legal actions), and games finished."""
    run = _batched(batch, players, options or {}, seed)
    finished = run.engine.games_finished
    run.window(seconds)
    return run.rates[0], run.engine.games_finished - finished


def vector_env_steps_per_second(batch: int, players: int, seconds: float, seed: int = 0) -> tuple[float, float]:
    """The Gymnasium vector environment (:class:`~laro.rl.gym_vector.LamaVectorEnv`, random opponents): the
    learner's steps per second, its random legal actions included, and the game steps per second (the learner's
    and the opponents')."""
    from laro.rl.gym_vector import LamaVectorEnv

    env = LamaVectorEnv(batch, players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, moves = 0, env.game_steps
    start = time.process_time()
    while True:
        for _ in range(5):
            env.step(env.engine.random_actions(rng))
        steps += 5
        elapsed = time.process_time() - start
        if elapsed > seconds:
            return steps * batch / elapsed, (env.game_steps - moves) / elapsed


def scalar_steps_per_second(players: int, seconds: float, encode: bool, seed: int = 0) -> float:
    """Actions per second of laro's own engine (``LamaState.apply``) in random games, a new game when one ends;
    with ``encode``, each action also encodes the vector of the seat to move, read from the state as the
    environments read it (``LamaEncoding.encode_state``)."""
    rng = random.Random(seed)
    encoding = LamaEncoding(players)
    steps = game = 0
    state = GAME.new_game(players, seed=game)
    start = time.process_time()
    while True:
        for _ in range(100):
            seat = state.current_player
            if seat is None:
                game += 1
                state = GAME.new_game(players, seed=game)
                seat = state.current_player
                assert seat is not None
            if encode:
                encoding.encode_state(state, seat)
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
        steps += 100
        elapsed = time.process_time() - start
        if elapsed > seconds:
            return steps / elapsed


def spiel_nanoseconds(players: int, seconds: float, seed: int = 0) -> tuple[float, float, float]:
    """OpenSpiel's ``python_laro_lama`` in random games as its search algorithms step it, a ``clone`` and an
    ``apply_action`` at every node, chance nodes included: nanoseconds per player action and per node, and the
    share of nodes that are chance nodes."""
    import pyspiel

    import laro.rl.spiel  # noqa: F401  # registers the games

    game = pyspiel.load_game("python_laro_lama", {"players": players})
    rng = random.Random(seed)
    nodes = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick, action = rng.random(), outcomes[-1][0]
                for outcome, probability in outcomes:
                    pick -= probability
                    if pick < 0:
                        action = outcome
                        break
            else:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
                actions += 1
            state = state.clone()
            state.apply_action(action)
            nodes += 1
    elapsed = time.process_time() - start
    return elapsed / actions * 1e9, elapsed / nodes * 1e9, 1 - actions / nodes


def _leduc() -> Any | None:
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError:  # rlcard and pygame-ce come with the rl extra
        return None
    return leduc_holdem_v4.env()


def _load(start: os.times_result, wall: float) -> RLFigure:
    """How much of a core this process had while measuring, and where its CPU time went."""
    now = os.times()
    user, kernel = now.user - start.user, now.system - start.system
    threads = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 1
    switches = resource.getrusage(resource.RUSAGE_SELF).ru_nivcsw
    return RLFigure(
        "this process's share of a core, %",
        100 * (user + kernel) / wall,
        f"{user:.1f} s user and {kernel:.2f} s kernel CPU time in {wall:.1f} s; {threads} threads; "
        f"{switches:,} involuntary context switches. Below 100%, other work shared the cores: it also evicts this "
        "process's arrays from the caches, so the per-CPU-second figures above fall with it (on a busy 2-core "
        "machine by half or more); the ratios, measured in the same run, hold better",
    )


def bench_rl(
    seconds: float = 3.0, batch: int = 4096, players: int = 4, progress: Callable[[str], None] | None = None
) -> list[RLFigure]:
    """Measure every figure, in this process."""
    say = progress or (lambda _: None)
    times, wall = os.times(), time.perf_counter()
    say(f"batched engine, both editions in alternating windows: {batch} games of {players} players")
    classic, party = _batched(batch, players, {}), _batched(batch, players, {"edition": "party"})
    finished = classic.engine.games_finished, party.engine.games_finished
    for _ in range(WINDOWS):
        classic.window(seconds / WINDOWS)
        party.window(seconds / WINDOWS)
    say(f"laro's scalar engine, bare and with observations ({players} players)")
    bare = scalar_steps_per_second(players, seconds, encode=False)
    encoded = scalar_steps_per_second(players, seconds, encode=True)
    say(f"scalar engine through PettingZoo's AEC API ({players} players)")
    zoo = pettingzoo_turns_per_second(lama_v0.env(num_players=players), seconds)
    say(f"OpenSpiel's python_laro_lama, clone and apply_action at every node ({players} players)")
    spiel_action, spiel_node, chance = spiel_nanoseconds(players, seconds)
    say(f"Gymnasium vector environment over the batched engine: {batch} games of {players} players")
    learner, game_steps = vector_env_steps_per_second(batch, players, seconds)
    batched = classic.median
    size = Table("lama", players, None).observation_size
    observe = classic.observe_seconds / classic.observe_calls / batch * 1e9
    figures = [
        RLFigure(
            "batched engine steps/s",
            batched,
            f"laro.rl.vector, B = {batch}, {players} players, random legal actions, observations and masks "
            f"(a new array each step); {classic.engine.games_finished - finished[0]:,} games finished; "
            f"{classic.spread()}",
            target=TARGET_STEPS if batch == 4096 else None,
        ),
        RLFigure(
            "batched engine, Party Edition steps/s",
            party.median,
            f"laro.rl.vector with edition=party, B = {batch}, {players} players, random legal actions, observations "
            f"and masks; {party.engine.games_finished - finished[1]:,} games finished; {party.spread()}",
        ),
        _ratio(
            "batched Party ÷ classic",
            party.median,
            batched,
            "batched engine steps/s",
            "the Party Edition's batched steps against the classic game's, in alternating windows",
        ),
        RLFigure(
            "Gymnasium vector env learner steps/s",
            learner,
            f"laro.rl.gym_vector.LamaVectorEnv, {batch} games of {players} players, the learner's random legal "
            f"actions, each step playing the random opponents until the learner's turn: {game_steps:,.0f} game "
            "steps/s in all",
        ),
        RLFigure(
            "bare scalar engine steps/s",
            bare,
            f"laro's LamaState.apply, {players} players, random legal actions, no observations",
        ),
        _ratio("batched ÷ bare scalar engine", batched, bare, "bare scalar engine steps/s", "the two figures above"),
        RLFigure(
            "scalar engine via PettingZoo steps/s",
            zoo,
            f"laro.rl.lama_v0, {players} players, PettingZoo's performance_benchmark loop",
        ),
        _ratio(
            "batched ÷ scalar via PettingZoo",
            batched,
            zoo,
            "scalar engine via PettingZoo steps/s",
            "the batched engine against the scalar engine through PettingZoo",
            target_ratio=TARGET_RATIO,
        ),
        RLFigure(
            "scalar observation encoding ns/step",
            (1 / encoded - 1 / bare) * 1e9,
            f"the vector of {size} of the seat to move, read from the state as the environments read it "
            f"(LamaEncoding.encode_state), per action: laro's engine with it ({encoded:,.0f} steps/s) against "
            f"without; {(1 / encoded - 1 / bare) * zoo:.0%} of a PettingZoo step",
        ),
        RLFigure(
            "batched observation ns/game-step",
            observe,
            f"the batched engine's observations and masks of {batch} games, per game; "
            f"{observe * batched / 1e9:.0%} of a batched step",
        ),
        RLFigure(
            "OpenSpiel bridge ns/action",
            spiel_action,
            f"python_laro_lama, {players} players, random games with a clone and an apply_action at every node "
            f"({spiel_node:,.0f} ns a node), the chance nodes that deal and draw ({chance:.0%} of the nodes) "
            "included, per player action",
        ),
        _ratio(
            "OpenSpiel bridge ÷ laro's apply",
            spiel_action,
            1e9 / bare,
            "bare scalar engine steps/s",
            "the bridge's time per player action against laro's own apply's (with its own dealing), both above",
        ),
    ]
    leduc = _leduc()
    if leduc is not None:
        say("PettingZoo's leduc_holdem_v4")
        turns = pettingzoo_turns_per_second(leduc, seconds)
        figures.append(RLFigure("PettingZoo leduc_holdem_v4 steps/s", turns, "PettingZoo's performance_benchmark loop"))
        figures.append(
            _ratio(
                "scalar via PettingZoo ÷ leduc_holdem_v4",
                zoo,
                turns,
                "PettingZoo leduc_holdem_v4",
                "laro's L.A.M.A. against PettingZoo's classic card game, same loop",
            )
        )
    figures.append(_load(times, time.perf_counter() - wall))
    return figures
