"""Every Kamara action, with its canonical text (the rules page's notation) and a dense index.

The index space is the same for every component set: ``place`` actions are numbered by the tile's place in
the set (centre, corners, edges), so only their texts (the tile ids) depend on the set.

>>> space = action_space(default_components())
>>> action = space.parse(" play  TULAK red n ne ")
>>> action, space.by_index[action.index] is action
(KamaraAction('play tulak red N NE'), True)
>>> space.parse("place sulok NW B").index
9
>>> space.parse("play palitan NE NW")
KamaraAction('play palitan NW NE')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import permutations

from laro.core.errors import MalformedActionError
from laro.games.kamara.chamber import SLOT_KIND, SLOTS, square_name
from laro.games.kamara.components import CARD_IDS, DIRECTIONS, ORTHOGONAL, Components, default_components

__all__ = [
    "COLOURS",
    "DIWA",
    "END",
    "EXCHANGE",
    "FLIP",
    "IKOT",
    "KANDADO",
    "KEEP",
    "LIPAT",
    "MATCH",
    "MOVE",
    "ORDER",
    "PALITAN",
    "PANAGINIP",
    "PITIK",
    "PLACE",
    "PLAY_IGNORE",
    "POKE",
    "PORT",
    "SIGLA",
    "SILIP",
    "TAGOS",
    "TAWAG",
    "TULAK",
    "ActionSpace",
    "KamaraAction",
    "action_space",
]

COLOURS = ("red", "blue", "orange", "purple", "pink", "white", "black", "teal")

# Action kinds (``KamaraAction.kind``), in index order.
(PLACE, DIWA, MOVE, FLIP, MATCH, EXCHANGE, PORT, POKE, PLAY_IGNORE, SIGLA, PITIK, IKOT, PALITAN, TULAK, TAWAG,
 LIPAT, TAGOS, KANDADO, SILIP, PANAGINIP, ORDER, KEEP, END) = range(23)  # fmt: skip


class KamaraAction:
    """One action. ``kind`` is one of the constants above; ``args`` its decoded arguments (numbers)."""

    __slots__ = ("args", "index", "kind", "text")

    def __init__(self, index: int, kind: int, args: tuple[int, ...], text: str) -> None:
        self.index = index
        self.kind = kind
        self.args = args
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"KamaraAction({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, KamaraAction) and (other.index, other.text) == (self.index, self.text)
        )

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _default_action, (self.index,)


def _default_action(index: int) -> KamaraAction:
    return action_space(default_components()).by_index[index]


# Slot pairs of one kind that palitan may swap, and the corner/edge slots pitik may flip.
SWAP_PAIRS = tuple((a, b) for a in range(9) for b in range(a + 1, 9) if SLOT_KIND[a] == SLOT_KIND[b] != "centre")
FLIPPABLE = tuple(slot for slot in range(9) if SLOT_KIND[slot] != "centre")


def _place_specs(components: Components) -> Iterator[tuple[tuple[int, ...], str]]:
    """``place`` actions: tile, slot, face and (centre only) rotation."""
    for number, tile in enumerate(components.tiles):
        for slot in range(9):
            if SLOT_KIND[slot] != tile.kind:
                continue
            for face in (0, 1):
                if tile.kind == "centre":
                    for turns in range(4):
                        yield (number, slot, face, turns), f"place {tile.id} {SLOTS[slot]} {'AB'[face]} {90 * turns}"
                else:
                    yield (number, slot, face), f"place {tile.id} {SLOTS[slot]} {'AB'[face]}"


def _fixed_specs() -> Iterator[tuple[int, tuple[int, ...], str]]:
    """Every action but ``place``, in index order."""
    squares = range(81)
    for colour, name in enumerate(COLOURS):
        for square in squares:
            yield DIWA, (colour, square), f"diwa {name} {square_name(square)}"
    for direction, name in enumerate(DIRECTIONS):
        yield MOVE, (direction,), f"move {name}"
    yield FLIP, (), "flip"
    yield MATCH, (), "match"
    yield EXCHANGE, (), "exchange"
    for square in squares:
        yield PORT, (square,), f"port {square_name(square)}"
    for colour, name in enumerate(COLOURS):
        for square in squares:
            yield POKE, (colour, square), f"poke {name} {square_name(square)}"
    yield PLAY_IGNORE, (), "play ignore"
    yield SIGLA, (), "play sigla"
    for slot in FLIPPABLE:
        yield PITIK, (slot,), f"play pitik {SLOTS[slot]}"
    yield IKOT, (1,), "play ikot cw"
    yield IKOT, (3,), "play ikot ccw"
    for a, b in SWAP_PAIRS:
        yield PALITAN, (a, b), f"play palitan {SLOTS[a]} {SLOTS[b]}"
    for colour, name in enumerate(COLOURS):
        for first, first_name in enumerate(DIRECTIONS):
            yield TULAK, (colour, first), f"play tulak {name} {first_name}"
            for second, second_name in enumerate(DIRECTIONS):
                yield TULAK, (colour, first, second), f"play tulak {name} {first_name} {second_name}"
    for square in squares:
        yield TAWAG, (square,), f"play tawag {square_name(square)}"
    for colour, name in enumerate(COLOURS):
        yield LIPAT, (colour,), f"play lipat {name}"
    for direction in ORTHOGONAL:
        yield TAGOS, (direction,), f"play tagos {DIRECTIONS[direction]}"
    for slot in range(9):
        yield KANDADO, (slot,), f"play kandado {SLOTS[slot]}"
    yield SILIP, (), "play silip"
    yield PANAGINIP, (), "play panaginip"
    for size in (1, 2, 3):
        for cards in permutations(range(len(CARD_IDS)), size):
            yield ORDER, cards, "order " + " ".join(CARD_IDS[card] for card in cards)
    for card, card_id in enumerate(CARD_IDS):
        yield KEEP, (card,), f"keep {card_id}"
    yield END, (), "end"


@dataclass(frozen=True, slots=True)
class ActionSpace:
    """All actions of one component set, by index and by (normalised) text."""

    by_index: tuple[KamaraAction, ...]
    by_text: dict[str, KamaraAction]

    def parse(self, text: str) -> KamaraAction:
        """The action named by ``text``: case and spacing are forgiven, nothing else."""
        action = self.by_text.get(" ".join(str(text).split()).lower())
        if action is None:
            raise MalformedActionError(f"{text!r} is not a Kamara action; {_FORMS}")
        return action

    def from_index(self, index: int) -> KamaraAction:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.by_index):
            raise MalformedActionError(f"action index must be 0..{len(self.by_index) - 1}; got {index!r}")
        return self.by_index[index]


_FORMS = (
    "actions are: place <tile> <slot> <face> [<rotation>], diwa <colour> <square>, move <dir>, flip, match, "
    "exchange, port <square>, poke <colour> <square>, play <effect> [args], play ignore, order <id>..., "
    "keep <id>, end"
)
_PLACE_COUNT = 72


def _build(components: Components, fixed: tuple[KamaraAction, ...] = ()) -> ActionSpace:
    actions = [KamaraAction(i, PLACE, args, text) for i, (args, text) in enumerate(_place_specs(components))]
    if len(actions) != _PLACE_COUNT:
        raise AssertionError("a chamber has 72 ways to place its tiles")
    if fixed:
        actions += fixed
    else:
        actions += [KamaraAction(i, kind, args, text) for i, (kind, args, text) in enumerate(_fixed_specs(), 72)]
    by_text = {action.text.lower(): action for action in actions}
    for action in actions:  # two slots to swap may be named in either order
        if action.kind == PALITAN:
            a, b = action.args
            by_text[f"play palitan {SLOTS[b]} {SLOTS[a]}".lower()] = action
    return ActionSpace(tuple(actions), by_text)


def action_space(components: Components) -> ActionSpace:
    """The actions of a component set (cached on it); all but ``place`` are shared by every set."""
    space: ActionSpace | None = components.action_cache.get("actions")
    if space is None:
        default = default_components()
        if components is default:
            space = _build(default)
        else:
            space = _build(components, action_space(default).by_index[_PLACE_COUNT:])
        components.action_cache["actions"] = space
    return space
