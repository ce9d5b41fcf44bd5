"""Executors yield results in index order, and every installed executor gives the tournament the same results;
a missing extra is a clear error before anything runs."""

from __future__ import annotations

import importlib
import operator
import os
import signal
import subprocess
import sys
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


# The second worker of a pool starts late (a fork hook sleeps in it), and the caller stops after the first result
# while a handler of its own catches SIGTERM (as `laro tournament` does): the pool must still end.
_LATE_WORKER = """
import os, time
from laro.cli.play import stop_on_signals
from laro.sim.executors import run_local
forks = 0
def count():
    global forks
    forks += 1
def second_starts_late():
    if forks == 2:
        time.sleep(1.0)
os.register_at_fork(before=count, after_in_child=second_starts_late)
with stop_on_signals():
    results = run_local(abs, [-1, -2, -3, -4], jobs=2)
    print(next(results))
    results.close()
print("ended after", forks, "forks")
"""


def test_a_pool_ended_while_a_worker_starts_ends() -> None:
    """Without care, the late worker gets the pool's SIGTERM under the parent's handler, which raises in the
    fork hook; the worker then waits for a task for ever and the pool waits for the worker."""
    run = subprocess.Popen(
        [sys.executable, "-c", _LATE_WORKER],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = run.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)  # the script and its workers
        run.communicate()
        pytest.fail("the pool did not end in 30 s")
    assert run.returncode == 0, err
    assert out.split("\n")[:2] == ["1", "ended after 2 forks"]


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
