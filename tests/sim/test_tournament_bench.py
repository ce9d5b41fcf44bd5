"""The tournament benchmark: the same games with one process and with two, timed."""

from __future__ import annotations

import pytest

from laro.sim.tournament_bench import bench_tournament


def test_the_benchmark_times_the_same_games_twice() -> None:
    bench = bench_tournament("lama", ("heuristic", "random", "random"), games=30, seed=3)
    assert bench.same_results
    assert bench.one_process > 0 and bench.two_processes > 0
    assert bench.ratio == pytest.approx(bench.two_processes / bench.one_process)
    figures = bench.to_json()
    assert figures["games"] == 30 and figures["bots"] == ["heuristic", "random", "random"]
    assert figures["ratio"] == bench.ratio and figures["cpus"] >= 1
    # the CPU time the runs got: one process at most one core; two processes, their workers' time counted too
    assert 0 < bench.cores_one <= 1.05 and 0 < bench.cores_two <= min(2, figures["cpus"]) + 0.1
    assert figures["cores_two_processes"] == bench.cores_two
