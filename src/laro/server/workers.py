"""``laro serve --workers N``: N server processes on one port, sharing one PostgreSQL store.

The parent binds the listening socket once and forks the workers, each of which accepts from it (the kernel hands
each new connection to one of them) and runs a whole server: its own event loop, hub and connections, sharing the
store with the others (:mod:`laro.server.cluster`). The parent only watches: a worker that dies (a crash, ``kill
-9``) is started again, while the others take its tables' leases over; SIGTERM or SIGINT to the parent is passed
on to every worker, which stops gracefully (its clients are told to reconnect, its leases handed over), and the
parent exits once they all have.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable

__all__ = ["bind", "run_workers"]

log = logging.getLogger("laro.server")

RESTARTS = 10  # a worker dying more often than this in RESTART_WINDOW seconds is not started again
RESTART_WINDOW = 60.0


def bind(host: str, port: int) -> socket.socket:
    """The listening socket the workers share (IPv6 if ``host`` is an IPv6 address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def run_workers(count: int, sock: socket.socket, serve: Callable[[socket.socket], None]) -> int:
    """Run ``serve(sock)`` in ``count`` forked processes until SIGTERM or SIGINT; the exit status (0: stopped)."""
    children: dict[int, int] = {}  # pid -> worker number
    deaths: list[float] = []
    stopping = False

    def start(number: int) -> None:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the worker
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            status = 0
            try:
                serve(sock)
            except BaseException:
                logging.getLogger("laro.server").exception("worker %d failed", number)
                status = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(status)
        children[pid] = number

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for number in range(count):
        start(number)
    status = 0
    while children:
        try:
            pid, code = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:  # pragma: no cover - a signal arrived (Python retries wait itself)
            continue
        number = children.pop(pid, -1)
        if number < 0 or stopping:
            continue
        now = time.monotonic()
        deaths[:] = [at for at in deaths if now - at < RESTART_WINDOW] + [now]
        log.warning("worker %d (process %d) ended (%s); starting it again", number, pid, _how(code))
        if len(deaths) > RESTARTS:
            log.error("workers keep dying (%d in %.0f s): stopping", len(deaths), RESTART_WINDOW)
            status = 1
            stop(signal.SIGTERM, None)
            continue
        start(number)
    sock.close()
    return status


def _how(code: int) -> str:
    if os.WIFSIGNALED(code):
        return f"signal {signal.Signals(os.WTERMSIG(code)).name}"
    return f"exit status {os.WEXITSTATUS(code)}"
