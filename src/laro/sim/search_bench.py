"""How fast the ISMCTS bot searches: simulations and determinisations per second, on positions from real games.

The positions are decisions of ``heuristic`` self-play games (several legal actions each). The search runs
with the ``hard`` level's settings and the game's judge; the baseline is the same search, in the same run, with
the generic judge (uniformly random play to the end of the game). A judge with specialised playouts (L.A.M.A.'s)
is also measured against its own general ones, the two searches taking turns position by position.

>>> figures = bench_search("lama", seconds=0.05, players=3)
>>> [figure.name for figure in figures][:1]
['ISMCTS simulations/s (hard level, game judge)']
"""

from __future__ import annotations

import gc
import importlib.util
import random
import time
import tracemalloc
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from laro.bots.base import get_bot
from laro.bots.ismcts import IsmctsBot
from laro.bots.judges import Judge, PlayoutJudge, judge_for
from laro.core.game import GameState, JSONDict
from laro.core.registry import get_game
from laro.sim.bench import Figure, _spiel_playouts
from laro.sim.tournament_bench import bench_tournament

__all__ = [
    "SEARCH_AGAINST_SPIEL",
    "SEARCH_SPIEL",
    "SEARCH_TARGETS",
    "SPECIALISED",
    "SPECIALISED_SPEED_UP",
    "TOURNAMENT_SPEED_UP",
    "Position",
    "bench_search",
    "bench_tournament_speed",
    "decision_positions",
]

# simulations per second on one core that the project has set itself
SEARCH_TARGETS: dict[str, float] = {"lama": 10_000.0}
SPECIALISED_SPEED_UP = 3.0  # a judge's specialised playouts against its general ones, in the hard search
SPECIALISED = "ISMCTS simulations/s against the judge's general playouts"
# per game, an OpenSpiel game whose random playouts are the yardstick of the hard search's speed, and the share of
# its moves per second the search aims at (Kamara: 1.5 times the 0.033 measured before the chamber's geometry was
# put together from its tiles' fragments)
SEARCH_AGAINST_SPIEL: dict[str, tuple[str, float]] = {"kamara": ("python_tic_tac_toe", 0.05)}
SEARCH_SPIEL = "ISMCTS simulations/s against OpenSpiel's random playout moves/s"
TOURNAMENT_SPEED_UP = 1.7  # two processes against one


@dataclass(frozen=True)
class Position:
    """A decision to search: the observation of the seat to act, and what an ISMCTS bot in that seat would
    have kept from its earlier decisions."""

    observation: JSONDict
    memory: dict[object, object]

    def sampler(self, judge: Judge) -> Callable[[random.Random], GameState]:
        """The determinisations the ``hard`` bot would search here."""
        bot = IsmctsBot(level="hard")
        bot.memory = dict(self.memory)
        return bot.determinisations(get_game(self.observation["game"]), judge, self.observation)


def decision_positions(
    game_name: str, players: int, count: int, options: Mapping[str, Any] | None = None
) -> list[Position]:
    """``count`` decisions (two or more legal actions) of heuristic games, with ISMCTS bots watching every seat."""
    game = get_game(game_name)
    judge = judge_for(game)
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        state = game.new_game(players, seed=seed, options=options)
        bots = [get_bot("heuristic", game_name) for _ in range(players)]
        watchers = [IsmctsBot(level="hard") for _ in range(players)]
        rng = random.Random(seed)
        seed += 1
        step = 0
        while not state.is_over and len(found) < count:
            seat: int = state.current_player  # type: ignore[assignment]
            legal = state.legal_actions()
            observation = state.observation(seat)
            if len(legal) > 1 and step % 5 == 0:
                found.append(Position(observation, dict(watchers[seat].memory)))
            watchers[seat].determinisations(game, judge, observation)
            step += 1
            state = state.apply(bots[seat].choose(observation, legal, rng))
    return found


def _simulations_per_second(positions: list[Position], judge: Judge | None, seconds: float) -> float:
    """Simulations per second over ``positions``, each searched for an equal share of ``seconds``."""
    bot = IsmctsBot(level="hard", seconds=seconds / len(positions))
    total = 0
    spent = 0.0
    for k, position in enumerate(positions):
        game = get_game(position.observation["game"])
        settings = bot.settings(game.name)
        sample = position.sampler(judge_for(game)) if judge is None else game.sampler(position.observation)
        bot.search(sample, judge or judge_for(game), random.Random(k), settings)
        total += bot.stats.simulations
        spent += bot.stats.seconds
    return total / spent


def _against_general(positions: list[Position], seconds: float) -> Figure | None:
    """The hard level's simulations per second of CPU time with the game's judge against the same judge's general
    playouts (``None`` if it has no others): each searches every position with the level's own budget, as it
    plays, the two taking turns position by position (so both see the machine alike) until ``seconds`` are spent."""
    game = get_game(positions[0].observation["game"])
    judge = judge_for(game)
    general = getattr(judge, "general", None)
    if general is None:
        return None
    bot = IsmctsBot(level="hard")
    settings = bot.settings(game.name)
    totals = {"specialised": [0, 0.0], "general": [0, 0.0]}
    k = 0
    while sum(spent for _, spent in totals.values()) < seconds or k < 2:
        position = positions[k % len(positions)]
        turns = [("specialised", judge), ("general", general())]
        for name, searcher in turns if k % 2 else turns[::-1]:
            start = time.process_time()
            bot.search(position.sampler(searcher), searcher, random.Random(k), settings)
            totals[name][1] += time.process_time() - start
            totals[name][0] += bot.stats.simulations
        k += 1
    specialised, reference = (sims / spent for sims, spent in totals.values())
    return Figure(
        SPECIALISED,
        specialised,
        "sims/s",
        reference,
        "the same hard search, its judge playing every round move by move (its general loop); CPU time",
        target_ratio=SPECIALISED_SPEED_UP,
    )


def _against_spiel(positions: list[Position], seconds: float) -> Figure | None:
    """The hard level's simulations per second of CPU time, searching the positions in turn with its own budget
    (as it plays), against the random playout moves per second of CPU time of the game's OpenSpiel yardstick,
    measured halfway (``None`` without OpenSpiel or a yardstick)."""
    game_name = positions[0].observation["game"]
    if game_name not in SEARCH_AGAINST_SPIEL or importlib.util.find_spec("pyspiel") is None:
        return None
    name, share = SEARCH_AGAINST_SPIEL[game_name]
    simulations, spent = _budgeted_search(positions, seconds / 2)
    theirs = _spiel_playouts(name, seconds)
    more, then = _budgeted_search(positions, seconds / 2)
    return Figure(
        SEARCH_SPIEL,
        (simulations + more) / (spent + then),
        "a second",
        theirs,
        f"OpenSpiel's pure-Python {name} (moves/s, between two halves of the search, per second of CPU time)",
        target_ratio=share,
    )


def _budgeted_search(positions: list[Position], seconds: float) -> tuple[int, float]:
    """Simulations and seconds of CPU time of the hard level searching ``positions`` in turn, each with the
    level's own budget of simulations, until ``seconds`` are spent and every position was searched."""
    judge = judge_for(get_game(positions[0].observation["game"]))
    bot = IsmctsBot(level="hard")
    settings = bot.settings(positions[0].observation["game"])
    simulations, spent, k = 0, 0.0, 0
    while spent < seconds or k < len(positions):
        position = positions[k % len(positions)]
        start = time.process_time()
        bot.search(position.sampler(judge), judge, random.Random(k), settings)
        spent += time.process_time() - start
        simulations += bot.stats.simulations
        k += 1
    return simulations, spent


def _determinisations_per_second(positions: list[Position], seconds: float) -> float:
    samplers = [position.sampler(judge_for(get_game(position.observation["game"]))) for position in positions]
    rng = random.Random(5)
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for sample in samplers:
            sample(rng)
        calls += len(samplers)
    return calls / (time.perf_counter() - start)


def bench_search(
    game_name: str, seconds: float = 3.0, players: int = 4, options: Mapping[str, Any] | None = None
) -> list[Figure]:
    """ISMCTS figures for one game played with ``options``, one core."""
    positions = decision_positions(game_name, players, 20, options)
    searched = _simulations_per_second(positions, None, seconds)
    generic = _simulations_per_second(positions, PlayoutJudge(), seconds)
    specialised = _against_general(positions, 2 * seconds)
    against_spiel = _against_spiel(positions, seconds)
    return [
        Figure(
            "ISMCTS simulations/s (hard level, game judge)",
            searched,
            "sims/s",
            generic,
            "the same search with random playouts to the game's end",
            SEARCH_TARGETS.get(game_name),
        ),
        Figure(
            "determinisations/s (as the hard bot draws them)",
            _determinisations_per_second(positions, seconds / 2),
            "calls/s",
        ),
        *([specialised] if specialised else []),
        *([against_spiel] if against_spiel else []),
        Figure("peak memory of one hard decision's search", _search_memory(positions[0]), "KiB"),
    ]


def _search_memory(position: Position) -> float:
    """Peak traced memory, in KiB, of one decision of the ``hard`` level (its whole tree kept to the end)."""
    bot = IsmctsBot(level="hard")
    bot.memory = dict(position.memory)
    observation = position.observation
    game = get_game(observation["game"])
    legal = game.sampler(observation)(random.Random(0)).legal_actions()
    gc.collect()
    tracemalloc.start()
    try:
        bot.choose(observation, legal, random.Random(1))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**10


def bench_tournament_speed(
    game_name: str, seconds: float = 3.0, players: int = 4, options: Mapping[str, Any] | None = None
) -> Figure:
    """Tournament games per second with two local processes, against the same games on one process: a lineup
    of one ``easy`` search bot and ``heuristic`` bots (games long enough that the processes, not the writing of
    results, set the pace), as many games as one process plays in about ``seconds``. The figure's name says how
    many cores each run got (CPU seconds per second): on a busy machine two processes get no more than one."""
    bots = ("easy", *("heuristic",) * (players - 1))
    probe = bench_tournament(game_name, bots, games=2 * players, options=options)
    games = max(4 * players, players * round(probe.one_process * seconds / players))
    measured = bench_tournament(game_name, bots, games=games, options=options)
    if not measured.same_results:
        raise RuntimeError("one process and two played different games")  # pragma: no cover - a determinism bug
    return Figure(
        f"tournament games/s, 2 processes ({games} games; cores got: 1 process {measured.cores_one:.2f}, "
        f"2 processes {measured.cores_two:.2f})",
        measured.two_processes,
        "games/s",
        measured.one_process,
        "the same games on 1 process",
        target_ratio=TOURNAMENT_SPEED_UP,
    )
