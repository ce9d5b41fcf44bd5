"""Executors yield results in index order, and every installed executor gives the tournament the same results;
a missing extra is a clear error before anything runs."""

from __future__ import annotations

import importlib
import operator
from types import ModuleType

import pytest

from laro.sim import executors
from laro.sim.executors import ExecutorError, chunked, get_executor, run_local
from laro.sim.tournament import Tournament, run_tournament, summarize


def test_local_processes_keep_index_order() -> None:
    indices = list(range(500))
    assert list(run_local(operator.neg, indices, jobs=2)) == [-i for i in indices]
    assert list(run_local(operator.neg, indices, jobs=1)) == [-i for i in indices]
    assert list(run_local(operator.neg, [], jobs=2)) == []


def test_chunks_cover_every_index_once_in_order() -> None:
    assert chunked(range(7), 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert [i for chunk in chunked(range(100), 7) for i in chunk] == list(range(100))


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ExecutorError, match="no executor 'spark'"):
        get_executor("spark")
    with pytest.raises(ExecutorError, match="jobs must be at least 1"):
        get_executor("local", jobs=0)
    with pytest.raises(ExecutorError, match="--address is for a ray or dask cluster"):
        get_executor("local", address="10.0.0.1:8786")


@pytest.mark.parametrize(("name", "module"), [("ray", "ray"), ("dask", "distributed")])
def test_a_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch, name: str, module: str) -> None:
    real = importlib.import_module

    def without(wanted: str, package: str | None = None) -> ModuleType:
        if wanted == module:
            raise ModuleNotFoundError(f"No module named {module!r}")
        return real(wanted, package)

    monkeypatch.setattr(executors.importlib, "import_module", without)
    with pytest.raises(ExecutorError, match=rf"--executor {name} needs the {name} extra: pip install 'laro\[{name}\]'"):
        get_executor(name)


def _same_as_one_process(name: str) -> None:
    tournament = Tournament.create("lama", ["heuristic", "random", "random"], seed=5)
    expected = run_tournament(tournament, 24, get_executor("local", jobs=1))
    results = run_tournament(tournament, 24, get_executor(name, jobs=2))
    assert results == expected
    assert summarize(tournament, results) == summarize(tournament, expected)


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_results() -> None:
    pytest.importorskip("distributed")
    _same_as_one_process("dask")


@pytest.mark.slow
def test_a_local_ray_instance_gives_the_same_results() -> None:
    pytest.importorskip("ray")
    _same_as_one_process("ray")
