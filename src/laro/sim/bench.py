"""Benchmarks of the game engines: random playouts, the contract's calls, memory — with baselines measured in
the same run, so the ratios hold whatever the machine.

>>> report = bench_game("lama", seconds=0.05, players=3)
>>> report.figure("random playout moves/s").value > 0
True
>>> party = bench_game("lama", seconds=0.05, players=3, options={"edition": "party"})
>>> party.figure(CLASSIC_RATIO).baseline > 0
True
"""

from __future__ import annotations

import gc
import importlib.util
import json
import platform
import random
import time
import tracemalloc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from laro.core.game import Action, GameState
from laro.core.registry import get_game

__all__ = [
    "BRIDGE_RATIO",
    "CLASSIC_RATIO",
    "PARTY_AGAINST_CLASSIC",
    "SPIEL_BASELINES",
    "SPIEL_RATIO",
    "TARGETS",
    "BenchReport",
    "Figure",
    "against_bridge",
    "bench_game",
]

# the speed targets the project has set itself, in moves per second on one core
TARGETS: dict[str, float] = {"lama": 250_000.0, "kamara": 40_000.0}
PARTY_AGAINST_CLASSIC = 0.85  # L.A.M.A. Party Edition playouts: within about 15% of the classic game's moves/s
CLASSIC_RATIO = "random playout moves/s against the classic game"
# per game, an OpenSpiel game (pyspiel, the rl extra) whose random playouts are a baseline, and the share of its
# moves per second the project aims at
SPIEL_BASELINES: dict[str, tuple[str, float]] = {"lama": ("leduc_poker", 0.6), "kamara": ("python_tic_tac_toe", 3.0)}
SPIEL_RATIO = "random playout moves/s against OpenSpiel"
BRIDGE_RATIO = "random playout moves/s through laro's OpenSpiel game"


@dataclass(slots=True)
class Figure:
    """One measured figure, with the baseline measured in the same run where there is one."""

    name: str
    value: float
    unit: str
    baseline: float | None = None
    baseline_name: str = ""
    target: float | None = None
    target_ratio: float | None = None  # a target on value ÷ baseline instead

    @property
    def ratio(self) -> float | None:
        return self.value / self.baseline if self.baseline else None

    @property
    def meets_target(self) -> bool | None:
        if self.target_ratio is not None:
            return self.ratio is not None and self.ratio >= self.target_ratio
        return None if self.target is None else self.value >= self.target


@dataclass(slots=True)
class BenchReport:
    game: str
    players: int
    seconds: float
    machine: str
    figures: list[Figure] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def figure(self, name: str) -> Figure:
        return next(f for f in self.figures if f.name == name)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for item, figure in zip(data["figures"], self.figures, strict=True):
            item["ratio"] = figure.ratio
            item["meets_target"] = figure.meets_target
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)


def _random_playouts(
    new_game: Callable[[int], Any], seconds: float, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, float]:
    """Games and moves per second of uniformly random playouts: the loop a user writes, the same for every
    engine (``legal_actions()`` then ``apply``, one uniform choice); seconds of ``clock``."""
    rnd = random.Random(1).random
    games = moves = 0
    start = clock()
    deadline = start + seconds
    while True:
        state = new_game(games)
        while True:
            actions = state.legal_actions()
            if not actions:
                break
            state = state.apply(actions[int(rnd() * len(actions))])
            moves += 1
        games += 1
        now = clock()
        if now >= deadline:
            break
    elapsed = now - start
    return games / elapsed, moves / elapsed


def _spiel_playouts(name: str, seconds: float, params: dict[str, int] | None = None, chance: bool = True) -> float:
    """Moves per second of CPU time of OpenSpiel's game ``name`` played by the loop of :func:`_random_playouts`
    (a chance node's outcomes are among its legal actions, picked alike, and counted as moves if ``chance``;
    OpenSpiel changes a state in place)."""
    import pyspiel

    if name.startswith("python_"):
        import open_spiel.python.games  # noqa: F401  # registers OpenSpiel's pure-Python games

    game = pyspiel.load_game(name, params or {})
    rnd = random.Random(1).random
    moves = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while True:
            actions = state.legal_actions()
            if not actions:
                break
            moves += chance or not state.is_chance_node()
            state.apply_action(actions[int(rnd() * len(actions))])
        now = time.process_time()
        if now >= deadline:
            break
    return moves / (now - start)


def _against_spiel(game_name: str, new_game: Callable[[int], GameState], seconds: float) -> Figure | None:
    """Random-playout moves per second against the game's OpenSpiel baseline (``None`` without OpenSpiel): per
    second of CPU time, laro just before and just after, so that a busy machine weighs on both alike."""
    if importlib.util.find_spec("pyspiel") is None:
        return None
    name, share = SPIEL_BASELINES[game_name]
    _, before = _random_playouts(new_game, seconds, time.process_time)
    theirs = _spiel_playouts(name, seconds)
    _, after = _random_playouts(new_game, seconds, time.process_time)
    return Figure(
        SPIEL_RATIO,
        (before + after) / 2,
        "moves/s",
        theirs,
        f"OpenSpiel's {_spiel_kind(name)} {name} (the same loop, between two laro runs, per second of CPU time)",
        target_ratio=share,
    )


def against_bridge(game_name: str, players: int, seconds: float) -> Figure:
    """Random playouts of the game through laro's own OpenSpiel game ``python_laro_<game>`` (which the caller has
    registered: ``import laro.rl.spiel``) against the engine played directly, by the same loop per second of CPU
    time, the engine just before and just after; chance nodes (the setup) are not counted as moves."""
    game = get_game(game_name)

    def new_game(seed: int) -> GameState:
        return game.new_game(players, seed=seed)

    _, before = _random_playouts(new_game, seconds, time.process_time)
    bridged = _spiel_playouts(f"python_laro_{game_name}", seconds, {"players": players}, chance=False)
    _, after = _random_playouts(new_game, seconds, time.process_time)
    return Figure(
        BRIDGE_RATIO,
        bridged,
        "moves/s",
        (before + after) / 2,
        "laro's engine played directly (the same loop, before and after, per second of CPU time)",
    )


def _spiel_kind(name: str) -> str:
    return "pure-Python" if name.startswith("python_") else "C++"


def _sample_positions(
    game_name: str, players: int, count: int, options: Mapping[str, Any] | None = None
) -> list[tuple[GameState, Action]]:
    game = get_game(game_name)
    rng = random.Random(2)
    sample: list[tuple[GameState, Action]] = []
    seed = 0
    while len(sample) < count:
        state = game.new_game(players, seed=seed, options=options)
        seed += 1
        while not state.is_over and len(sample) < count:
            action = rng.choice(state.legal_actions())
            sample.append((state, action))
            state = state.apply(action)
    return sample


def _rate(call: Callable[[], int], seconds: float) -> float:
    """Calls per second of ``call`` (which returns how many calls it made)."""
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        calls += call()
    return calls / (time.perf_counter() - start)


def _timed_rate(call: Callable[[], int], timer: list[float], seconds: float) -> float:
    """Calls per second of ``call``, counting only the time it adds to ``timer[0]`` (set-up excluded)."""
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        calls += call()
    return calls / timer[0]


def _peak_memory(game_name: str, players: int, games: int, options: Mapping[str, Any] | None = None) -> float:
    """Peak traced memory, in KiB, while playing ``games`` random games one after another."""
    game = get_game(game_name)
    rng = random.Random(3)
    gc.collect()
    tracemalloc.start()
    try:
        for seed in range(games):
            state = game.new_game(players, seed=seed, options=options)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_actions()))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**10


def _state_memory(sample: Sequence[tuple[GameState, Action]]) -> float:
    """Average bytes a state costs when many successive states are kept (as a search tree keeps them)."""
    gc.collect()
    tracemalloc.start()
    try:
        kept = [state.apply(action) for state, action in sample]
        used, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return used / len(kept)


def _baselines(
    game_name: str, players: int, seconds: float, options: Mapping[str, Any] | None = None
) -> list[tuple[str, float]]:
    """(name, random-playout moves/s) of other engines, measured now; only those installed."""
    found: list[tuple[str, float]] = []
    if game_name == "lama":
        from laro.sim.baselines.lama_reference import ReferenceLama

        party = (options or {}).get("edition") == "party"
        end_score = int((options or {}).get("end_score", 40))
        _, moves = _random_playouts(lambda seed: ReferenceLama.new_game(players, seed, end_score, party), seconds)
        edition = " Party Edition" if party else ""
        found.append((f"laro.sim reference L.A.M.A.{edition} (plain lists, deep copies)", moves))
    if game_name == "kamara":
        from laro.sim.baselines.kamara_uncached import UncachedKamara

        _, moves = _random_playouts(lambda seed: UncachedKamara.new_game(players, seed), seconds)
        found.append(("laro Kamara with the geometry rebuilt for every state", moves))
    if importlib.util.find_spec("rlcard") is not None:
        found.append(("rlcard 4-player UNO (in-place engine)", _rlcard_uno(seconds)))
    return found


def _rlcard_uno(seconds: float) -> float:
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=4)
    game.np_random.seed(1)
    rnd = random.Random(1).random
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(rnd() * len(legal))])
            moves += 1
    return moves / (time.perf_counter() - start)


def bench_game(
    game_name: str,
    seconds: float = 3.0,
    players: int = 4,
    memory_games: int = 200,
    options: Mapping[str, Any] | None = None,
) -> BenchReport:
    """Measure one game's engine on this machine, one core, played with ``options`` (L.A.M.A.'s Party Edition
    is also measured against the classic game on the same engine, in the same run)."""
    game = get_game(game_name)
    chosen = dict(options or {})
    report = BenchReport(
        game_name, players, seconds, f"{platform.python_implementation()} {platform.python_version()}", options=chosen
    )

    def new_game(seed: int) -> GameState:
        return game.new_game(players, seed=seed, options=chosen)

    games_per_s, moves_per_s = _random_playouts(new_game, seconds)
    baselines = _baselines(game_name, players, seconds, chosen)
    if importlib.util.find_spec("rlcard") is None:
        report.notes.append("rlcard is not installed: pip install 'laro[bench]' adds its UNO engine as a baseline")
    target = TARGETS.get(game_name)
    report.figures.append(Figure("random playout games/s", games_per_s, "games/s"))
    if baselines:
        for name, moves in baselines:
            report.figures.append(Figure("random playout moves/s", moves_per_s, "moves/s", moves, name, target))
    else:
        report.figures.append(Figure("random playout moves/s", moves_per_s, "moves/s", target=target))
    if game_name == "lama" and chosen.get("edition") == "party":
        classic = {**chosen, "edition": "classic"}
        _, classic_moves = _random_playouts(lambda seed: game.new_game(players, seed=seed, options=classic), seconds)
        # the Party Edition measured again right after, so both figures see the machine alike
        _, again = _random_playouts(new_game, seconds)
        report.figures.append(
            Figure(
                CLASSIC_RATIO,
                (moves_per_s + again) / 2,
                "moves/s",
                classic_moves,
                "the classic game on the same engine (measured between two Party Edition runs)",
                target_ratio=PARTY_AGAINST_CLASSIC,
            )
        )
    if game_name in SPIEL_BASELINES:
        against_spiel = _against_spiel(game_name, new_game, seconds)
        if against_spiel is None:
            kind = _spiel_kind(SPIEL_BASELINES[game_name][0])
            report.notes.append(
                f"OpenSpiel is not installed: pip install 'laro[rl]' adds its {kind} game as a baseline"
            )
        else:
            report.figures.append(against_spiel)

    sample = _sample_positions(game_name, players, 20_000, chosen)
    states = [state for state, _ in sample]

    def apply_all() -> int:
        for state, action in sample:
            state.apply(action)
        return len(sample)

    def legal_all() -> int:
        """``legal_actions`` on states just made by ``apply`` (its first call: computed, or made by apply)."""
        fresh = [state.apply(action) for state, action in sample[:5000]]
        start = time.perf_counter()
        for state in fresh:
            state.legal_actions()
        legal_time[0] += time.perf_counter() - start
        return len(fresh)

    legal_time = [0.0]

    jsons = [state.to_json() for state in states[:2000]]

    def to_json_all() -> int:
        for state in states[:2000]:
            state.to_json()
        return 2000

    def from_json_all() -> int:
        for data in jsons:
            game.from_json(data)
        return len(jsons)

    def clone_all() -> int:
        for state in states[:2000]:
            game.from_json(state.to_json())
        return 2000

    report.figures += [
        Figure("apply calls/s", _rate(apply_all, seconds), "calls/s"),
        Figure("clone calls/s (from_json of to_json: states are immutable)", _rate(clone_all, seconds / 2), "calls/s"),
        Figure(
            "legal_actions calls/s (first call on a new state)", _timed_rate(legal_all, legal_time, seconds), "calls/s"
        ),
        Figure("to_json calls/s", _rate(to_json_all, seconds / 2), "calls/s"),
        Figure("from_json calls/s", _rate(from_json_all, seconds / 2), "calls/s"),
        Figure(
            f"peak memory of {memory_games} playouts", _peak_memory(game_name, players, memory_games, chosen), "KiB"
        ),
        Figure("memory per kept state", _state_memory(sample[:5000]), "bytes"),
    ]
    return report
