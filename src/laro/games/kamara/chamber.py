"""The chamber's geometry: slots, squares, rotations, walls, and the steps a diwa may take.

Squares are numbered ``row * 9 + column`` with row 0 the north rank (9) and column 0 file ``a``; slots are
numbered ``NW N NE / W C E / SW S SE`` = 0..8. A tile in a slot is ``(tile number, face, rotation)`` with face
0 = A, 1 = B and rotation in quarter turns clockwise.

A chamber's geometry is put together from the nine tiles' *fragments*: what one tile, face and rotation in one
slot gives on its own (blocks, paltik, tapos, thick lines, the steps inside it) and which of its sides' squares
are open to a neighbour. A step between two tiles needs both sides open; the rows of step tables a tile gives
are kept per fragment and per what its four neighbours show it, so a new arrangement costs a few look-ups.

>>> square_name(0), square_name(80), square_index("e5")
('a9', 'i1', 40)
>>> from laro.games.kamara.components import default_components
>>> geometry = chamber_geometry(default_components(), START)
>>> [square_name(t) for t in geometry.steps(square_index("e5"))]
['e6', 'f5', 'e4', 'd5']
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field
from itertools import chain

from laro.games.kamara.components import DELTAS, ORTHOGONAL, Components, Tile

__all__ = [
    "CENTRE",
    "FILES",
    "OUTWARD",
    "POSITION_SLOT",
    "SLOTS",
    "SLOT_KIND",
    "SLOT_OF_SQUARE",
    "START",
    "Geometry",
    "Placement",
    "canonical_cell",
    "chamber_geometry",
    "may_step",
    "neighbour",
    "placed_square",
    "placed_walls",
    "square_index",
    "square_name",
]

SLOTS = ("NW", "N", "NE", "W", "C", "E", "SW", "S", "SE")
CENTRE = 4
SLOT_KIND = ("corner", "edge", "corner", "edge", "centre", "edge", "corner", "edge", "corner")
# Border tiles are turned so their yellow edges face out (quarter turns clockwise); the centre's is chosen.
OUTWARD = (0, 0, 1, 3, 0, 1, 3, 2, 2)
# The slot at each of the eight positions around the centre, in DIRECTIONS order (N NE E SE S SW W NW).
POSITION_SLOT = (1, 2, 5, 8, 7, 6, 3, 0)
FILES = "abcdefghi"
SLOT_OF_SQUARE = tuple((sq // 27) * 3 + (sq % 9) // 3 for sq in range(81))

Placement = tuple[int, int, int]  # tile number, face (0 = A, 1 = B), rotation (quarter turns clockwise)


def square_name(square: int) -> str:
    return f"{FILES[square % 9]}{9 - square // 9}"


def square_index(name: str) -> int:
    """The square named ``name`` (``a1``..``i9``); ``ValueError`` otherwise."""
    if len(name) == 2 and name[0] in FILES and name[1] in "123456789":
        return (9 - int(name[1])) * 9 + FILES.index(name[0])
    raise ValueError(f"{name!r} is not a square (a1 to i9)")


def _rotate(cell: int, turns: int) -> int:
    """A tile cell turned clockwise: (r, c) -> (c, 2 - r) per quarter turn."""
    row, col = divmod(cell, 3)
    for _ in range(turns % 4):
        row, col = col, 2 - row
    return row * 3 + col


def placed_square(slot: int, cell: int, rotation: int) -> int:
    """The chamber square of canonical ``cell`` of the tile in ``slot`` turned ``rotation`` quarter turns."""
    row, col = divmod(_rotate(cell, rotation), 3)
    return (slot // 3 * 3 + row) * 9 + slot % 3 * 3 + col


def canonical_cell(square: int, rotation: int) -> int:
    """The canonical cell of the tile under ``square`` (the inverse of :func:`placed_square`)."""
    return _rotate((square // 9 % 3) * 3 + square % 9 % 3, -rotation % 4)


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything about a full chamber that does not depend on the diwa: computed once per arrangement."""

    step: tuple[int, ...]  # step[sq * 8 + d]: the square one legal Move step away, or -1
    neighbours: tuple[int, ...]  # bit mask of the squares one legal step from each square
    through: tuple[int, ...]  # through[sq * 4 + i]: orthogonal step ORTHOGONAL[i] ignoring walls (tagos), or -1
    blocked: int  # bit mask of blocks
    paltik_slot: tuple[int, ...]  # per square: the slot whose paltik it is, or -1
    tapos: tuple[int, ...]  # tapos squares, ascending (the logo included)
    tapos_mask: int
    relative_light: int  # bit p: the paltik at card position p (read from the logo) shows light
    walls: frozenset[tuple[int, int]]  # half-edges (square, orthogonal direction) with a thick line

    def steps(self, square: int) -> list[int]:
        return [t for t in self.step[square * 8 : square * 8 + 8] if t >= 0]


# A chamber laid out in slot order with every face A and the logo up, for examples and tests.
START: tuple[Placement, ...] = tuple(
    (number, 0, OUTWARD[slot]) for slot, number in enumerate((1, 5, 2, 6, 0, 7, 3, 8, 4))
)


def chamber_geometry(components: Components, tiles: tuple[Placement, ...]) -> Geometry:
    """The geometry of a full chamber (all nine slots filled), cached per component set."""
    cache = components.geometry_cache
    geometry: Geometry | None = cache.get(tiles)
    if geometry is None:
        if len(cache) >= 256:  # a game meets a few dozen arrangements; keep memory small
            cache.clear()
        geometry = cache[tiles] = _assemble(components, tiles)
    return geometry


# -- fragments: one tile in one slot ------------------------------------------------------------------------

# A side of a slot (N E S W) lists its three squares west to east or north to south; a square of one side meets
# the square of the same place on the facing side of the next slot. Per slot: the squares of each side.
_SIDE_SQUARES = tuple(
    tuple(
        tuple((slot // 3 * 3 + r) * 9 + slot % 3 * 3 + c for r, c in cells)
        for cells in (
            [(0, i) for i in range(3)],  # N
            [(i, 2) for i in range(3)],  # E
            [(2, i) for i in range(3)],  # S
            [(i, 0) for i in range(3)],  # W
        )
    )
    for slot in range(9)
)
_NONE = 9  # the index of the empty fragment beyond the chamber's border
# Per slot: the slots to its north, south, west and east (_NONE beyond the border).
_AROUND = tuple(
    (
        slot - 3 if slot >= 3 else _NONE,
        slot + 3 if slot < 6 else _NONE,
        slot - 1 if slot % 3 else _NONE,
        slot + 1 if slot % 3 < 2 else _NONE,
    )
    for slot in range(9)
)
# The slot-major tables put together in square order: (slot, row of the slot) for each rank, west to east.
_RANK_PARTS = tuple((band * 3 + col, row) for band in range(3) for row in range(3) for col in range(3))

_Rows = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class _Fragment:
    """One tile, face and rotation in one slot. ``north`` … ``west``: per side, bit ``i`` when the side's square
    ``i`` is open to the neighbour (no block, no thick line on this side), bit ``3 + i`` when it is no block."""

    slot: int
    blocked: int
    paltik: int  # the paltik's square, or -1
    light: bool
    tapos: tuple[int, ...]
    tapos_mask: int
    walls: frozenset[tuple[int, int]]
    north: int = 0
    east: int = 0
    south: int = 0
    west: int = 0
    tables: dict[int, tuple[_Rows, _Rows, _Rows]] = field(default_factory=dict)  # per neighbours' sides


_EDGE = _Fragment(_NONE, 0, -1, False, (), 0, frozenset())  # beyond the border: no square, nothing open


def _fragment(tile: Tile, slot: int, face: int, rotation: int) -> _Fragment:
    blocked = 0
    for cell in tile.blocks:
        blocked |= 1 << placed_square(slot, cell, rotation)
    walls = placed_walls(tile, slot, face, rotation)
    tapos = tuple(sorted(placed_square(slot, cell, rotation) for cell in tile.tapos))
    sides = []
    for side, squares in zip(ORTHOGONAL, _SIDE_SQUARES[slot], strict=True):
        bits = 0
        for i, square in enumerate(squares):
            if not (blocked >> square) & 1:
                bits |= 1 << (3 + i)
                if (square, side) not in walls:
                    bits |= 1 << i
        sides.append(bits)
    return _Fragment(
        slot,
        blocked,
        -1 if tile.paltik is None else placed_square(slot, tile.paltik, rotation),
        tile.faces[face].paltik == "light",
        tapos,
        sum(1 << t for t in tapos),
        frozenset(walls),
        north=sides[0],
        east=sides[1],
        south=sides[2],
        west=sides[3],
    )


def _tables(fragment: _Fragment, around: tuple[_Fragment, ...]) -> tuple[_Rows, _Rows, _Rows]:
    """The rows of ``step``, ``neighbours`` and ``through`` for the fragment's squares, given its neighbours'
    fragments (north, south, west, east)."""
    slot, blocked, walls = fragment.slot, fragment.blocked, fragment.walls
    mine = {0: fragment.north, 2: fragment.east, 4: fragment.south, 6: fragment.west}
    facing = {0: around[0].south, 4: around[1].north, 6: around[2].east, 2: around[3].west}
    step_rows, near_rows, through_rows = [], [], []
    for row in range(3):
        steps: list[int] = []
        near: list[int] = []
        through: list[int] = []
        for col in range(3):
            square = (slot // 3 * 3 + row) * 9 + slot % 3 * 3 + col
            if (blocked >> square) & 1:
                steps += [-1] * 8
                near.append(0)
                through += [-1] * 4
                continue
            mask = 0
            for direction in range(8):
                target = neighbour(square, direction)
                if target < 0:
                    allowed = False
                elif SLOT_OF_SQUARE[target] == slot:
                    allowed = not (blocked >> target) & 1 and may_step(square, direction, target, blocked, walls)
                else:  # into the next tile: orthogonal only, open on both sides
                    place = _place(square, direction)
                    allowed = direction % 2 == 0 and ((mine[direction] & facing[direction]) >> place) & 1 == 1
                steps.append(target if allowed else -1)
                if allowed:
                    mask |= 1 << target
            near.append(mask)
            for direction in ORTHOGONAL:
                target = neighbour(square, direction)
                if target < 0:
                    open_square = False
                elif SLOT_OF_SQUARE[target] == slot:
                    open_square = not (blocked >> target) & 1
                else:
                    open_square = (facing[direction] >> (3 + _place(square, direction))) & 1 == 1
                through.append(target if open_square else -1)
        step_rows.append(tuple(steps))
        near_rows.append(tuple(near))
        through_rows.append(tuple(through))
    return _three(step_rows), _three(near_rows), _three(through_rows)


def _three(rows: list[tuple[int, ...]]) -> _Rows:
    return rows[0], rows[1], rows[2]


def _place(square: int, direction: int) -> int:
    """The place of ``square`` along its slot's side in ``direction`` (west to east, or north to south)."""
    return square % 9 % 3 if direction in (0, 4) else square // 9 % 3


def _assemble(components: Components, tiles: tuple[Placement, ...]) -> Geometry:
    cache = components.fragment_cache
    fragments = []
    for slot, placement in enumerate(tiles):
        fragment = cache.get((slot, placement))
        if fragment is None:
            number, face, rotation = placement
            fragment = cache[slot, placement] = _fragment(components.tiles[number], slot, face, rotation)
        fragments.append(fragment)
    fragments.append(_EDGE)
    parts = []
    for slot, (north, south, west, east) in enumerate(_AROUND):
        fragment = fragments[slot]
        around = (fragments[north], fragments[south], fragments[west], fragments[east])
        sides = around[0].south | around[1].north << 6 | around[2].east << 12 | around[3].west << 18
        tables = fragment.tables.get(sides)
        if tables is None:
            tables = fragment.tables[sides] = _tables(fragment, around)
        parts.append(tables)
    step = tuple(chain.from_iterable([parts[slot][0][row] for slot, row in _RANK_PARTS]))
    neighbours = tuple(chain.from_iterable([parts[slot][1][row] for slot, row in _RANK_PARTS]))
    through = tuple(chain.from_iterable([parts[slot][2][row] for slot, row in _RANK_PARTS]))
    blocked = tapos_mask = 0
    paltik_slot = [-1] * 81
    light = [False] * 9
    for fragment in fragments[:9]:
        blocked |= fragment.blocked
        tapos_mask |= fragment.tapos_mask
        if fragment.paltik >= 0:
            paltik_slot[fragment.paltik] = fragment.slot
            light[fragment.slot] = fragment.light
    logo_turns = tiles[CENTRE][2]
    relative = sum(1 << p for p in range(8) if light[POSITION_SLOT[(p + 2 * logo_turns) % 8]])
    return Geometry(
        step=step,
        neighbours=neighbours,
        through=through,
        blocked=blocked,
        paltik_slot=tuple(paltik_slot),
        tapos=tuple(sorted(chain.from_iterable([fragment.tapos for fragment in fragments]))),
        tapos_mask=tapos_mask,
        relative_light=relative,
        walls=frozenset().union(*[fragment.walls for fragment in fragments]),
    )


def placed_walls(tile: Tile, slot: int, face: int, rotation: int) -> frozenset[tuple[int, int]]:
    """The thick lines of ``tile`` showing ``face`` in ``slot``: half-edges (square, direction), each seen from
    both sides (the side beyond the tile included)."""
    walls: set[tuple[int, int]] = set()
    for cell, direction in tile.faces[face].walls:
        square = placed_square(slot, cell, rotation)
        turned = (direction + 2 * rotation) % 8
        walls.add((square, turned))
        beyond = neighbour(square, turned)
        if beyond >= 0:
            walls.add((beyond, (turned + 4) % 8))
    return frozenset(walls)


def neighbour(square: int, direction: int) -> int:
    """The square one step from ``square`` in ``direction``, or -1 beyond the border."""
    row, col = divmod(square, 9)
    dr, dc = DELTAS[direction]
    row, col = row + dr, col + dc
    return row * 9 + col if 0 <= row < 9 and 0 <= col < 9 else -1


def may_step(square: int, direction: int, target: int, blocked: int, walls: Set[tuple[int, int]]) -> bool:
    """The Move rule between two open squares inside the chamber."""
    if direction % 2 == 0:
        return (square, direction) not in walls
    if SLOT_OF_SQUARE[square] != SLOT_OF_SQUARE[target]:
        return False  # a diagonal step stays inside one tile
    dr, dc = DELTAS[direction]
    vertical, horizontal = (0 if dr < 0 else 4), (2 if dc > 0 else 6)
    side_v, side_h = square + 9 * dr, square + dc
    if (blocked >> side_v) & 1 or (blocked >> side_h) & 1:
        return False
    # no thick line may touch the corner the diagonal crosses
    touching = ((square, vertical), (square, horizontal), (side_v, horizontal), (side_h, vertical))
    return not any(wall in walls for wall in touching)
