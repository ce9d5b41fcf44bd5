"""The actions of a turn and the eleven green effects: what each does, and which green plays are offered.

Each handler changes a fresh copy of the state (made by ``KamaraState.apply``) and spends the action.

>>> from laro.games.kamara import GAME
>>> EFFECTS.index("tulak") in range(len(EFFECTS))
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from laro.games.kamara.actions import (
    COLOURS,
    DIWA,
    EXCHANGE,
    FLIP,
    IKOT,
    KANDADO,
    KEEP,
    LIPAT,
    MATCH,
    MOVE,
    ORDER,
    PALITAN,
    PANAGINIP,
    PITIK,
    PLACE,
    PLAY_IGNORE,
    POKE,
    PORT,
    SIGLA,
    SILIP,
    TAGOS,
    TAWAG,
    TULAK,
    KamaraAction,
)
from laro.games.kamara.chamber import (
    CENTRE,
    OUTWARD,
    SLOT_KIND,
    SLOT_OF_SQUARE,
    SLOTS,
    canonical_cell,
    placed_square,
    square_name,
)
from laro.games.kamara.components import DELTAS, DIRECTIONS, EFFECTS
from laro.games.kamara.tables import (
    IKOT_ACTIONS,
    KANDADO_ACTIONS,
    LIPAT_ACTIONS,
    PALITAN_ACTIONS,
    PANAGINIP_ACTION,
    PITIK_ACTIONS,
    PLAY_IGNORE_ACTION,
    SIGLA_ACTION,
    SILIP_ACTION,
    TAGOS_ACTIONS,
    TAWAG_ACTIONS,
    TULAK_ACTIONS,
)

if TYPE_CHECKING:
    from laro.games.kamara.state import KamaraState

__all__ = ["HANDLERS", "play_actions", "why_illegal"]

Handler = Callable[["KamaraState", tuple[int, ...]], None]
_SIGLA, _PITIK, _IKOT, _PALITAN, _TULAK, _TAWAG, _LIPAT, _TAGOS, _KANDADO, _SILIP, _PANAGINIP = range(11)
_SWAP_PAIRS = tuple(PALITAN_ACTIONS)
_FLIPPABLE = tuple(PITIK_ACTIONS)


# -- which green plays are offered ---------------------------------------------------------------------------


def play_actions(state: KamaraState, player: int, occupied: int) -> list[KamaraAction]:
    """``play ignore`` and every use of the held green card that would do something."""
    effect = state.green[player]
    legal = [PLAY_IGNORE_ACTION]
    locks = state.locks
    if effect == _SIGLA:
        legal.append(SIGLA_ACTION)
    elif effect == _PITIK:
        legal += [PITIK_ACTIONS[slot] for slot in _FLIPPABLE if locks[slot] < 0]
    elif effect == _IKOT:
        if locks[CENTRE] < 0:
            legal += [IKOT_ACTIONS[1], IKOT_ACTIONS[3]]
    elif effect == _PALITAN:
        legal += [PALITAN_ACTIONS[a, b] for a, b in _SWAP_PAIRS if locks[a] < 0 and locks[b] < 0]
    elif effect == _TULAK:
        legal += _tulak_actions(state, player, occupied)
    elif effect == _TAWAG:
        legal += [TAWAG_ACTIONS[t] for t in state.geometry.tapos if not (occupied >> t) & 1]
    elif effect == _LIPAT:
        legal += [LIPAT_ACTIONS[state.colours[seat]] for seat in state.by_colour() if seat != player]
    elif effect == _TAGOS:
        through = state.geometry.through
        base = state.diwa[player] * 4
        legal += [TAGOS_ACTIONS[i] for i in range(4) if (t := through[base + i]) >= 0 and not (occupied >> t) & 1]
    elif effect == _KANDADO:
        legal += [KANDADO_ACTIONS[slot] for slot in range(9) if locks[slot] < 0]
    elif state.yellow_deck:  # silip and panaginip need cards to look at
        legal.append(SILIP_ACTION if effect == _SILIP else PANAGINIP_ACTION)
    return legal


def _tulak_actions(state: KamaraState, player: int, occupied: int) -> list[KamaraAction]:
    """Another diwa makes one or two legal Move steps (its old square is free after the first)."""
    step = state.geometry.step
    legal = []
    for seat in state.by_colour():
        if seat == player:
            continue
        colour, start = state.colours[seat], state.diwa[seat]
        moved = occupied & ~(1 << start)
        for first in range(8):
            middle = step[start * 8 + first]
            if middle < 0 or (occupied >> middle) & 1:
                continue
            legal.append(TULAK_ACTIONS[colour, first])
            after = moved | (1 << middle)
            for second in range(8):
                end = step[middle * 8 + second]
                if end >= 0 and not (after >> end) & 1:
                    legal.append(TULAK_ACTIONS[colour, first, second])
    return legal


# -- the actions of a turn -----------------------------------------------------------------------------------


def _move(state: KamaraState, args: tuple[int, ...]) -> None:
    player: int = state.current_player  # type: ignore[assignment]
    state.set_diwa(player, state.geometry.step[state.diwa[player] * 8 + args[0]])
    state.spend()


def _flip(state: KamaraState, args: tuple[int, ...]) -> None:
    """Turn the tile under the paltik; then draw a green card if none is held and none was drawn this turn."""
    player: int = state.current_player  # type: ignore[assignment]
    _flip_slot(state, state.geometry.paltik_slot[state.diwa[player]])
    if state.green[player] < 0 and not state.green_drawn and state.green_deck:
        green = list(state.green)
        green[player] = state.green_deck[0]
        state.green = tuple(green)
        state.green_deck = state.green_deck[1:]
        state.green_drawn = True
    state.spend()


def _flip_slot(state: KamaraState, slot: int) -> None:
    tiles = list(state.tiles)
    number, face, turns = tiles[slot]  # type: ignore[misc]
    tiles[slot] = (number, 1 - face, turns)
    state.set_tiles(tuple(tiles))


def _match(state: KamaraState, args: tuple[int, ...]) -> None:
    player: int = state.current_player  # type: ignore[assignment]
    matched = list(state.matched)
    matched[player] += (state.yellow[player],)
    state.matched = tuple(matched)
    state.set_yellow(player, -1)
    if len(matched[player]) >= state.options["target_matches"]:
        state.finish((player,))
    else:
        state.spend()


def _exchange(state: KamaraState, args: tuple[int, ...]) -> None:
    """Draw the top yellow card, then recycle the old one (once per turn)."""
    player: int = state.current_player  # type: ignore[assignment]
    old = state.yellow[player]
    state.set_yellow(player, state.draw_yellow(1)[0])
    state.yellow_deck += (old,)
    state.exchanged = True
    state.spend()


def _port(state: KamaraState, args: tuple[int, ...]) -> None:
    state.set_diwa(state.current_player, args[0])  # type: ignore[arg-type]
    state.spend()


def _poke(state: KamaraState, args: tuple[int, ...]) -> None:
    colour, square = args
    state.set_diwa(state.seat_of_colour(colour), square)
    state.spend()


# -- green effects: ``play`` recycles the card, then the effect happens ---------------------------------------


def _play(effect: Callable[[KamaraState, int, tuple[int, ...]], None] | None) -> Handler:
    def handler(state: KamaraState, args: tuple[int, ...]) -> None:
        player: int = state.current_player  # type: ignore[assignment]
        state.green_deck += (state.green[player],)
        green = list(state.green)
        green[player] = -1
        state.green = tuple(green)
        if effect is not None:
            effect(state, player, args)
        state.spend()

    return handler


def _sigla(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    state.actions_left += 3


def _pitik(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    _flip_slot(state, args[0])


def _ikot(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    """Turn the centre tile a quarter (1 = clockwise, 3 = counter-clockwise); diwa on it turn along."""
    tiles = list(state.tiles)
    number, face, turns = tiles[CENTRE]  # type: ignore[misc]
    tiles[CENTRE] = (number, face, (turns + args[0]) % 4)
    state.set_tiles(tuple(tiles))
    state.diwa = tuple(
        placed_square(CENTRE, canonical_cell(sq, turns), turns + args[0]) if _on_slot(sq, CENTRE) else sq
        for sq in state.diwa
    )


def _palitan(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    """Swap two tiles of one kind; each keeps its face and faces out; diwa ride along on their square."""
    a, b = args
    tiles = list(state.tiles)
    tile_a, tile_b = tiles[a], tiles[b]
    assert tile_a is not None and tile_b is not None
    tiles[a] = (tile_b[0], tile_b[1], OUTWARD[a])
    tiles[b] = (tile_a[0], tile_a[1], OUTWARD[b])
    state.set_tiles(tuple(tiles))

    def ride(square: int) -> int:
        if _on_slot(square, a):
            return placed_square(b, canonical_cell(square, tile_a[2]), OUTWARD[b])
        if _on_slot(square, b):
            return placed_square(a, canonical_cell(square, tile_b[2]), OUTWARD[a])
        return square

    state.diwa = tuple(ride(sq) for sq in state.diwa)


def _on_slot(square: int, slot: int) -> bool:
    return square >= 0 and (square // 27) * 3 + (square % 9) // 3 == slot


def _tulak(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    seat = state.seat_of_colour(args[0])
    square = state.diwa[seat]
    for direction in args[1:]:
        square = state.geometry.step[square * 8 + direction]
    state.set_diwa(seat, square)


def _tawag(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    state.set_diwa(player, args[0])


def _lipat(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    other = state.seat_of_colour(args[0])
    mine, theirs = state.diwa[player], state.diwa[other]
    state.set_diwa(player, theirs)
    state.set_diwa(other, mine)


def _tagos(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    state.set_diwa(player, state.geometry.through[state.diwa[player] * 4 + args[0] // 2])


def _kandado(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    locks = list(state.locks)
    locks[args[0]] = player
    state.locks = tuple(locks)


def _silip(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    """See the top three yellow cards; ``order`` puts them back. Others no longer know the top's order."""
    state.pending = (ORDER, min(3, len(state.yellow_deck)))
    state.known = ((),) * state.num_players


def _panaginip(state: KamaraState, player: int, args: tuple[int, ...]) -> None:
    """Draw two yellow cards; ``keep`` one of them or the held card (no choice with only one card)."""
    drawn = state.draw_yellow(2)
    if len(drawn) == 1 and state.yellow[player] < 0:
        state.set_yellow(player, drawn[0])
    else:
        state.pending = (KEEP, *drawn)


HANDLERS: dict[int, Handler] = {
    MOVE: _move,
    FLIP: _flip,
    MATCH: _match,
    EXCHANGE: _exchange,
    PORT: _port,
    POKE: _poke,
    PLAY_IGNORE: _play(None),
    SIGLA: _play(_sigla),
    PITIK: _play(_pitik),
    IKOT: _play(_ikot),
    PALITAN: _play(_palitan),
    TULAK: _play(_tulak),
    TAWAG: _play(_tawag),
    LIPAT: _play(_lipat),
    TAGOS: _play(_tagos),
    KANDADO: _play(_kandado),
    SILIP: _play(_silip),
    PANAGINIP: _play(_panaginip),
}


# -- why an action is not allowed ----------------------------------------------------------------------------


def why_illegal(state: KamaraState, action: KamaraAction) -> str:
    """A short reason, in the rules' words, why ``action`` is not legal now."""
    kind = action.kind
    phase = state.phase
    if phase == "tiles":
        return _why_place(state, action) if kind == PLACE else "the chamber is being built: place a tile"
    if phase == "diwa":
        return _why_diwa(state, action) if kind == DIWA else "each player chooses a diwa and its square first"
    if kind in (PLACE, DIWA):
        return "the setup is over"
    if state.pending is not None:
        decision = "order" if state.pending[0] == ORDER else "keep"
        return f"first decide what your green card asks: {decision}"
    if kind in (ORDER, KEEP):
        return "there is no decision to make"
    player: int = state.current_player  # type: ignore[assignment]
    if kind >= PLAY_IGNORE and kind < ORDER:
        effect = state.green[player]
        if effect < 0:
            return "you hold no green card"
        if kind != PLAY_IGNORE and EFFECTS[kind - SIGLA] != EFFECTS[effect]:
            return f"your green card is {EFFECTS[effect]}"
        return "that would do nothing here (a locked tile, a wall, a block, an occupied square or no card left)"
    return _REASONS.get(kind, _why_square)(state, action)


def _why_place(state: KamaraState, action: KamaraAction) -> str:
    number, slot = action.args[:2]
    tile = state.components.tiles[number]
    if number not in state.pool:
        return f"tile {tile.id} is already in the chamber"
    if state.tiles[slot] is not None:
        return f"slot {SLOTS[slot]} is taken"
    return f"{tile.kind} tiles go only into {tile.kind} slots, not {SLOTS[slot]} ({SLOT_KIND[slot]})"


def _why_diwa(state: KamaraState, action: KamaraAction) -> str:
    colour, square = action.args
    if colour in state.colours:
        return f"{COLOURS[colour]} is taken"
    where = square_name(square)
    return f"a diwa starts on an empty square of a tile with a paltik, not on a block or the paltik; not {where}"


def _why_square(state: KamaraState, action: KamaraAction) -> str:
    if action.kind == MOVE:
        return f"you cannot step {DIRECTIONS[action.args[0]]}: {_why_no_step(state, action.args[0])}"
    if action.kind == PORT:
        return f"port needs you on a tapos and another, empty tapos as target ({_why_no_port(state, action.args[0])})"
    rule = "poke needs a diwa one step from you, moved one legal step to an empty square next to you"
    return f"{rule} ({_why_no_poke(state, action)})"


def _why_no_step(state: KamaraState, direction: int) -> str:
    """Which part of the Move rule stops a step (the first that applies)."""
    geometry = state.geometry
    here = state.diwa[state.current_player]  # type: ignore[index]
    row, col = divmod(here, 9)
    dr, dc = DELTAS[direction]
    if not (0 <= row + dr < 9 and 0 <= col + dc < 9):
        return "the yellow border is there"
    target = here + 9 * dr + dc
    if (geometry.blocked >> target) & 1:
        return f"{square_name(target)} is a block"
    if geometry.step[here * 8 + direction] >= 0:
        colour = next(c for seat, c in enumerate(state.colours) if state.diwa[seat] == target)
        return f"the {COLOURS[colour]} diwa stands on {square_name(target)}"
    if direction % 2 == 0:
        return f"a thick line lies between {square_name(here)} and {square_name(target)}"
    if SLOT_OF_SQUARE[here] != SLOT_OF_SQUARE[target]:
        return "a diagonal step stays inside one tile"
    if (geometry.blocked >> (here + 9 * dr)) & 1 or (geometry.blocked >> (here + dc)) & 1:
        return "a block stands beside the diagonal"
    return "a thick line touches the corner it crosses"


def _why_no_port(state: KamaraState, target: int) -> str:
    geometry = state.geometry
    here = state.diwa[state.current_player]  # type: ignore[index]
    if not (geometry.tapos_mask >> here) & 1:
        return f"{square_name(here)} is not a tapos"
    if not (geometry.tapos_mask >> target) & 1:
        return f"{square_name(target)} is not a tapos"
    return "you are there already" if target == here else f"a diwa stands on {square_name(target)}"


def _why_no_poke(state: KamaraState, action: KamaraAction) -> str:
    colour, target = action.args
    if colour not in state.colours or state.colours.index(colour) == state.current_player:
        return f"there is no other {COLOURS[colour]} diwa"
    near = state.geometry.neighbours[state.diwa[state.current_player]]  # type: ignore[index]
    if not (near >> state.diwa[state.colours.index(colour)]) & 1:
        return f"the {COLOURS[colour]} diwa is not one step from you"
    return f"{square_name(target)} is not an empty square one step from both of you"


_REASONS: dict[int, Callable[[KamaraState, KamaraAction], str]] = {
    FLIP: lambda state, action: "flip needs you on a paltik of an unlocked tile",
    MATCH: lambda state, action: "match needs you on a tapos with a yellow card the chamber shows",
    EXCHANGE: lambda state, action: "exchange needs a yellow card, an unused exchange this turn and a yellow deck",
}
