"""Kamara's chamber as text: the 9-by-9 board with its walls, the tiles still to place, and yellow card codes.

Each square is three characters wide so that the lines between squares fit: thick lines (walls) are heavy box
strokes, the seams between tiles are thin ones, and the yellow border is a heavy yellow frame. Inside a square:
``·`` floor, ``███`` a block, ``○`` a light and ``●`` a dark paltik, ``◇`` a tapos, an arrow the logo (the way
its up arrow points), a capital letter a diwa (:data:`DIWA_LETTERS`).

>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(2, seed=1)
>>> lines = board_text(layout_of(state), {}, {}).plain.splitlines()
>>> lines[1], lines[10]
('  ┏━━━━━━━━━━━┯━━━━━━━━━━━┯━━━━━━━━━━━┓', '5 ┃     W     │     C     │     E     ┃ 5')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from laro.cli.fit import lines_of_pieces
from laro.games.kamara import COLOURS, KamaraState
from laro.games.kamara.chamber import CENTRE, FILES, POSITION_SLOT, SLOTS, placed_square
from laro.games.kamara.components import POSITIONS, Tile

__all__ = [
    "ARROWS",
    "DIWA_LETTERS",
    "DIWA_STYLES",
    "BesideOrBelow",
    "Flow",
    "Layout",
    "board_text",
    "card_grid",
    "chamber_grid",
    "code_picture",
    "diwa_tag",
    "layout_of",
    "legend_text",
    "pool_picture",
    "relative_light",
    "short_legend_text",
    "side_by_side",
    "tile_faces",
    "tiles_layout",
]

# Every box-drawing stroke joining four arms (up, right, down, left), each none 0 / light 1 / heavy 2.
_JUNCTION = " ╴╸╷┐┑╻┒┓╶─╾┌┬┭┎┰┱╺╼━┍┮┯┏┲┳╵┘┙│┤┥╽┧┪└┴┵├┼┽┟╁╅┕┶┷┝┾┿┢╆╈╹┚┛╿┦┩┃┨┫┖┸┹┞╀╃┠╂╉┗┺┻┡╄╇┣╊╋"
NONE, SEAM, WALL, BORDER = 0, 1, 2, 3
_WEIGHT = (0, 1, 2, 2)
_LINE_STYLE = ("", "grey50", "bold", "bold yellow")
_H = ("", "─", "━", "━")  # horizontal stroke by kind
_V = (" ", "│", "┃", "┃")  # vertical stroke by kind

ARROWS = "↑→↓←"  # the logo's up arrow, by the centre tile's quarter turns clockwise
DIWA_LETTERS = dict(zip(COLOURS, "RBOPKWXT", strict=True))  # pinK, blacK is X, Teal
DIWA_STYLES = {
    "red": "bold bright_white on red3",
    "blue": "bold bright_white on blue3",
    "orange": "bold black on dark_orange",
    "purple": "bold bright_white on purple4",
    "pink": "bold black on hot_pink",
    "white": "bold black on grey93",
    "black": "bold bright_white on grey11",
    "teal": "bold black on dark_cyan",
}
BLOCK_STYLE = "color(94)"  # dark brown
FLOOR_STYLE = "grey42"
TAPOS_STYLE = "bold cyan"
LOGO_STYLE = "bold yellow"
PALTIK_STYLE = {True: "bold bright_white", False: "bold grey62"}
PALTIK_MARK = {True: "○", False: "●"}  # light, dark


def diwa_tag(colour: str | None) -> Text:
    """A diwa as a coloured chip with its letter (``R`` red … ``T`` teal); ``·`` for no colour yet."""
    if colour is None:
        return Text(" · ", style="dim")
    return Text(f" {DIWA_LETTERS[colour]} ", style=DIWA_STYLES[colour])


@dataclass(frozen=True, slots=True)
class Layout:
    """What the chamber shows, placed tiles only: everything a player at the table can see of the tiles."""

    walls: frozenset[tuple[int, int]]  # half-edges (square, orthogonal direction index) with a thick line
    blocked: frozenset[int]
    paltik: Mapping[int, bool]  # square -> shows light
    tapos: frozenset[int]
    logo: int | None  # the logo's square, once the centre tile is placed
    logo_turns: int  # quarter turns clockwise of the centre tile (where the logo's up arrow points)
    placed: tuple[bool, ...]  # per slot
    light: Mapping[int, bool]  # per placed corner or edge slot: its paltik shows light


def _faces(state: KamaraState) -> tuple[dict[int, bool], int | None, int, tuple[bool, ...]]:
    """What every layout needs: the paltik state per placed slot, the logo's square and turns, which slots hold a
    tile."""
    tiles = state.components.tiles
    light = {
        slot: tiles[p[0]].faces[p[1]].paltik == "light"
        for slot, p in enumerate(state.tiles)
        if p is not None and tiles[p[0]].kind != "centre"
    }
    centre = state.tiles[CENTRE]
    logo_cell = None if centre is None else tiles[centre[0]].logo
    turns = 0 if centre is None else centre[2]
    logo = None if logo_cell is None else placed_square(CENTRE, logo_cell, turns)
    return light, logo, turns, tuple(p is not None for p in state.tiles)


def layout_of(state: KamaraState) -> Layout:
    """The tiles of ``state`` as drawn: from the chamber's geometry once it is complete, else tile by tile."""
    light, logo, turns, placed = _faces(state)
    if not all(placed):
        return tiles_layout(state)
    geometry = state.geometry
    return Layout(
        walls=geometry.walls,
        blocked=frozenset(sq for sq in range(81) if (geometry.blocked >> sq) & 1),
        paltik={sq: light[slot] for sq, slot in enumerate(geometry.paltik_slot) if slot >= 0},
        tapos=frozenset(geometry.tapos),
        logo=logo,
        logo_turns=turns,
        placed=placed,
        light=light,
    )


def tiles_layout(state: KamaraState) -> Layout:
    """The same as :func:`layout_of`, worked out tile by tile, so that it works while the chamber is being built."""
    tiles = state.components.tiles
    light, logo, turns, placed = _faces(state)
    walls: set[tuple[int, int]] = set()
    blocked: set[int] = set()
    paltik: dict[int, bool] = {}
    tapos: set[int] = set()
    for slot, p in enumerate(state.tiles):
        if p is None:
            continue
        tile, face, rotation = tiles[p[0]], p[1], p[2]
        blocked |= {placed_square(slot, cell, rotation) for cell in tile.blocks}
        tapos |= {placed_square(slot, cell, rotation) for cell in tile.tapos}
        if tile.paltik is not None:
            paltik[placed_square(slot, tile.paltik, rotation)] = light[slot]
        for cell, direction in tile.faces[face].walls:
            square = placed_square(slot, cell, rotation)
            turned = (direction + 2 * rotation) % 8
            walls.add((square, turned))
            neighbour = _neighbour(square, turned)
            if neighbour is not None:
                walls.add((neighbour, (turned + 4) % 8))
    return Layout(frozenset(walls), frozenset(blocked), paltik, frozenset(tapos), logo, turns, placed, light)


def _neighbour(square: int, direction: int) -> int | None:
    row, col = divmod(square, 9)
    row += {0: -1, 4: 1}.get(direction, 0)
    col += {2: 1, 6: -1}.get(direction, 0)
    return row * 9 + col if 0 <= row < 9 and 0 <= col < 9 else None


# -- drawing a grid of squares with lines between them ---------------------------------------------------------

Cell = list[tuple[str, str]]  # (text, style) pieces, as wide as a square


def _grid(
    rows: int,
    cols: int,
    width: int,
    vertical: Callable[[int, int], int],
    horizontal: Callable[[int, int], int],
    cell: Callable[[int, int], Cell],
) -> list[Text]:
    """Lines of a grid: ``vertical(r, c)`` is the line west of square (r, c) (c up to ``cols``), ``horizontal(r, c)``
    the line north of it (r up to ``rows``); each a kind NONE, SEAM, WALL or BORDER."""
    lines = []
    for r in range(rows + 1):
        line = Text()
        for c in range(cols + 1):
            arms = (
                vertical(r - 1, c) if r > 0 else NONE,
                horizontal(r, c) if c < cols else NONE,
                vertical(r, c) if r < rows else NONE,
                horizontal(r, c - 1) if c > 0 else NONE,
            )
            strokes = [_WEIGHT[arm] for arm in arms]
            char = _JUNCTION[strokes[0] * 27 + strokes[1] * 9 + strokes[2] * 3 + strokes[3]]
            line.append(char, style=_LINE_STYLE[max(arms)])
            if c < cols:
                kind = horizontal(r, c)
                line.append((_H[kind] or " ") * width, style=_LINE_STYLE[kind])
        lines.append(line)
        if r == rows:
            break
        line = Text()
        for c in range(cols + 1):
            kind = vertical(r, c)
            line.append(_V[kind], style=_LINE_STYLE[kind])
            if c < cols:
                for text, style in cell(r, c):
                    line.append(text, style=style)
        lines.append(line)
    return lines


# -- the chamber -----------------------------------------------------------------------------------------------


def board_text(
    layout: Layout,
    diwa: Mapping[int, str],
    locks: Mapping[int, str | None],
    marked: frozenset[int] = frozenset(),
    compact: bool = False,
) -> Text:
    """The chamber with coordinates. ``diwa``: square -> colour; ``locks``: locked slot -> the locker's colour;
    ``marked``: squares to point out (underlined), such as the viewer's own diwa. ``compact`` draws each square
    one character wide (for small terminals): a diwa's letter then hides the mark under it."""

    def boundary(r: int, c: int, index: int, direction: int) -> int:
        """The line on the ``direction`` side (6: west, 0: north) of square (r, c); ``index`` counts across it."""
        if index in (0, 9):
            return BORDER
        if (r * 9 + c, direction) in layout.walls:
            return WALL
        return NONE if index % 3 else SEAM

    def vertical(r: int, c: int) -> int:
        return boundary(r, c, c, 6)

    def horizontal(r: int, c: int) -> int:
        return boundary(r, c, r, 0)

    def cell(r: int, c: int) -> Cell:
        square = r * 9 + c
        slot = (r // 3) * 3 + c // 3
        if not layout.placed[slot]:  # named in the middle (drawn over the whole row when compact)
            middle = r % 3 == 1 and c % 3 == 1 and not compact
            return [(f"{SLOTS[slot]:^3}" if middle else " " * (1 if compact else 3), "dim italic")]
        if square in layout.blocked:
            return [("█" if compact else "███", BLOCK_STYLE)]
        if square == layout.logo:
            mark, style = ARROWS[layout.logo_turns], LOGO_STYLE
        elif square in layout.paltik:
            mark, style = PALTIK_MARK[layout.paltik[square]], PALTIK_STYLE[layout.paltik[square]]
        elif square in layout.tapos:
            mark, style = "◇", TAPOS_STYLE
        elif slot in locks:
            colour = locks[slot]
            mark, style = "░", "bold " + (DIWA_STYLES[colour].split(" on ")[1] if colour else "white")
        else:
            mark, style = "·", FLOOR_STYLE
        colour = diwa.get(square)
        if compact:
            if colour is None:
                return [("█" if mark == "███" else mark, style)]
            return [(DIWA_LETTERS[colour], DIWA_STYLES[colour] + (" underline" if square in marked else ""))]
        if colour is None:
            return [(f" {mark} ", style)]
        chip = DIWA_STYLES[colour] + (" underline" if square in marked else "")
        side = " " if mark in "·░" else mark
        return [(side, style), (DIWA_LETTERS[colour], chip), (side, style)]

    grid = _grid(9, 9, 1 if compact else 3, vertical, horizontal, cell)
    if compact:
        _name_empty_slots(grid, layout.placed)
    files = Text("  " + "".join((f" {f}" if compact else f"  {f} ") for f in FILES), style="dim")
    out = Text()
    out.append_text(files)
    for number, line in enumerate(grid):
        out.append("\n")
        rank = f"{9 - number // 2}" if number % 2 else " "
        out.append(f"{rank} ", style="dim")
        out.append_text(line)
        out.append(f" {rank}" if number % 2 else "", style="dim")
    out.append("\n")
    out.append_text(files)
    return out


def _name_empty_slots(grid: list[Text], placed: Sequence[bool]) -> None:
    """Write each empty slot's whole name (the one a player types: NW, N, …) across its middle row of a compact
    grid, where a square is one character wide and a slot's row five (three squares and the two lines between)."""
    for slot, name in enumerate(SLOTS):
        if placed[slot]:
            continue
        row = 2 * (3 * (slot // 3) + 1) + 1  # the grid's lines alternate: a line of strokes, a line of squares
        start = 1 + 2 * 3 * (slot % 3)
        line = grid[row]
        grid[row] = line[:start] + Text(f"{name:^5}", style="dim italic") + line[start + 5 :]


def legend_text(colours: bool = True) -> Text:
    """The key to the board's symbols and (with ``colours``) the diwa letters."""
    text = Text()
    text.append("○", style=PALTIK_STYLE[True])
    text.append(" light paltik  ")
    text.append("●", style=PALTIK_STYLE[False])
    text.append(" dark paltik  ")
    text.append("◇", style=TAPOS_STYLE)
    text.append(" tapos  ")
    text.append("↑", style=LOGO_STYLE)
    text.append(" logo (its up arrow)  ")
    text.append("██", style=BLOCK_STYLE)
    text.append(" block\n")
    text.append("━┃", style="bold")
    text.append(" wall  ")
    text.append("─│", style="grey50")
    text.append(" seam between tiles  ")
    text.append("━━", style="bold yellow")
    text.append(" border  ")
    text.append("░", style="bold")
    text.append(" locked tile")
    if colours:
        text.append("\n")
    for colour in COLOURS if colours else ():
        text.append_text(diwa_tag(colour))
        text.append(f"{colour} ")
    return text


def short_legend_text(colours: bool = True) -> Text:
    """The key to the compact board, in one line (two with the diwa letters)."""
    text = Text()
    for mark, style, what in (
        ("○", PALTIK_STYLE[True], "light  "),
        ("●", PALTIK_STYLE[False], "dark  "),
        ("◇", TAPOS_STYLE, "tapos  "),
        ("↑", LOGO_STYLE, "logo  "),
        ("█", BLOCK_STYLE, "block  "),
        ("┃", "bold", "wall"),
    ):
        text.append(mark, style=style)
        text.append(f" {what}")
    if colours:
        text.append("\n" + " ".join(f"{letter} {colour}" for colour, letter in DIWA_LETTERS.items()))
    return text


# -- tiles in the pool -----------------------------------------------------------------------------------------


def tile_faces(tile: Tile) -> list[Text]:
    """Both faces of ``tile`` side by side, one character per square, as it lies in the NW (corner), N (edge)
    or C (centre, logo up) slot."""
    faces = [_face_lines(tile, face) for face in (0, 1)]
    return [a + Text(" ") + b for a, b in zip(*faces, strict=True)]


def _face_lines(tile: Tile, face: int) -> list[Text]:
    walls = tile.faces[face].walls
    border = {"corner": (0, 6), "edge": (0,), "centre": ()}[tile.kind]

    def side(cell: int, direction: int, outer: bool) -> int:
        if (cell, direction) in walls:
            return WALL
        if outer:
            return BORDER if direction in border else SEAM
        return NONE

    def vertical(r: int, c: int) -> int:
        if c == 3:
            return side(r * 3 + 2, 2, True)
        return side(r * 3 + c, 6, c == 0)

    def horizontal(r: int, c: int) -> int:
        if r == 3:
            return side(6 + c, 4, True)
        return side(r * 3 + c, 0, r == 0)

    def cell(r: int, c: int) -> Cell:
        index = r * 3 + c
        if index in tile.blocks:
            return [("█", BLOCK_STYLE)]
        if index == tile.logo:
            return [("↑", LOGO_STYLE)]
        if index == tile.paltik:
            light = tile.faces[face].paltik == "light"
            return [(PALTIK_MARK[light], PALTIK_STYLE[light])]
        if index in tile.tapos:
            return [("◇", TAPOS_STYLE)]
        return [("·", FLOOR_STYLE)]

    return _grid(3, 3, 1, vertical, horizontal, cell)


# -- yellow cards ----------------------------------------------------------------------------------------------

# Where each card position (N NE E SE S SW W NW) sits in a 3-by-3 picture, as (row, column).
_PLACE = {0: (0, 1), 1: (0, 2), 2: (1, 2), 3: (2, 2), 4: (2, 1), 5: (2, 0), 6: (1, 0), 7: (0, 0)}


def card_grid(code: Mapping[str, str], relative: Mapping[int, bool | None] | None = None) -> list[Text]:
    """A yellow card as printed: 3 by 3, with the logo's up arrow in the middle and ``L``/``D`` (light/dark) at the
    positions shown. With ``relative`` (card position -> the paltik there shows light, or None) each shown
    position gets ``✓`` when the chamber agrees and ``✗`` when not."""
    cells: dict[tuple[int, int], Text] = {(1, 1): Text(" ↑ ", style=LOGO_STYLE)}
    for name, state in code.items():
        position = POSITIONS.index(name)
        cells[_PLACE[position]] = _code_cell(state == "light", None if relative is None else relative[position])
    return _three_by_three(cells)


def chamber_grid(code: Mapping[str, str], layout: Layout) -> list[Text]:
    """The same code turned onto the chamber: each slot with the state the card asks of it, ``✓``/``✗`` whether it
    shows it now; the logo's arrow in the middle as on the board."""
    cells: dict[tuple[int, int], Text] = {(1, 1): Text(f" {ARROWS[layout.logo_turns]} ", style=LOGO_STYLE)}
    for name, state in code.items():
        slot = _slot_of(POSITIONS.index(name), layout)
        cells[divmod(slot, 3)] = _code_cell(state == "light", layout.light.get(slot))
    return _three_by_three(cells)


def _slot_of(position: int, layout: Layout) -> int:
    """The slot that card ``position`` names, read from the logo's arrow."""
    return POSITION_SLOT[(position + 2 * layout.logo_turns) % 8]


def relative_light(layout: Layout) -> dict[int, bool | None]:
    """Per card position: whether the paltik of the slot it names shows light (None: no tile there yet)."""
    return {p: layout.light.get(_slot_of(p, layout)) for p in range(8)}


_SHOWN = "The chamber shows it: stand on a tapos and match!"


def code_picture(title: str, code: Mapping[str, str], layout: Layout, compact: bool = False) -> list[Text]:
    """A yellow card as printed and, once the logo lies in the chamber, turned onto the chamber with ``✓``/``✗``
    for what it shows now and which tiles to flip. ``compact`` names both pictures in the title line and says
    what to flip beside them."""
    if layout.logo is None:
        note = "as printed (↑: the logo's arrow)"
        if compact:
            return [Text.assemble((title, "bold"), (f" {note}", "dim")), *card_grid(code)]
        return [Text(title, style="bold"), Text(f"{note}:", style="dim"), *card_grid(code)]
    relative = relative_light(layout)
    turned = f"on the chamber ({ARROWS[layout.logo_turns]})"
    pictures = [card_grid(code, relative), chamber_grid(code, layout)]
    wrong = [
        f"{SLOTS[_slot_of(POSITIONS.index(name), layout)]} → {wanted}"
        for name, wanted in code.items()
        if relative[POSITIONS.index(name)] is not None and relative[POSITIONS.index(name)] != (wanted == "light")
    ]
    advice: list[Text] = []  # in pieces that stay whole on a line: a flip, a word
    if wrong:
        advice = [
            Text("To match, flip:"),
            *(Text(flip + ("," if n < len(wrong) - 1 else "")) for n, flip in enumerate(wrong)),
        ]
    elif all(layout.placed):
        advice = [Text(word, style="bold green") for word in _SHOWN.split()]
    if compact:  # what to flip beside the pictures, a flip never broken across two lines
        title_line = Text.assemble((title, "bold"), (f", printed · {turned}", "dim"))
        beside = lines_of_pieces([(1, piece) for piece in advice], 28)
        return [title_line, *side_by_side([*pictures, beside], 4)]
    printed = [Text("as printed", style="dim"), *pictures[0]]
    lines = [Text(title, style="bold"), *side_by_side([printed, [Text(turned, style="dim"), *pictures[1]]], 4)]
    return [*lines, Text(" ").join(advice)] if advice else lines


def _code_cell(light: bool, shows_light: bool | None) -> Text:
    cell = Text(" L" if light else " D", style=PALTIK_STYLE[light])
    if shows_light is None:
        cell.append(" ")
    elif shows_light == light:
        cell.append("✓", style="green")
    else:
        cell.append("✗", style="bold red")
    return cell


def _three_by_three(cells: Mapping[tuple[int, int], Text]) -> list[Text]:
    lines = []
    for r in range(3):
        line = Text()
        for c in range(3):
            line.append_text(cells.get((r, c), Text(" · ", style="dim")))
        lines.append(line)
    return lines


# -- putting pictures together ---------------------------------------------------------------------------------


def side_by_side(blocks: Sequence[Sequence[Text]], gap: int = 3) -> list[Text]:
    """Several blocks of lines next to each other (each padded to its widest line)."""
    height = max((len(block) for block in blocks), default=0)
    widths = [max((line.cell_len for line in block), default=0) for block in blocks]
    lines = []
    for row in range(height):
        line = Text()
        for number, block in enumerate(blocks):
            part = block[row].copy() if row < len(block) else Text()
            part.pad_right(widths[number] - part.cell_len)
            if number:
                line.append(" " * gap)
            line.append_text(part)
        line.rstrip()
        lines.append(line)
    return lines


class Flow:
    """Blocks of lines laid out left to right, as many in a row as the terminal's width allows: ``gap`` columns
    apart, or closer when that saves a row."""

    def __init__(self, title: Text, blocks: Sequence[Sequence[Text]], gap: int = 3) -> None:
        self.title, self.blocks, self.gap = title, blocks, gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.title
        widest = max((line.cell_len for block in self.blocks for line in block), default=1)

        def per_row(gap: int) -> int:
            return max(1, (options.max_width + gap) // (widest + gap))

        def rows(gap: int) -> int:
            return -(-len(self.blocks) // per_row(gap))

        gap = max((g for g in range(1, self.gap + 1) if rows(g) == rows(1)), default=self.gap)
        count = per_row(gap)
        for start in range(0, len(self.blocks), count):
            yield from side_by_side(self.blocks[start : start + count], gap)


def pool_picture(tiles: Sequence[Tile]) -> Flow:
    """The tiles still to place, each with both faces."""
    blocks = [
        [Text(f"{tile.id} ({tile.kind})", style="bold"), Text("   A       B", style="dim"), *tile_faces(tile)]
        for tile in tiles
    ]
    return Flow(Text("Tiles to place (as they lie in NW, N or C; turned to face out elsewhere):"), blocks)


class BesideOrBelow:
    """A picture with a panel on its right (``gap`` columns apart) when the terminal is wide enough, else below."""

    def __init__(self, picture: Text, panel: RenderableType, panel_width: int = 44, gap: int = 3) -> None:
        self.picture, self.panel, self.panel_width, self.gap = picture, panel, panel_width, gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(line.cell_len for line in self.picture.split())
        if options.max_width >= width + self.gap + self.panel_width:
            grid = Table.grid(padding=(0, self.gap))
            grid.add_column(no_wrap=True, width=width)
            grid.add_column()
            grid.add_row(self.picture, self.panel)
            yield grid
        else:
            yield self.picture
            yield self.panel
