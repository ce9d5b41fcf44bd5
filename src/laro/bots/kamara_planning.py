"""Route planning for the ``heuristic`` Kamara bot: the chamber read from an observation, distances and tours.

A :class:`Board` is one arrangement of the chamber (tiles, faces, rotations) with what the bot needs to plan on
it: each slot's paltik square and state, the legal steps of every square, and distances that ignore the diwa
(cached per square). :func:`route` is a breadth-first search from the bot's own square that respects the other
diwa and returns, for every square, the first action of a shortest route. :func:`tour` is the fewest actions
that flip a set of tiles and then match on a tapos. Distances count actions: a Move step is one, and a Port
from any tapos to any other tapos is one.

>>> from laro.games.kamara.chamber import START, square_index
>>> from laro.games.kamara import default_components
>>> board = board_of(default_components(), START)
>>> board.turns, board.light[0], board.paltik[4]
(0, True, -1)
>>> start = square_index("e5")  # the logo: a tapos, so every other tapos is one Port away
>>> min(board.distances(start)[t] for t in board.tapos if t != start)
1
>>> tour(board, board.distances(start), ())  # nothing to flip: match where it stands
(1, -1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise, permutations
from typing import Any, cast

from laro.core.game import Action, JSONDict
from laro.games.kamara.actions import COLOURS, END, PLACE, KamaraAction, action_space
from laro.games.kamara.chamber import CENTRE, POSITION_SLOT, SLOTS, Geometry, Placement, chamber_geometry, square_index
from laro.games.kamara.components import CARD_IDS, POSITIONS, Components, default_components

__all__ = [
    "INF",
    "PORT_BASE",
    "Board",
    "Choices",
    "Situation",
    "board_of",
    "card_bits",
    "code_score",
    "diwa_squares",
    "read_tiles",
    "route",
    "tour",
    "wrong_slots",
]

INF = 10_000  # an unreachable square's distance; sums of a few stay far below any real plan's reach
PORT_BASE = 100  # a route's first action: a direction 0..7 (Move), or PORT_BASE + square (Port)
_EXACT_TOUR = 5  # up to this many tiles the tour tries every order; beyond, nearest first
_BOARDS: dict[tuple[int, tuple[Placement, ...]], Board] = {}
_FREE_SQUARES: dict[int, bytes] = {}  # a mask of occupied squares -> per square, 1 where it is free
# a square's row of a geometry's step table -> its Moves as (direction, target), and the targets alone
_STEP_ROWS: dict[tuple[int, ...], tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = {}


class Board:
    """One chamber arrangement and the distances on it (see the module docstring)."""

    __slots__ = (
        "_from",
        "_onward",
        "adjacency",
        "geometry",
        "light",
        "near",
        "paltik",
        "tapos",
        "tapos_set",
        "tiles",
        "to_tapos",
        "turns",
    )

    def __init__(self, components: Components, tiles: tuple[Placement, ...]) -> None:
        self.tiles = tiles
        self.geometry: Geometry = chamber_geometry(components, tiles)
        self.turns = tiles[CENTRE][2]
        self.light = tuple(
            components.tiles[number].faces[face].paltik == "light" for number, face, _ in tiles
        )  # per slot (False for the centre)
        paltik = [-1] * 9
        for square, slot in enumerate(self.geometry.paltik_slot):
            if slot >= 0:
                paltik[slot] = square
        self.paltik = tuple(paltik)
        self.adjacency, self.near = _steps_of(self.geometry.step)
        self.tapos = self.geometry.tapos
        self.tapos_set = frozenset(self.tapos)
        self.to_tapos = self.search(self.tapos, ports=False)
        self._from: dict[int, list[int]] = {}
        self._onward: dict[tuple[int, ...], tuple[int, ...]] = {}

    def distances(self, square: int) -> list[int]:
        """Actions from ``square`` to every square (Moves and Ports), ignoring the diwa; symmetric."""
        found = self._from.get(square)
        if found is None:
            found = self._from[square] = self.search((square,), ports=True)
        return found

    def search(self, sources: Sequence[int], ports: bool) -> list[int]:
        """Actions from the nearest of ``sources`` to every square: Moves, and Ports between tapos if ``ports``."""
        dist = [INF] * 81
        for source in sources:
            dist[source] = 0
        frontier = list(sources)
        near, tapos_set = self.near, self.tapos_set
        ported = not ports
        while frontier:
            following = []
            for square in frontier:
                d = dist[square] + 1
                for target in near[square]:
                    if dist[target] == INF:
                        dist[target] = d
                        following.append(target)
                if not ported and square in tapos_set:
                    ported = True
                    for target in self.tapos:
                        if dist[target] == INF:
                            dist[target] = d
                            following.append(target)
            frontier = following
        return dist

    def onward(self, slots: tuple[int, ...]) -> tuple[int, ...]:
        """Per slot of ``slots``: the fewest Moves and Ports from its paltik through every other slot's paltik to
        the nearest tapos (cached)."""
        found = self._onward.get(slots)
        if found is None:
            paltik, to_tapos = self.paltik, self.to_tapos
            between = {(a, b): self.distances(paltik[a])[paltik[b]] for a in slots for b in slots}
            best = dict.fromkeys(slots, INF * 8)
            for order in permutations(slots):
                cost = to_tapos[paltik[order[-1]]]
                for pair in pairwise(order):
                    cost += between[pair]
                if cost < best[order[0]]:
                    best[order[0]] = cost
            found = self._onward[slots] = tuple(best[slot] for slot in slots)
        return found

    def slot_at(self, position: int, turns: int | None = None) -> int:
        """The slot that card ``position`` names with the logo turned ``turns`` (default: as it lies)."""
        return POSITION_SLOT[(position + 2 * (self.turns if turns is None else turns)) % 8]


def _steps_of(step: tuple[int, ...]) -> tuple[tuple[tuple[tuple[int, int], ...], ...], tuple[tuple[int, ...], ...]]:
    """Per square, its Moves as (direction, target) and the targets alone, from the geometry's step table. A
    square's row of the table recurs in every arrangement that puts the same tiles around it, so the rows are
    kept (a new board is mostly rows met before: six times faster than building them)."""
    adjacency = []
    near = []
    rows = _STEP_ROWS
    if len(rows) >= 65_536:
        rows.clear()
    for base in range(0, 81 * 8, 8):
        row = step[base : base + 8]
        found = rows.get(row)
        if found is None:
            found = rows[row] = (
                tuple((direction, t) for direction, t in enumerate(row) if t >= 0),
                tuple(t for t in row if t >= 0),
            )
        adjacency.append(found[0])
        near.append(found[1])
    return tuple(adjacency), tuple(near)


def board_of(components: Components, tiles: tuple[Placement, ...]) -> Board:
    """The :class:`Board` of an arrangement, kept while the bot keeps meeting it."""
    key = (id(components), tiles)
    board = _BOARDS.get(key)
    if board is None or board.geometry is not chamber_geometry(components, tiles):
        if len(_BOARDS) > 256:
            _BOARDS.clear()
        board = _BOARDS[key] = Board(components, tiles)
    return board


def read_tiles(components: Components, tiles: Mapping[str, Any]) -> tuple[Placement, ...] | None:
    """The observation's ``tiles`` as placements; ``None`` while a slot is empty.

    >>> from laro.games.kamara import default_components
    >>> data = {slot: {"tile": "kamara", "face": "A", "rotation": 90} for slot in SLOTS}
    >>> read_tiles(default_components(), data)[4]
    (0, 0, 1)
    """
    placed = []
    for slot in SLOTS:
        item = tiles.get(slot)
        if item is None:
            return None
        placed.append((components.tile_number[item["tile"]], "AB".index(item["face"]), int(item["rotation"]) // 90))
    return tuple(placed)


def card_bits(code: Mapping[str, str]) -> tuple[int, int]:
    """A card's code as bit masks over positions: (positions shown, positions that must show light).

    >>> card_bits({"N": "light", "E": "dark"})
    (5, 1)
    """
    shown = light = 0
    for position, state in code.items():
        bit = 1 << POSITIONS.index(position)
        shown |= bit
        if state == "light":
            light |= bit
    return shown, light


def code_score(components: Components, placed: Mapping[int, Placement], shown: int, light: int, turns: int) -> int:
    """During setup: the code's positions shown right minus those shown wrong by the tiles placed so far.

    >>> from laro.games.kamara import default_components
    >>> code_score(default_components(), {1: (5, 0, 0), 2: (2, 1, 1)}, *card_bits({"N": "light", "NE": "light"}), 0)
    0
    """
    score = 0
    for position in range(8):
        slot = POSITION_SLOT[(position + 2 * turns) % 8]
        if (shown >> position) & 1 and slot in placed:
            number, face, _ = placed[slot]
            is_light = components.tiles[number].faces[face].paltik == "light"
            score += 1 if is_light == bool((light >> position) & 1) else -1
    return score


def wrong_slots(
    board: Board, shown: int, light: int, turns: int | None = None, lights: Sequence[bool] = ()
) -> tuple[int, ...]:
    """The slots whose paltik breaks the code (logo turned ``turns``; paltik states ``lights`` if given)."""
    states = lights or board.light
    quarter = 2 * (board.turns if turns is None else turns)
    wrong = []
    for position in range(8):
        if (shown >> position) & 1:
            slot = POSITION_SLOT[(position + quarter) % 8]  # as Board.slot_at
            if states[slot] != bool((light >> position) & 1):
                wrong.append(slot)
    return tuple(wrong)


def route(board: Board, start: int, occupied: int) -> tuple[list[int], list[int]]:
    """Shortest routes from ``start`` past the diwa in ``occupied``: (actions to each square, first action).

    An occupied square gets the distance of stepping onto it (the bot may poke its diwa away first), but no
    route leads through it; a Port leads only to an empty tapos.
    """
    dist = [INF] * 81
    first = [-1] * 81
    dist[start] = 0
    near, tapos, tapos_set = board.near, board.tapos, board.tapos_set
    free = _FREE_SQUARES.get(occupied)
    if free is None:
        if len(_FREE_SQUARES) >= 4096:
            _FREE_SQUARES.clear()
        free = _FREE_SQUARES[occupied] = bytes(not (occupied >> square) & 1 for square in range(81))
    frontier = []  # the first steps: each is its own first action
    for direction, target in board.adjacency[start]:
        if dist[target] == INF:
            dist[target] = 1
            first[target] = direction
            if free[target]:
                frontier.append(target)
    ported = start in tapos_set
    if ported:
        for target in tapos:
            if dist[target] == INF and free[target]:
                dist[target] = 1
                first[target] = PORT_BASE + target
                frontier.append(target)
    d = 1
    while frontier:  # every square of a frontier is d actions away; what it reaches keeps its first action
        d += 1
        following = []
        for square in frontier:
            how = first[square]
            for target in near[square]:
                if dist[target] == INF:
                    dist[target] = d
                    first[target] = how
                    if free[target]:
                        following.append(target)
            if not ported and square in tapos_set:
                ported = True
                for target in tapos:
                    if dist[target] == INF and free[target]:
                        dist[target] = d
                        first[target] = how
                        following.append(target)
        frontier = following
    return dist, first


def tour(
    board: Board, start: Sequence[int], slots: Sequence[int], extra: Mapping[int, int] | None = None
) -> tuple[int, int]:
    """Fewest actions to flip the tiles in ``slots`` and then match: (actions, the slot to flip first or -1).

    ``start`` holds the distances from where the tour begins; ``extra`` adds actions per slot (a locked tile,
    a diwa on its paltik). The last leg goes to the nearest tapos.
    """
    if not slots:
        return min(start[t] for t in board.tapos) + 1, -1
    paltik, to_tapos = board.paltik, board.to_tapos
    fixed = len(slots) + 1 + (sum(extra.get(slot, 0) for slot in slots) if extra else 0)
    if len(slots) == 1:
        square = paltik[slots[0]]
        return min(start[square] + to_tapos[square], INF * 4) + fixed, slots[0]
    if len(slots) == 2:  # the two orders, as below
        a, b = paltik[slots[0]], paltik[slots[1]]
        there, back = start[a] + board.distances(a)[b] + to_tapos[b], start[b] + board.distances(b)[a] + to_tapos[a]
        best, best_first = (there, slots[0]) if there < INF * 4 else (INF * 4, slots[0])
        return (best + fixed, best_first) if back >= best else (back + fixed, slots[1])
    if len(slots) > _EXACT_TOUR:
        return _greedy_tour(board, start, slots, fixed)
    best, best_first = INF * 4, slots[0]
    # the orders that begin with one slot share their first leg: the rest is the board's, whatever the start
    for slot, onward in zip(slots, board.onward(tuple(slots)), strict=True):
        cost = start[paltik[slot]] + onward
        if cost < best:
            best, best_first = cost, slot
    return best + fixed, best_first


def _greedy_tour(board: Board, start: Sequence[int], slots: Sequence[int], fixed: int) -> tuple[int, int]:
    left = list(slots)
    here = start
    cost = 0
    first = -1
    while left:
        slot = min(left, key=lambda s: here[board.paltik[s]])
        cost += here[board.paltik[slot]]
        first = slot if first < 0 else first
        left.remove(slot)
        here = board.distances(board.paltik[slot])
    return cost + min(here[t] for t in board.tapos) + fixed, first


def diwa_squares(diwa: Mapping[str, str]) -> dict[int, int]:
    """The observation's ``diwa`` as colour index -> square index."""
    return {COLOURS.index(colour): square_index(square) for colour, square in diwa.items()}


_INDEX: dict[tuple[int, tuple[int, ...]], int] = {}  # (kind, args) -> index of every action but ``place``


def _index_of(kind: int, args: tuple[int, ...]) -> int | None:
    """The index of the action ``kind`` ``args`` (not ``place``): the same in every component set."""
    if not _INDEX:
        _INDEX.update(((a.kind, a.args), a.index) for a in action_space(default_components()).by_index if a.kind)
    return _INDEX.get((kind, args))


class Choices:
    """The legal actions by kind and arguments, as positions in the list the bot was given."""

    __slots__ = ("_at", "_kinds", "actions", "positions")

    def __init__(self, legal: Sequence[Action]) -> None:
        self.actions = actions = cast("list[KamaraAction]", list(legal))
        self.positions = {action.index: i for i, action in enumerate(actions)}
        self._at: dict[tuple[int, tuple[int, ...]], int] | None = None
        self._kinds: dict[int, list[int]] | None = None

    @property
    def at(self) -> dict[tuple[int, tuple[int, ...]], int]:
        """(kind, args) -> position."""
        if self._at is None:
            self._at = {(a.kind, a.args): i for i, a in enumerate(self.actions)}
        return self._at

    @property
    def kinds(self) -> dict[int, list[int]]:
        """kind -> positions, in order."""
        kinds = self._kinds
        if kinds is None:
            kinds = self._kinds = {}
            for i, action in enumerate(self.actions):
                found = kinds.get(action.kind)
                if found is None:
                    kinds[action.kind] = [i]
                else:
                    found.append(i)
        return kinds

    def find(self, kind: int, *args: int) -> int | None:
        if kind == PLACE:
            return self.at.get((kind, args))
        index = _index_of(kind, args)
        return None if index is None else self.positions.get(index)

    def of(self, kind: int) -> list[KamaraAction]:
        return [self.actions[i] for i in self.kinds.get(kind, ())]

    def end(self) -> int:
        found = self.find(END)
        return len(self.actions) - 1 if found is None else found


class Situation:
    """What a seat reads from its observation during play, and the shortest routes from its square."""

    def __init__(self, observation: JSONDict, components: Components, board: Board) -> None:
        self.observation = observation
        self.components = components
        self.board = board
        seat: int = observation["seat"]
        squares = diwa_squares(observation["diwa"])
        self.colour = COLOURS.index(observation["colours"][seat])
        self.me = squares.pop(self.colour)
        self.rivals = squares  # colour -> square
        self.occupied = sum(1 << square for square in squares.values())
        code = observation["code"]
        self.card = card_bits(code) if code else None
        self.locked = frozenset(SLOTS.index(slot) for slot in observation["locks"])
        self.actions_left: int = observation["actions_left"]
        self.per_turn: int = observation["options"]["actions_per_turn"]
        self.effect: str | None = observation["green"][seat]
        self.dist, self.first = route(board, self.me, self.occupied)

    def wrong(self) -> tuple[int, ...]:
        return wrong_slots(self.board, *self.card) if self.card else ()

    def plan(self, start: Sequence[int], slots: Sequence[int], board: Board | None = None) -> tuple[int, int]:
        """The tour's cost and first slot; a locked tile waits a turn, a diwa on a paltik costs a poke."""
        board = board or self.board
        extra = {slot: self.per_turn for slot in slots if slot in self.locked}
        for slot in slots:
            if (self.occupied >> board.paltik[slot]) & 1:
                extra[slot] = extra.get(slot, 0) + 1
        return tour(board, start, slots, extra)

    def card_cost(self, card_id: str) -> int:
        shown, light = self.components.codes[CARD_IDS.index(card_id)]
        return self.plan(self.dist, wrong_slots(self.board, shown, light))[0]

    def rival_at(self, square: int) -> int:
        if not (self.occupied >> square) & 1:
            return -1
        for colour, there in self.rivals.items():
            if there == square:
                return colour
        return -1  # pragma: no cover - the occupied squares are the rivals'
