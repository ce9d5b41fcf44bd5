"""The chamber's geometry: slots, squares, rotations, walls, and the steps a diwa may take.

Squares are numbered ``row * 9 + column`` with row 0 the north rank (9) and column 0 file ``a``; slots are
numbered ``NW N NE / W C E / SW S SE`` = 0..8. A tile in a slot is ``(tile number, face, rotation)`` with face
0 = A, 1 = B and rotation in quarter turns clockwise.

>>> square_name(0), square_name(80), square_index("e5")
('a9', 'i1', 40)
>>> from laro.games.kamara.components import default_components
>>> geometry = chamber_geometry(default_components(), START)
>>> [square_name(t) for t in geometry.steps(square_index("e5"))]
['e6', 'f5', 'e4', 'd5']
"""

from __future__ import annotations

from dataclasses import dataclass

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
    "placed_square",
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
        geometry = cache[tiles] = _build(components.tiles, tiles)
    return geometry


def _build(tile_set: tuple[Tile, ...], tiles: tuple[Placement, ...]) -> Geometry:
    blocked = 0
    walls: set[tuple[int, int]] = set()
    paltik_slot = [-1] * 81
    tapos: list[int] = []
    light = [False] * 9
    for slot, (number, face, rotation) in enumerate(tiles):
        tile = tile_set[number]
        for cell in tile.blocks:
            blocked |= 1 << placed_square(slot, cell, rotation)
        if tile.paltik is not None:
            paltik_slot[placed_square(slot, tile.paltik, rotation)] = slot
            light[slot] = tile.faces[face].paltik == "light"
        tapos += [placed_square(slot, cell, rotation) for cell in tile.tapos]
        for cell, direction in tile.faces[face].walls:
            square = placed_square(slot, cell, rotation)
            turned = (direction + 2 * rotation) % 8
            walls.add((square, turned))
            neighbour = _neighbour(square, turned)
            if neighbour >= 0:
                walls.add((neighbour, (turned + 4) % 8))
    step = [-1] * (81 * 8)
    through = [-1] * (81 * 4)
    for square in range(81):
        if (blocked >> square) & 1:
            continue
        for direction in range(8):
            target = _neighbour(square, direction)
            if target >= 0 and not (blocked >> target) & 1 and _may_step(square, direction, target, blocked, walls):
                step[square * 8 + direction] = target
        for i, direction in enumerate(ORTHOGONAL):
            target = _neighbour(square, direction)
            if target >= 0 and not (blocked >> target) & 1:
                through[square * 4 + i] = target
    neighbours = tuple(sum(1 << t for t in set(step[sq * 8 : sq * 8 + 8]) if t >= 0) for sq in range(81))
    logo_turns = tiles[CENTRE][2]
    relative = sum(1 << p for p in range(8) if light[POSITION_SLOT[(p + 2 * logo_turns) % 8]])
    tapos.sort()
    return Geometry(
        step=tuple(step),
        neighbours=neighbours,
        through=tuple(through),
        blocked=blocked,
        paltik_slot=tuple(paltik_slot),
        tapos=tuple(tapos),
        tapos_mask=sum(1 << t for t in tapos),
        relative_light=relative,
        walls=frozenset(walls),
    )


def _neighbour(square: int, direction: int) -> int:
    row, col = divmod(square, 9)
    dr, dc = DELTAS[direction]
    row, col = row + dr, col + dc
    return row * 9 + col if 0 <= row < 9 and 0 <= col < 9 else -1


def _may_step(square: int, direction: int, target: int, blocked: int, walls: set[tuple[int, int]]) -> bool:
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
