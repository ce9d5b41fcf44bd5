"""Kamara's components — tiles, yellow kamara cards, green cards — loaded from data and checked against the rules.

The default set is package data (``data/*.json``); another set can be given as the options ``tiles``,
``yellow_cards`` and ``green_cards`` (the same JSON formats). A set that breaks a rule of the rules page is
refused with a :class:`ComponentError` naming the tile or card and the rule.

>>> components = default_components()
>>> [tile.id for tile in components.tiles][:3]
['kamara', 'sulok', 'balon']
>>> len(components.yellow), len(components.green_deck)
(32, 24)
>>> bad = json.loads(json.dumps(DEFAULT_DATA["tiles"]))
>>> bad["tiles"][1]["faces"]["B"]["paltik"] = "light"
>>> load_components(tiles=bad)
Traceback (most recent call last):
...
laro.games.kamara.components.ComponentError: tile 'sulok': faces A and B must show the paltik in different states
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from laro.core.errors import OptionError

__all__ = [
    "CARD_IDS",
    "DEFAULT_DATA",
    "DIRECTIONS",
    "EFFECTS",
    "KINDS",
    "ORTHOGONAL",
    "POSITIONS",
    "ComponentError",
    "Components",
    "Face",
    "GreenCard",
    "Tile",
    "YellowCard",
    "default_components",
    "load_components",
]

# Directions in clockwise order from north; index + 2 is a quarter turn clockwise.
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
ORTHOGONAL = (0, 2, 4, 6)  # N E S W as direction indices
DELTAS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))  # (row, column); row 0 is north
POSITIONS = DIRECTIONS  # the eight positions around the logo on a yellow card
KINDS = ("centre", "corner", "edge")
EFFECTS = (
    "sigla",
    "pitik",
    "ikot",
    "palitan",
    "tulak",
    "tawag",
    "lipat",
    "tagos",
    "kandado",
    "silip",
    "panaginip",
)
CARD_IDS = tuple(f"Y{number:02d}" for number in range(1, 33))  # the id space of yellow cards
STATES = ("light", "dark")
_SIDE_DIRECTION = {"N": 0, "E": 2, "S": 4, "W": 6}
_BORDER_SIDES = {"centre": (), "corner": (0, 6), "edge": (0,)}  # canonical yellow edges (N; N and W)
T = TypeVar("T")
_TILE_ID = re.compile(r"[a-z][a-z0-9_-]{0,23}")


class ComponentError(OptionError):
    """A tile or card set that breaks a rule of the components; ``part`` names the data that broke it."""

    def __init__(self, message: str, part: str = "") -> None:
        super().__init__(message)
        self.part = part


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a tile: its thick lines and the state its paltik shows (``None`` on the centre tile).

    ``walls`` holds half-edges ``(cell, direction)`` in the canonical frame: cell ``r * 3 + c``, direction an
    index into :data:`DIRECTIONS` (orthogonal only); a wall between two cells appears from both sides.
    """

    walls: frozenset[tuple[int, int]]
    paltik: str | None


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile in its canonical frame (row 0 north): grid, blocks, paltik, tapos and two faces."""

    id: str
    kind: str
    grid: tuple[str, str, str]
    faces: tuple[Face, Face]  # A, B
    blocks: frozenset[int]
    paltik: int | None  # the paltik's cell
    tapos: frozenset[int]  # tapos cells, the logo included
    logo: int | None


@dataclass(frozen=True, slots=True)
class YellowCard:
    """A yellow kamara card: for some positions around the logo, the state a paltik must show."""

    id: str
    code: tuple[tuple[int, bool], ...]  # (position index, light?) in position order
    shown: int = 0  # bit p: position p is shown
    light: int = 0  # bit p: position p must be light

    def code_text(self) -> dict[str, str]:
        return {POSITIONS[p]: "light" if light else "dark" for p, light in self.code}


@dataclass(frozen=True, slots=True)
class GreenCard:
    effect: str
    name: str
    count: int
    text: str


@dataclass(eq=False, slots=True)
class Components:
    """A whole component set. ``tiles`` keeps the data's order; tiles are numbered centre, corners, edges."""

    tiles: tuple[Tile, ...]  # centre first, then the four corners, then the four edges (data order within kind)
    yellow: tuple[YellowCard, ...]
    green: tuple[GreenCard, ...]
    green_deck: tuple[int, ...]  # the green deck before shuffling, as effect indices
    data: dict[str, Any]  # the source data (JSON-ready)
    tile_number: dict[str, int] = field(default_factory=dict)
    yellow_by_number: dict[int, YellowCard] = field(default_factory=dict)  # card number (Y01 = 0) -> card
    codes: tuple[tuple[int, int], ...] = ()  # per card number (Y01 = 0): the positions shown, those light (bits)
    geometry_cache: dict[Any, Any] = field(default_factory=dict)  # chamber geometries, filled by the chamber
    fragment_cache: dict[Any, Any] = field(default_factory=dict)  # what one tile in one slot gives the chamber
    action_cache: dict[str, Any] = field(default_factory=dict)  # the action space, filled by the actions


def _read_default(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DEFAULT_DATA: dict[str, dict[str, Any]] = {
    "tiles": _read_default("tiles.json"),
    "yellow_cards": _read_default("yellow_cards.json"),
    "green_cards": _read_default("green_cards.json"),
}


@cache
def default_components() -> Components:
    """The default component set (the package data), loaded and checked once."""
    return load_components()


def load_components(
    tiles: Mapping[str, Any] | None = None,
    yellow_cards: Mapping[str, Any] | None = None,
    green_cards: Mapping[str, Any] | None = None,
) -> Components:
    """Load and check a component set; a part given as ``None`` is the default."""
    data = {
        "tiles": DEFAULT_DATA["tiles"] if tiles is None else tiles,
        "yellow_cards": DEFAULT_DATA["yellow_cards"] if yellow_cards is None else yellow_cards,
        "green_cards": DEFAULT_DATA["green_cards"] if green_cards is None else green_cards,
    }
    tile_list = _load_part("tiles", _load_tiles, data["tiles"])
    yellow = _load_part("yellow_cards", _load_yellow, data["yellow_cards"])
    green = _load_part("green_cards", _load_green, data["green_cards"])
    ordered = sorted(tile_list, key=lambda tile: KINDS.index(tile.kind))
    deck = tuple(EFFECTS.index(card.effect) for card in green for _ in range(card.count))
    return Components(
        tiles=tuple(ordered),
        yellow=yellow,
        green=green,
        green_deck=deck,
        data=json.loads(json.dumps(data)),
        tile_number={tile.id: number for number, tile in enumerate(ordered)},
        yellow_by_number={CARD_IDS.index(card.id): card for card in yellow},
        codes=tuple(next(((c.shown, c.light) for c in yellow if c.id == card_id), (0, 0)) for card_id in CARD_IDS),
    )


MAX_PART_BYTES = 8192  # of one part's compact JSON (the default parts take 1.4-2.6 KiB)
# the keys each object of a part may have: anything else is refused, so a component set carries nothing but itself
_KEYS = {
    "laro-kamara-tiles/1": {"format", "legend", "frame", "walls", "tiles"},
    "laro-kamara-yellow/1": {"format", "reading", "cards"},
    "laro-kamara-green/1": {"format", "cards"},
    "tile": {"id", "kind", "grid", "faces"},
    "face": {"grid", "walls", "paltik"},
    "yellow card": {"id", "code"},
    "green card": {"effect", "name", "count", "text"},
}


def _load_part(part: str, load: Callable[[Mapping[str, Any]], T], data: Mapping[str, Any]) -> T:
    """Load one part; its errors say which part (``tiles``, ``yellow_cards`` or ``green_cards``) broke."""
    try:
        size = len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode())
    except (TypeError, ValueError, RecursionError):
        raise ComponentError(f"{part} data must be plain JSON", part) from None
    if size > MAX_PART_BYTES:
        raise ComponentError(f"{part} data may take at most {MAX_PART_BYTES} bytes of JSON; got {size}", part)
    try:
        return load(data)
    except ComponentError as error:
        error.part = part
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        what = f"missing key {error}" if isinstance(error, KeyError) else str(error)
        raise ComponentError(f"malformed {part} data: {what}", part) from None


# -- tiles ---------------------------------------------------------------------------------------------------


def _load_tiles(data: Mapping[str, Any]) -> list[Tile]:
    _check_format(data, "laro-kamara-tiles/1")
    tiles = [_load_tile(item) for item in _items(data, "tiles")]
    ids = [tile.id for tile in tiles]
    for tile_id in ids:
        if ids.count(tile_id) > 1:
            raise ComponentError(f"tile {tile_id!r}: tile ids must be unique")
    wanted = {"centre": 1, "corner": 4, "edge": 4}
    for kind, count in wanted.items():
        found = sum(tile.kind == kind for tile in tiles)
        if found != count:
            raise ComponentError(f"a chamber needs 1 centre, 4 corner and 4 edge tiles; found {found} {kind}")
    return tiles


def _load_tile(item: Mapping[str, Any]) -> Tile:
    _check_keys(item, "tile", f"tile {item.get('id')!r}")
    tile_id = item["id"]
    if not isinstance(tile_id, str) or not _TILE_ID.fullmatch(tile_id):
        raise ComponentError(f"tile {tile_id!r}: an id is a short lowercase word (letters, digits, - or _)")
    name = f"tile {tile_id!r}"
    kind = item["kind"]
    if kind not in KINDS:
        raise ComponentError(f"{name}: kind must be one of {', '.join(KINDS)}; got {kind!r}")
    grid = item["grid"]
    if not (isinstance(grid, list) and len(grid) == 3 and all(isinstance(row, str) and len(row) == 3 for row in grid)):
        raise ComponentError(f"{name}: the grid must be three rows of three squares")
    cells = "".join(grid)
    if set(cells) - set(".#PTK"):
        raise ComponentError(f"{name}: grid squares are . # P T K; got {cells!r}")
    blocks = frozenset(i for i, ch in enumerate(cells) if ch == "#")
    paltiks = [i for i, ch in enumerate(cells) if ch == "P"]
    logos = [i for i, ch in enumerate(cells) if ch == "K"]
    tapos = frozenset(i for i, ch in enumerate(cells) if ch in "TK")
    if kind == "centre":
        if paltiks:
            raise ComponentError(f"{name}: the centre tile has no paltik")
        if len(logos) != 1:
            raise ComponentError(f"{name}: the centre tile carries exactly one Kamara logo square K")
    else:
        if len(paltiks) != 1:
            raise ComponentError(f"{name}: every corner and edge tile has exactly one paltik")
        if logos:
            raise ComponentError(f"{name}: only the centre tile carries the Kamara logo")
    faces_data = item["faces"]
    if not isinstance(faces_data, dict) or sorted(faces_data) != ["A", "B"]:
        raise ComponentError(f"{name}: a tile has exactly two faces, A and B")
    for label in "AB":
        if not isinstance(faces_data[label], Mapping):
            raise ComponentError(f"{name} face {label}: a face is an object")
        _check_keys(faces_data[label], "face", f"{name} face {label}")
    for label in "AB":  # a face may repeat the grid, but blocks, paltik and tapos are the same on both faces
        if faces_data[label].get("grid", grid) != grid:
            raise ComponentError(f"{name} face {label}: blocks, paltik and tapos must be the same on both faces")
    faces = (_load_face(name, kind, faces_data["A"], "A"), _load_face(name, kind, faces_data["B"], "B"))
    if kind != "centre" and faces[0].paltik == faces[1].paltik:
        raise ComponentError(f"{name}: faces A and B must show the paltik in different states")
    if kind != "centre" and (faces[0].paltik, faces[1].paltik) != ("light", "dark"):
        raise ComponentError(f"{name}: face A shows the paltik light and face B dark")
    tile = Tile(
        tile_id,
        kind,
        (grid[0], grid[1], grid[2]),
        faces,
        blocks,
        paltiks[0] if paltiks else None,
        tapos,
        logos[0] if logos else None,
    )
    for label, face in zip("AB", faces, strict=True):
        _check_face(name, tile, label, face)
    return tile


def _load_face(name: str, kind: str, data: Mapping[str, Any], label: str) -> Face:
    where = f"{name} face {label}"
    walls: set[tuple[int, int]] = set()
    wall_texts = data.get("walls", [])
    if not isinstance(wall_texts, list):
        raise ComponentError(f"{where}: walls must be a list")
    for text in wall_texts:
        walls |= _parse_wall(where, text)
    paltik = data.get("paltik")
    if kind == "centre":
        if paltik is not None:
            raise ComponentError(f"{where}: the centre tile has no paltik state")
    elif paltik not in STATES:
        raise ComponentError(f"{where}: the paltik state must be light or dark; got {paltik!r}")
    return Face(frozenset(walls), paltik)


def _parse_wall(where: str, text: Any) -> set[tuple[int, int]]:
    if not isinstance(text, str):
        raise ComponentError(f"{where}: a wall is a text like '0,1-1,1' or 'E0'; got {text!r}")
    side = re.fullmatch(r"([NESW])([0-2])", text)
    if side:
        direction, index = _SIDE_DIRECTION[side[1]], int(side[2])
        row, col = {0: (0, index), 2: (index, 2), 4: (2, index), 6: (index, 0)}[direction]
        return {(row * 3 + col, direction)}
    inner = re.fullmatch(r"([0-2]),([0-2])-([0-2]),([0-2])", text)
    if not inner:
        raise ComponentError(f"{where}: cannot read the wall {text!r} (use 'r,c-r,c' or a side and index like 'E0')")
    r1, c1, r2, c2 = (int(group) for group in inner.groups())
    for direction in ORTHOGONAL:
        dr, dc = DELTAS[direction]
        if (r1 + dr, c1 + dc) == (r2, c2):
            return {(r1 * 3 + c1, direction), (r2 * 3 + c2, (direction + 4) % 8)}
    raise ComponentError(f"{where}: the wall {text!r} must lie between two orthogonally adjacent squares")


def _check_face(name: str, tile: Tile, label: str, face: Face) -> None:
    where = f"{name} face {label}"
    border = _BORDER_SIDES[tile.kind]
    for direction in ORTHOGONAL:
        if direction in border:
            continue
        row, col = {0: (0, 1), 2: (1, 2), 4: (2, 1), 6: (1, 0)}[direction]
        cell = row * 3 + col
        side = DIRECTIONS[direction]
        if cell in tile.blocks or (cell, direction) in face.walls:
            raise ComponentError(f"{where}: the middle square of the inner {side} side must be open and unwalled")
    open_cells = [cell for cell in range(9) if cell not in tile.blocks]
    reached = {open_cells[0]}
    frontier = [open_cells[0]]
    while frontier:
        cell = frontier.pop()
        for target in _tile_steps(tile, face, cell):
            if target not in reached:
                reached.add(target)
                frontier.append(target)
    if len(reached) != len(open_cells):
        cut = ", ".join(f"{c // 3},{c % 3}" for c in open_cells if c not in reached)
        raise ComponentError(f"{where}: the open squares must be connected inside the tile; cut off: {cut}")


def _tile_steps(tile: Tile, face: Face, cell: int) -> list[int]:
    """Legal steps inside one tile (the Move rule, diagonals included), for the connectivity check."""
    row, col = divmod(cell, 3)
    steps = []
    for direction, (dr, dc) in enumerate(DELTAS):
        r, c = row + dr, col + dc
        if not (0 <= r < 3 and 0 <= c < 3) or r * 3 + c in tile.blocks:
            continue
        if direction % 2 == 0:
            if (cell, direction) not in face.walls:
                steps.append(r * 3 + c)
            continue
        vertical, horizontal = (0 if dr < 0 else 4), (2 if dc > 0 else 6)
        side_v, side_h = (row + dr) * 3 + col, row * 3 + col + dc
        if side_v in tile.blocks or side_h in tile.blocks:
            continue
        touching = ((cell, vertical), (cell, horizontal), (side_v, horizontal), (side_h, vertical))
        if not any(wall in face.walls for wall in touching):
            steps.append(r * 3 + c)
    return steps


# -- cards ---------------------------------------------------------------------------------------------------


def _load_yellow(data: Mapping[str, Any]) -> tuple[YellowCard, ...]:
    _check_format(data, "laro-kamara-yellow/1")
    cards: list[YellowCard] = []
    seen: set[str] = set()
    for item in _items(data, "cards"):
        _check_keys(item, "yellow card", f"yellow card {item.get('id')!r}")
        card_id = item["id"]
        if card_id not in CARD_IDS:
            raise ComponentError(f"yellow card {card_id!r}: ids are Y01 to Y32")
        if card_id in seen:
            raise ComponentError(f"yellow card {card_id!r}: card ids must be unique")
        seen.add(card_id)
        code = item["code"]
        if not isinstance(code, dict) or not code:
            raise ComponentError(f"yellow card {card_id!r}: the code must show at least one position")
        pairs = []
        for position, state in code.items():
            if position not in POSITIONS or state not in STATES:
                raise ComponentError(
                    f"yellow card {card_id!r}: code entries are a position ({' '.join(POSITIONS)}) "
                    f"and light or dark; got {position!r}: {state!r}"
                )
            pairs.append((POSITIONS.index(position), state == "light"))
        pairs.sort()
        shown = sum(1 << p for p, _ in pairs)
        light = sum(1 << p for p, is_light in pairs if is_light)
        cards.append(YellowCard(card_id, tuple(pairs), shown, light))
    if len(cards) < 8:
        raise ComponentError(f"the yellow deck needs at least 8 cards (one per player); got {len(cards)}")
    return tuple(cards)


def _load_green(data: Mapping[str, Any]) -> tuple[GreenCard, ...]:
    _check_format(data, "laro-kamara-green/1")
    cards: list[GreenCard] = []
    for item in _items(data, "cards"):
        _check_keys(item, "green card", f"green card {item.get('effect')!r}")
        effect = item["effect"]
        if effect not in EFFECTS:
            raise ComponentError(f"green card {effect!r}: the effects are {', '.join(EFFECTS)}")
        if any(card.effect == effect for card in cards):
            raise ComponentError(f"green card {effect!r}: each effect is listed once, with its count")
        count = item["count"]
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 50:
            raise ComponentError(f"green card {effect!r}: count must be a whole number from 0 to 50")
        cards.append(GreenCard(effect, str(item.get("name", effect)), count, str(item.get("text", ""))))
    return tuple(cards)


def _check_format(data: Mapping[str, Any], expected: str) -> None:
    if not isinstance(data, Mapping):
        raise ComponentError(f"component data must be a JSON object in the format {expected}")
    if data.get("format") != expected:
        raise ComponentError(f'component data must say "format": "{expected}"; got {data.get("format")!r}')
    _check_keys(data, expected, "component data")


def _check_keys(data: Mapping[str, Any], kind: str, where: str) -> None:
    unknown = sorted(str(key) for key in data if key not in _KEYS[kind])
    if unknown:
        allowed = ", ".join(sorted(_KEYS[kind]))
        raise ComponentError(f"{where}: unknown key(s) {', '.join(unknown)}; a {kind} has {allowed}")


def _items(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    items = data[key]
    if not isinstance(items, list) or not all(isinstance(item, Mapping) for item in items):
        raise ComponentError(f"{key!r} must be a list of objects")
    return items
