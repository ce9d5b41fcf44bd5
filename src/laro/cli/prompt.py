"""The one place the command line reads what a person types, so tests can feed it through stdin.

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

from rich.console import Console

__all__ = ["InputClosed", "ask"]


class InputClosed(Exception):
    """Standard input reached its end: nobody can answer any more."""


def ask(console: Console, prompt: str) -> str:
    """Show ``prompt`` (rich markup allowed) and return the line typed, without its newline.

    Raises :class:`InputClosed` at the end of input; ``KeyboardInterrupt`` (Ctrl-C) passes through.
    """
    try:
        return console.input(prompt)
    except EOFError:
        console.print()
        raise InputClosed from None
