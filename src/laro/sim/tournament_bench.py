"""Tournament throughput: the same games played with one process and with two, in games per second, and the
speed-up (pool start-up included, as a user meets it). Each run also counts the CPU time its processes got: two
processes on a machine whose cores are busy get little more than one core between them, and that, not laro,
then holds the speed-up back.

>>> bench = bench_tournament("lama", ("heuristic", "random"), games=4)
>>> bench.same_results, bench.one_process > 0, bench.two_processes > 0
(True, True, True)
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from laro.sim.executors import get_executor
from laro.sim.tournament import GameResult, Tournament, run_tournament

__all__ = ["TournamentBench", "bench_tournament"]


@dataclass(frozen=True, slots=True)
class TournamentBench:
    """Games per second of one lineup's games with one process and with two, on a machine with ``cpus`` CPUs."""

    game: str
    bots: tuple[str, ...]
    games: int
    one_process: float  # games/s
    two_processes: float  # games/s
    same_results: bool  # both runs gave the same games (they must)
    cpus: int
    cores_one: float = 0.0  # CPU seconds per second of the one-process run (at most 1)
    cores_two: float = 0.0  # CPU seconds per second of the two-process run, its workers' and this process's

    @property
    def ratio(self) -> float:
        """Two processes' speed over one's: about 2 on two free cores, less when games are too short to
        outweigh the pool."""
        return self.two_processes / self.one_process

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict.

        >>> TournamentBench("lama", ("a", "b"), 10, 100.0, 180.0, True, 2).to_json()["ratio"]
        1.8
        """
        return {
            "game": self.game,
            "bots": list(self.bots),
            "games": self.games,
            "one_process_games_per_s": self.one_process,
            "two_processes_games_per_s": self.two_processes,
            "ratio": self.ratio,
            "same_results": self.same_results,
            "cpus": self.cpus,
            "cores_one_process": self.cores_one,
            "cores_two_processes": self.cores_two,
        }


def _cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (a pool's workers, once it is closed)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(tournament: Tournament, games: int, jobs: int) -> tuple[float, float, list[GameResult]]:
    """Games per second, the cores the run got (CPU seconds per second) and the results."""
    start, cpu = time.perf_counter(), _cpu_seconds()
    results = run_tournament(tournament, games, get_executor("local", jobs=jobs))
    wall = time.perf_counter() - start
    return games / wall, (_cpu_seconds() - cpu) / wall, results


def bench_tournament(
    game: str = "lama",
    bots: Sequence[str] = ("heuristic", "random", "random", "random"),
    games: int = 400,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> TournamentBench:
    """Play the same ``games`` games of ``bots`` with one local process, then with two, and time both."""
    tournament = Tournament.create(game, list(bots), seed, options)
    one, cores_one, first = _timed(tournament, games, 1)
    two, cores_two, second = _timed(tournament, games, 2)
    same, cpus = first == second, os.cpu_count() or 1
    return TournamentBench(tournament.game, tournament.bots, games, one, two, same, cpus, cores_one, cores_two)
