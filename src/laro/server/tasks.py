"""Background tasks whose end is always looked at: none may end with an error nobody retrieves.

asyncio reports a task that failed and was never awaited only when it is collected, as "Task exception was never
retrieved", long after and far from its cause. A task started by :func:`spawn` has its outcome read as soon as it
ends: cancelled or finished is quiet, and an error is logged at once, with the task's name and its traceback (a
fault of the server's, to be fixed: a client that misbehaves never causes one).

>>> import asyncio
>>> async def main() -> bool:
...     task = spawn(asyncio.sleep(0), "nap")
...     await task
...     return task.done()
>>> asyncio.run(main())
True
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["cancel_and_wait", "spawn"]

log = logging.getLogger("laro.server")
T = TypeVar("T")


def spawn(coroutine: Coroutine[Any, Any, T], name: str) -> asyncio.Task[T]:
    """``coroutine`` as a task of the running loop, its outcome read the moment it ends."""
    task = asyncio.get_running_loop().create_task(coroutine, name=name)
    task.add_done_callback(_looked_at)
    return task


async def cancel_and_wait(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (if any) and wait until it has ended."""
    if task is not None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def _looked_at(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("task %s failed: %r", task.get_name(), error, exc_info=error)
