"""Pictures that fit the terminal they find: a full layout when there is room for it, a compact one otherwise,
and a line saying how big a terminal the full one needs.

>>> import io
>>> from rich.console import Console
>>> from rich.text import Text
>>> picture = Fitted(Text("full"), Text("small"), Size(100, 40))
>>> for width in (120, 80):
...     console = Console(file=io.StringIO(), width=width)
...     console.print(picture)
...     console.file.getvalue().strip()
'full'
'small'
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text

__all__ = ["Fitted", "Size", "SizeNote", "is_small"]


@dataclass(frozen=True, slots=True)
class Size:
    """A terminal size in characters: columns by lines."""

    columns: int
    lines: int

    def __str__(self) -> str:
        return f"{self.columns}×{self.lines}"


def is_small(console: Console, width: int, needed: Size) -> bool:
    """Whether ``width`` columns (and, at a real terminal, its height) are less than ``needed``. A console that
    is not a terminal (a file, a test) has no height worth counting."""
    return width < needed.columns or (console.is_terminal and console.size.height < needed.lines)


class Fitted:
    """``full`` when the terminal is at least ``needed``, else ``compact``."""

    def __init__(self, full: RenderableType, compact: RenderableType, needed: Size) -> None:
        self.full, self.compact, self.needed = full, compact, needed

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.compact if is_small(console, options.max_width, self.needed) else self.full


class SizeNote:
    """One dim line, on a terminal smaller than ``needed`` only: its size, and the size the full picture needs."""

    def __init__(self, what: str, needed: Size) -> None:
        self.what, self.needed = what, needed

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if is_small(console, options.max_width, self.needed):
            here = Size(options.max_width, console.size.height) if console.is_terminal else None
            size = f"This terminal is {here}: " if here else "This terminal is small: "
            yield Text(
                f"{size}{self.what} is drawn compactly. At {self.needed} or more it is drawn in full.", style="dim"
            )
