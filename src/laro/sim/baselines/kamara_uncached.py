"""laro's own Kamara engine with its chamber geometry read from the walls for every state: the benchmark's
in-project baseline, and the reference the engine's geometry is checked against.

The engine puts a chamber's step tables (walls, blocks, diagonals, ports) together from what each tile gives in
its slot, and keeps them per arrangement; this baseline reads every square's steps from the walls again for every
state, as an engine that reads the walls on every move would. The rules are the very same, so the ratio shows
what the geometry tables buy.

>>> game = UncachedKamara.new_game(3, seed=4)
>>> [str(a) for a in game.legal_actions()] == [str(a) for a in GAME.new_game(3, seed=4).legal_actions()]
True
>>> from laro.games.kamara.chamber import START, chamber_geometry
>>> reference_geometry(default_components(), START) == chamber_geometry(default_components(), START)
True
"""

from __future__ import annotations

import dataclasses
from typing import Any

from laro.games.kamara import GAME, KamaraAction, KamaraState, default_components
from laro.games.kamara.chamber import (
    CENTRE,
    POSITION_SLOT,
    Geometry,
    Placement,
    may_step,
    neighbour,
    placed_square,
    placed_walls,
)
from laro.games.kamara.components import ORTHOGONAL, Components

__all__ = ["UncachedKamara", "reference_geometry"]


def reference_geometry(components: Components, tiles: tuple[Placement, ...]) -> Geometry:
    """A full chamber's geometry read square by square from its tiles' walls and blocks (no tables, no cache)."""
    blocked = 0
    walls: set[tuple[int, int]] = set()
    paltik_slot = [-1] * 81
    tapos: list[int] = []
    light = [False] * 9
    for slot, (number, face, rotation) in enumerate(tiles):
        tile = components.tiles[number]
        for cell in tile.blocks:
            blocked |= 1 << placed_square(slot, cell, rotation)
        if tile.paltik is not None:
            paltik_slot[placed_square(slot, tile.paltik, rotation)] = slot
            light[slot] = tile.faces[face].paltik == "light"
        tapos += [placed_square(slot, cell, rotation) for cell in tile.tapos]
        walls |= placed_walls(tile, slot, face, rotation)
    step = [-1] * (81 * 8)
    through = [-1] * (81 * 4)
    for square in range(81):
        if (blocked >> square) & 1:
            continue
        for direction in range(8):
            target = neighbour(square, direction)
            if target >= 0 and not (blocked >> target) & 1 and may_step(square, direction, target, blocked, walls):
                step[square * 8 + direction] = target
        for i, direction in enumerate(ORTHOGONAL):
            target = neighbour(square, direction)
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


class _Rereading(dict[Any, Any]):
    """A geometry cache that keeps nothing: every look-up reads the walls again."""

    def __init__(self, components: Components) -> None:
        super().__init__()
        self.components = components

    def get(self, key: Any, default: Any = None) -> Any:
        return reference_geometry(self.components, key)


class UncachedKamara:
    """A Kamara state whose chamber geometry is read from the walls whenever it is needed."""

    __slots__ = ("state",)

    def __init__(self, state: KamaraState) -> None:
        self.state = state

    @classmethod
    def new_game(cls, num_players: int, seed: int) -> UncachedKamara:
        state = GAME.new_game(num_players, seed=seed)
        components = default_components()
        state.components = dataclasses.replace(components, geometry_cache=_Rereading(components))
        return cls(state)

    def legal_actions(self) -> tuple[KamaraAction, ...]:
        self.state._geometry = None
        return self.state.legal_actions()

    def apply(self, action: KamaraAction) -> UncachedKamara:
        new = self.state.apply(action)
        new._geometry = None
        return UncachedKamara(new)
