"""The one way the tests wait for something that happens elsewhere (a server, a process, a store): ``until``.

It asks again and again, with a deadline, and fails saying what never happened — no test waits without one.

>>> calls = iter([None, 0, "ready"])
>>> until(lambda: next(calls), "the answer", timeout=5, every=0)
'ready'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

__all__ = ["until"]

T = TypeVar("T")


def until(check: Callable[[], T], what: str | Callable[[], str], timeout: float = 20.0, every: float = 0.02) -> T:
    """Call ``check`` every ``every`` seconds until it gives something true, and return that; if ``timeout``
    seconds pass first, an AssertionError says ``what`` did not happen (``what()`` if it is a function, to tell
    what was seen last). ``check`` may fail the test itself."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what() if callable(what) else what} (waited {timeout} s)")
        time.sleep(every)
