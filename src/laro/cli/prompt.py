"""The one place the command line reads what a person types, so tests can feed it through stdin.

At a terminal the line can be edited (arrow keys, Home/End, Ctrl-A/E…) and the up arrow brings back what was
typed before at the game's prompts; answers to yes/no questions are not kept in that history.

>>> from io import StringIO
>>> from rich.console import Console
>>> import sys
>>> console = Console(file=StringIO())
>>> sys.stdin, saved = StringIO("play 3\\n"), sys.stdin
>>> ask(console, "Your move: ")
'play 3'
>>> sys.stdin = saved
"""

from __future__ import annotations

import re
import select
import signal
import sys
import time
from types import ModuleType

from rich.console import Console

__all__ = ["InputClosed", "TimeUp", "ask", "pause"]

_ESCAPES = re.compile(r"(\x1b\[[0-9;]*m)")


class InputClosed(Exception):
    """Standard input reached its end: nobody can answer any more."""


class TimeUp(Exception):
    """Nothing was typed before the clock ran out."""


def _line_editing() -> ModuleType | None:
    """The readline module when both ends are a terminal (it edits lines and keeps their history), else None."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    try:
        import readline
    except ImportError:  # a Python built without it: plain input still works
        return None
    return readline


def ask(console: Console, prompt: str, remember: bool = True, timeout: float | None = None) -> str:
    """Show ``prompt`` (rich markup allowed) and return the line typed, without its newline; at a terminal with
    line editing, and kept in the history of entries unless ``remember`` is false.

    Raises :class:`InputClosed` at the end of input and :class:`TimeUp` when nothing was typed within
    ``timeout`` seconds; ``KeyboardInterrupt`` (Ctrl-C) passes through.
    """
    if timeout is not None:
        return _ask_in_time(console, prompt, remember, timeout)
    readline = _line_editing()
    try:
        if readline is None:
            return console.input(prompt)
        with console.capture() as capture:
            console.print(prompt, end="")
        # readline must know which characters of the prompt take no room on the line (the colours)
        answer = input(_ESCAPES.sub("\x01\\1\x02", capture.get()))
    except EOFError:
        console.print()
        raise InputClosed from None
    if not remember and answer.strip() and readline.get_current_history_length():
        readline.remove_history_item(readline.get_current_history_length() - 1)
    return answer


def _ask_in_time(console: Console, prompt: str, remember: bool, timeout: float) -> str:
    if not sys.stdin.isatty():  # a pipe or a file: wait for a whole line, as long as the clock allows
        console.print(prompt, end="")
        ready, _, _ = select.select([sys.stdin], [], [], max(0.0, timeout))
        if not ready:
            console.print()
            raise TimeUp
        line = sys.stdin.readline()
        if not line:
            console.print()
            raise InputClosed
        return line.rstrip("\n")

    def ring(signum: int, frame: object) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(0.001, timeout))
    try:
        return ask(console, prompt, remember)
    except TimeUp:
        console.print()
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def pause(seconds: float) -> bool:
    """Wait ``seconds``; at a terminal, stop waiting when the person presses Enter and return ``True``."""
    if not sys.stdin.isatty():
        time.sleep(seconds)
        return False
    ready, _, _ = select.select([sys.stdin], [], [], seconds)
    if ready:
        sys.stdin.readline()
        return True
    return False
