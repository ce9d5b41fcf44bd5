"""The real server in a thread of the test process: ``laro serve`` itself — its options, its application and its
uvicorn set-up — run on the thread's own event loop, with no process of its own to start.

Starting a process costs seconds on a busy machine (Python and every library imported again, and a worker
process for the bots), so tests whose subject is HTTP and WebSocket behaviour use ``InProcessServer``; tests whose
subject is a process (a crash, a kill, several processes, the bots' worker processes, a process's limits) keep
:class:`tests.server.server_process.ServerProcess`. The two offer the same addresses and the same direct look at
the store (:class:`tests.server.server_process.Served`). Here the bots think in a thread of the server
(``--bot-workers 0``) and the connections per address are not limited (many servers of one test process count
their connections together); every other option is the tests' usual one.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from tests.server.server_process import START_TIMEOUT, STOP_TIMEOUT, Served, answers, free_port

from laro.cli.serve import serve

__all__ = ["InProcessServer"]

IN_PROCESS = ("--bot-workers=0", "--connections-per-address=100000")

_MADE: dict[int, uvicorn.Server] = {}  # the thread that made it -> the uvicorn server ``laro serve`` made there


@contextlib.contextmanager
def _remembering() -> Iterator[None]:
    """While it lasts, each uvicorn server made is remembered by the thread that made it (to stop it later)."""

    class Remembered(uvicorn.Server):
        def __init__(self, config: uvicorn.Config) -> None:
            super().__init__(config)
            _MADE[threading.get_ident()] = self

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(uvicorn, "Server", Remembered)
        yield


class InProcessServer(Served):
    """``laro serve`` in a thread of this process; ``start``, ``stop`` and ``start`` again on the same store."""

    def __init__(self, data_dir: Any, **settings: Any) -> None:
        super().__init__(data_dir, **settings)
        self.thread: threading.Thread | None = None
        self.failure: BaseException | None = None  # how the command ended, if it ended by itself

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def _serve(self) -> None:
        try:
            serve.main([*self.options(), *IN_PROCESS], prog_name="laro serve", standalone_mode=False)
        except BaseException as ended:  # SystemExit too: uvicorn exits when it cannot listen on its port
            self.failure = ended

    def start(self) -> None:
        """Start the server (on the same port and store as before) and wait until it answers."""
        assert not self.running, "the server is running already"
        for _ in range(3):
            self.failure = None
            self.thread = threading.Thread(target=self._serve, name=f"laro serve :{self.port}", daemon=True)
            with _remembering():
                self.thread.start()
                deadline = time.monotonic() + START_TIMEOUT
                while self.thread.is_alive() and time.monotonic() < deadline:
                    if answers(self.base):
                        return
                    time.sleep(0.01)
            self.stop()
            self.port = free_port()  # the port was taken in the meantime (or the server failed): try another
        pytest.fail(f"the in-process server did not start: {self.failure!r}")

    def stop(self) -> None:
        """What SIGTERM does to ``laro serve``: connections closed, the application shut down, the thread ended."""
        thread, self.thread = self.thread, None
        if thread is None:
            return
        made = _MADE.pop(thread.ident or 0, None)
        if made is not None:
            made.should_exit = True
            thread.join(STOP_TIMEOUT)
            made.force_exit = True
        thread.join(STOP_TIMEOUT)
        assert not thread.is_alive(), f"the in-process server on port {self.port} did not stop"

    def restart(self) -> None:
        self.stop()
        self.start()
