"""Request headers are bounded, whatever the HTTP parser: a header block over 16 KiB or 100 lines is answered
431 and its connection closed, on the real ``laro serve`` (uvicorn with httptools, which has no bound of its own).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tests.server.attack_support import DEADLINE
from tests.server.server_process import ServerProcess

CHUNK = 65536


def _status(port: int, head: bytes, filler: int = 0) -> tuple[int, float]:
    """Send ``head`` then ``filler`` bytes more of one header's value, then end the headers; the answer's status
    (0: no answer) and the seconds it took."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=DEADLINE) as sock:
        try:
            sock.sendall(head)
            if filler:
                sock.sendall(b"X-Filler: ")
                for _ in range(filler // CHUNK):
                    sock.sendall(b"a" * CHUNK)
                sock.sendall(b"\r\n")
            sock.sendall(b"\r\n")
        except OSError:
            pass  # the server stopped reading: its answer is waiting
        answer = b""
        try:
            while b"\r\n" not in answer:
                piece = sock.recv(4096)
                if not piece:
                    break
                answer += piece
        except OSError:
            pass
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    return status, time.monotonic() - started


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_huge_headers_are_refused_431(hostile: Callable[..., ServerProcess]) -> None:
    """Sixteen connections at once each send a request whose headers run to 4 MiB: each is answered 431 (before:
    200, the server growing by the whole of them), and the server's memory grows by less than 64 MiB. So is a
    request of more than 100 header lines."""
    server = hostile()
    assert server.process is not None
    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\n"
    assert _status(server.port, head)[0] == 200
    before = _rss_mib(server.process.pid)
    results: list[tuple[int, float]] = []
    threads = [
        threading.Thread(target=lambda: results.append(_status(server.port, head, filler=4 << 20))) for _ in range(16)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE * 2)
    grown = _rss_mib(server.process.pid) - before
    assert [status for status, _ in results] == [431] * 16, results
    assert grown < 64, f"the server grew by {grown:.0f} MiB"
    assert _status(server.port, head)[0] == 200  # and it serves on
    # 101 small header lines: 431; 100 are taken (a WebSocket's upgrade request has about a dozen)
    lines = b"".join(b"X-%d: 1\r\n" % n for n in range(99))
    assert _status(server.port, head + lines)[0] == 200
    assert _status(server.port, head + lines + b"X-Last: 1\r\n")[0] == 431
