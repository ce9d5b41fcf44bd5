"""Executors: run a function over indices (one game each) and yield the results in index order as they become
available, on local processes (the default), a Ray cluster or a Dask cluster.

Whatever the executor, the results are the same values in the same order; only the speed differs.

>>> run = get_executor("local", jobs=1)
>>> list(run(abs, [-3, 1, -2]))
[3, 1, 2]
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from laro.core.errors import LaroError

__all__ = ["EXECUTORS", "Executor", "ExecutorError", "chunked", "get_executor", "run_dask", "run_local", "run_ray"]

T = TypeVar("T")

EXECUTORS = ("local", "ray", "dask")


class ExecutorError(LaroError, RuntimeError):
    """An executor that cannot run here (its extra is missing, or its cluster cannot be reached)."""


@dataclass(frozen=True, slots=True)
class Executor:
    """A configured executor: call it with a picklable function and the indices to run it on."""

    name: str
    jobs: int | None = None
    address: str | None = None

    def __call__(self, function: Callable[[int], T], indices: Sequence[int]) -> Iterator[T]:
        if self.name == "ray":
            return run_ray(function, indices, self.jobs, self.address)
        if self.name == "dask":
            return run_dask(function, indices, self.jobs, self.address)
        return run_local(function, indices, self.jobs)


def get_executor(name: str, jobs: int | None = None, address: str | None = None) -> Executor:
    """The executor called ``name`` (local, ray or dask); :class:`ExecutorError` if it cannot run here, before
    anything runs.

    >>> get_executor("local", jobs=2)
    Executor(name='local', jobs=2, address=None)
    """
    if name not in EXECUTORS:
        raise ExecutorError(f"no executor {name!r}; executors: {', '.join(EXECUTORS)}")
    if jobs is not None and jobs < 1:
        raise ExecutorError(f"jobs must be at least 1; got {jobs}")
    if name == "local" and address is not None:
        raise ExecutorError("--address is for a ray or dask cluster; the local executor has none")
    if name != "local":
        _extra(name)
    return Executor(name, jobs, address)


def _extra(name: str) -> Any:
    """The module an executor needs (ray, or distributed for dask), or a clear error naming the extra."""
    try:
        return importlib.import_module("distributed" if name == "dask" else name)
    except ImportError as error:
        raise ExecutorError(f"--executor {name} needs the {name} extra: pip install 'laro[{name}]' ({error})") from None


def chunked(indices: Sequence[int], size: int) -> list[list[int]]:
    """``indices`` cut into consecutive chunks of at most ``size``.

    >>> chunked([0, 1, 2, 3, 4], 2)
    [[0, 1], [2, 3], [4]]
    """
    return [list(indices[start : start + size]) for start in range(0, len(indices), size)]


def _chunk_size(count: int, workers: int) -> int:
    """Enough work per message to keep the overhead small, small enough that results (and the progress bar)
    come steadily: about 16 chunks per worker, at most 32 indices each."""
    return max(1, min(32, count // (workers * 16)))


def _run_chunk(function: Callable[[int], T], indices: list[int]) -> list[T]:
    return [function(index) for index in indices]


_ENDING = (signal.SIGTERM, signal.SIGHUP)


def _worker_signals() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops the pool), and the pool's SIGTERM just ends the
    worker, whatever handlers the parent had when it forked. The worker starts with SIGTERM and SIGHUP blocked
    (see ``run_local``), so one sent before this point waits for the default handler instead of reaching the
    parent's (or being lost while the handlers change), and ends the worker now."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in _ENDING:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _ENDING)


def run_local(function: Callable[[int], T], indices: Sequence[int], jobs: int | None = None) -> Iterator[T]:
    """Run on ``jobs`` local processes (default: one per CPU); ``jobs=1`` runs in this process, without a pool.

    >>> list(run_local(abs, [-1, -2], jobs=1))
    [1, 2]
    """
    workers = min(jobs or os.cpu_count() or 1, max(1, len(indices)))
    if workers == 1:
        yield from map(function, indices)
        return
    # The workers are forked with SIGTERM blocked (see _worker_signals): a pool ended while a worker was still
    # starting would otherwise wait for ever on a worker that never saw its SIGTERM.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _ENDING)
    try:
        pool = multiprocessing.get_context().Pool(workers, initializer=_worker_signals)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    with pool:
        yield from pool.imap(function, indices, chunksize=_chunk_size(len(indices), workers))
        pool.close()  # every result is in: the workers end on their own
        pool.join()


def run_ray(
    function: Callable[[int], T], indices: Sequence[int], jobs: int | None = None, address: str | None = None
) -> Iterator[T]:
    """Run as Ray tasks, on the cluster at ``address`` or on a local Ray instance with ``jobs`` CPUs; results
    are yielded in index order."""
    ray = _extra("ray")
    started = not ray.is_initialized()
    if started and address:
        try:
            ray.init(address=address, log_to_driver=False)
        except (OSError, RuntimeError, SystemExit) as error:  # Ray exits when it gives up on a cluster
            raise ExecutorError(f"cannot reach the Ray cluster at {address}: {error!r}") from None
    elif started:
        ray.init(num_cpus=jobs or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False)
    try:
        workers = int(ray.cluster_resources().get("CPU", 1))
        remote_chunk = ray.remote(_run_chunk)
        shared = ray.put(function)
        pending = [remote_chunk.remote(shared, chunk) for chunk in chunked(indices, _chunk_size(len(indices), workers))]
        for reference in pending:
            yield from ray.get(reference)
    finally:
        if started:
            ray.shutdown()


def run_dask(
    function: Callable[[int], T], indices: Sequence[int], jobs: int | None = None, address: str | None = None
) -> Iterator[T]:
    """Run on the Dask cluster at ``address``, or on a local cluster of ``jobs`` single-threaded worker
    processes; results are yielded in index order (held back until the ones before them are done)."""
    distributed = _extra("dask")
    cluster = None
    if address:
        try:
            client = distributed.Client(address)
        except (OSError, TimeoutError) as error:
            raise ExecutorError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    else:
        workers = jobs or os.cpu_count() or 1
        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
        )
        client = distributed.Client(cluster)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        chunks = chunked(indices, _chunk_size(len(indices), workers))
        futures = client.map(_run_chunk, [function] * len(chunks), chunks, pure=False)
        position = {future.key: number for number, future in enumerate(futures)}
        done: dict[int, list[T]] = {}
        following = 0
        for future in distributed.as_completed(futures):
            done[position[future.key]] = future.result()
            while following in done:
                yield from done.pop(following)
                following += 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
