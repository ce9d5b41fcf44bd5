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

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

__all__ = ["Fill", "Fitted", "Pieces", "Size", "SizeNote", "is_small", "lines_of_pieces"]


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


class Fill:
    """Parts one under the other, the optional ones (``True`` beside them) only while everything fits in
    ``lines`` — or, at a real terminal, in its height less ``reserve`` lines when that is more. The last optional
    part goes first.

    >>> import io
    >>> column = Fill([(Text("board"), False), (Text("key"), True), (Text("menu"), False)], lines=2)
    >>> console = Console(file=io.StringIO(), width=20)
    >>> console.print(column)
    >>> console.file.getvalue().split()
    ['board', 'menu']
    """

    def __init__(self, parts: Sequence[tuple[RenderableType, bool]], lines: int, reserve: int = 2) -> None:
        self.parts, self.lines, self.reserve = parts, lines, reserve

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        budget = max(self.lines, console.size.height - self.reserve) if console.is_terminal else self.lines
        rendered = [(console.render_lines(part, options, pad=False), optional) for part, optional in self.parts]
        shown = [True] * len(rendered)
        for index in reversed(range(len(rendered))):
            if sum(len(lines) for (lines, _), keep in zip(rendered, shown, strict=True) if keep) <= budget:
                break
            if rendered[index][1]:
                shown[index] = False
        for (lines, _), keep in zip(rendered, shown, strict=True):
            for line in lines if keep else ():
                yield from line
                yield Segment.line()


def lines_of_pieces(pieces: Sequence[tuple[int, Text]], width: int) -> list[Text]:
    """``pieces`` (each with the spaces to put before it on a line) in lines of at most ``width`` cells, none
    broken across two lines (a piece wider than a line has one of its own).

    >>> pieces = [(2, Text("1 N→e5")), (2, Text("2 NE→f5")), (2, Text("3 E→f4")), (2, Text("the")), (1, Text("end"))]
    >>> [line.plain for line in lines_of_pieces(pieces, 15)]
    ['1 N→e5  2 NE→f5', '3 E→f4  the end']
    """
    lines: list[Text] = []
    line = Text()
    for gap, piece in pieces:
        if line.plain and line.cell_len + gap + piece.cell_len > width:
            lines.append(line)
            line = Text()
        if line.plain:
            line.append(" " * gap)
        line.append_text(piece)
    return [*lines, line] if line.plain else lines


class Pieces:
    """Pieces of text (a menu's numbered choices, the words of a note), each with the spaces before it, in lines
    as wide as the room given, none broken across two lines."""

    def __init__(self, pieces: Sequence[tuple[int, Text]]) -> None:
        self.pieces = pieces

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from lines_of_pieces(self.pieces, options.max_width)
