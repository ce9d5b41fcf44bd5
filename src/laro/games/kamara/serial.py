"""Kamara states as JSON: the full state (``to_json`` / ``from_json``) and each seat's observation.

>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(num_players=3, seed=11)
>>> data = to_json(state)
>>> data["phase"], len(data["yellow_deck"]), to_json(from_json(GAME, data)) == data
('tiles', 29, True)
>>> observation(state, 0)["yellow"].count("?")
2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from laro.core.checks import per_seat, seat_number, whole_number
from laro.core.errors import OptionError, StateError
from laro.core.game import JSONDict
from laro.games.kamara.actions import COLOURS, KEEP, ORDER
from laro.games.kamara.chamber import CENTRE, OUTWARD, SLOT_KIND, SLOTS, square_index, square_name
from laro.games.kamara.components import CARD_IDS, EFFECTS

if TYPE_CHECKING:
    from laro.games.kamara.game import KamaraGame
    from laro.games.kamara.state import KamaraState

__all__ = ["from_json", "observation", "public_text", "to_json"]

_PHASES = ("tiles", "diwa", "play", "over")


def _card(card: int) -> str | None:
    return CARD_IDS[card] if card >= 0 else None


def _effect(effect: int) -> str | None:
    return EFFECTS[effect] if effect >= 0 else None


def _tiles(state: KamaraState) -> dict[str, Any]:
    tiles = state.components.tiles
    return {
        SLOTS[slot]: None
        if placed is None
        else {"tile": tiles[placed[0]].id, "face": "AB"[placed[1]], "rotation": 90 * placed[2]}
        for slot, placed in enumerate(state.tiles)
    }


def _public(state: KamaraState) -> JSONDict:
    """What every seat and spectator may know."""
    n = state.num_players
    return {
        "game": "kamara",
        "num_players": n,
        "options": dict(state.options),
        "phase": state.phase,
        "tiles": _tiles(state),
        "pool": [state.components.tiles[number].id for number in state.pool],
        "diwa": {COLOURS[state.colours[s]]: square_name(state.diwa[s]) for s in state.by_colour()},
        "colours": [COLOURS[c] if c >= 0 else None for c in state.colours],
        "matched": [[CARD_IDS[card] for card in cards] for cards in state.matched],
        "current_player": state.current_player,
        "actions_left": state.actions_left,
        "exchanged": state.exchanged,
        "green_drawn": state.green_drawn,
        "locks": {SLOTS[slot]: seat for slot, seat in enumerate(state.locks) if seat >= 0},
        "round": state.round,
        "elder": state.elder,
        "first_player": None if state.first_player < 0 else state.first_player,
        "winners": list(state.winners),
    }


def to_json(state: KamaraState) -> JSONDict:
    data = _public(state)
    pending = state.pending
    data.update(
        rules_version=state.game.rules_version,
        seed=state.seed,
        yellow=[_card(card) for card in state.yellow],
        green=[_effect(effect) for effect in state.green],
        yellow_deck=[CARD_IDS[card] for card in state.yellow_deck],
        green_deck=[EFFECTS[effect] for effect in state.green_deck],
        pending=None if pending is None else _pending(pending, True),
        known=[[CARD_IDS[card] for card in seen] for seen in state.known],
    )
    return data


def _pending(pending: tuple[int, ...], mine: bool) -> JSONDict:
    if pending[0] == ORDER:
        return {"decision": "order", "count": pending[1]}
    shown: JSONDict = {"decision": "keep", "count": len(pending) - 1}
    if mine:
        shown["drawn"] = [CARD_IDS[card] for card in pending[1:]]
    return shown


def observation(state: KamaraState, seat: int | None) -> JSONDict:
    """What ``seat`` may know: the public state, its own cards (all held cards with ``open_cards``); with
    ``seat=None``, what a spectator may know."""
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players):
        raise ValueError(f"seat must be 0..{state.num_players - 1}; got {seat!r}")
    data = _public(state)
    data["seat"] = seat
    open_cards = state.options["open_cards"]
    data["yellow"] = [
        _card(card) if card < 0 or open_cards or s == seat else "?" for s, card in enumerate(state.yellow)
    ]
    data["green"] = [
        _effect(effect) if effect < 0 or open_cards or s == seat else "?" for s, effect in enumerate(state.green)
    ]
    own = -1 if seat is None else state.yellow[seat]
    data["code"] = None if own < 0 else state.components.yellow_by_number[own].code_text()
    data["yellow_deck_count"] = len(state.yellow_deck)
    data["green_deck_count"] = len(state.green_deck)
    pending = state.pending
    data["pending"] = None if pending is None else _pending(pending, state.current_player == seat)
    if pending is not None and pending[0] == ORDER and state.current_player == seat:
        data["pending"]["cards"] = [CARD_IDS[card] for card in state.yellow_deck[: pending[1]]]
    data["seen_on_top"] = [] if seat is None else [CARD_IDS[card] for card in state.known[seat]]
    data["is_over"] = state.is_over
    data["scores"] = list(state.scores)
    return data


def public_text(action: object) -> str:
    """An action's text as others may hear it: ``order`` and ``keep`` name cards, so only their word is told."""
    text = str(action)
    word = text.split(" ", 1)[0]
    return word if word in ("order", "keep") else text


# -- restoring a state ---------------------------------------------------------------------------------------


def from_json(game: KamaraGame, data: Mapping[str, Any]) -> KamaraState:
    """Restore a state saved by ``to_json``; anything malformed or impossible raises :class:`StateError`."""
    try:
        return _from_json(game, data)
    except (StateError, OptionError):
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        what = f"missing key {error}" if isinstance(error, KeyError) else str(error)
        raise StateError(f"not a valid Kamara state: {what}") from None


def _from_json(game: KamaraGame, data: Mapping[str, Any]) -> KamaraState:
    if not isinstance(data, Mapping):
        raise StateError("a Kamara state is a JSON object")
    if data.get("game", "kamara") != "kamara":
        raise StateError(f"this is a {data.get('game')!r} state, not Kamara")
    n = data["num_players"]
    state = game.blank_state(n, data.get("options"), whole_number(data["seed"], "seed"))
    components = state.components
    phase = data["phase"]
    if phase not in _PHASES:
        raise StateError(f"phase must be one of {', '.join(_PHASES)}; got {phase!r}")
    state.phase = phase
    state.elder = seat_number(data["elder"], n, "elder")
    tiles_data = data["tiles"]
    placed: list[tuple[int, int, int] | None] = []
    for slot, name in enumerate(SLOTS):
        item = tiles_data[name]
        if item is None:
            placed.append(None)
            continue
        number = components.tile_number[item["tile"]]
        if components.tiles[number].kind != SLOT_KIND[slot]:
            raise StateError(f"tile {item['tile']} cannot lie in slot {name}")
        turns, rest = divmod(whole_number(item["rotation"], "rotation"), 90)
        if rest or turns > 3 or (slot != CENTRE and turns != OUTWARD[slot]):
            raise StateError(f"the tile in {name} has an impossible rotation {item['rotation']}")
        placed.append((number, "AB".index(item["face"]), turns))
    pool = tuple(sorted(components.tile_number[tile] for tile in data["pool"]))
    used = [p[0] for p in placed if p is not None]
    if sorted(used + list(pool)) != list(range(9)):
        raise StateError("every tile must be either in the chamber or in the pool, once")
    if (phase == "tiles") == (not pool):
        raise StateError("tiles are placed while the pool holds tiles, and only then")
    state.set_tiles(tuple(placed))
    state.pool = pool
    colours = [None if c is None else COLOURS.index(c) for c in per_seat(data["colours"], "colours", n)]
    state.colours = tuple(-1 if c is None else c for c in colours)
    diwa_data = data["diwa"]
    state.diwa = tuple(-1 if c is None else square_index(diwa_data[COLOURS[c]]) for c in colours)
    if len(diwa_data) != sum(c is not None for c in colours) or len(set(state.colours) - {-1}) != len(diwa_data):
        raise StateError("each seat with a colour has one diwa, and colours are distinct")
    if phase in ("play", "over") and -1 in state.diwa:
        raise StateError("every player has a diwa once play begins")
    if phase == "tiles" and diwa_data:
        raise StateError("no diwa is placed before the chamber is complete")
    if not pool:
        _check_squares(state)
    state.yellow = tuple(-1 if c is None else CARD_IDS.index(c) for c in per_seat(data["yellow"], "yellow", n))
    state.green = tuple(-1 if e is None else EFFECTS.index(e) for e in per_seat(data["green"], "green", n))
    state.matched = tuple(tuple(CARD_IDS.index(c) for c in cards) for cards in per_seat(data["matched"], "matched", n))
    state.yellow_deck = tuple(CARD_IDS.index(c) for c in data["yellow_deck"])
    state.green_deck = tuple(EFFECTS.index(e) for e in data["green_deck"])
    state.known = tuple(tuple(CARD_IDS.index(c) for c in seen) for seen in per_seat(data["known"], "known", n))
    state.pending = _read_pending(data["pending"])
    _check_cards(state)
    state.current_player = None if data["current_player"] is None else seat_number(data["current_player"], n, "current")
    state.actions_left = whole_number(data["actions_left"], "actions_left")
    state.exchanged = _bool(data["exchanged"], "exchanged")
    state.green_drawn = _bool(data["green_drawn"], "green_drawn")
    locks = [-1] * 9
    for name, seat in data["locks"].items():
        locks[SLOTS.index(name)] = seat_number(seat, n, "locks")
    state.locks = tuple(locks)
    state.round = whole_number(data["round"], "round")
    first = data["first_player"]
    state.first_player = -1 if first is None else seat_number(first, n, "first_player")
    state.winners = tuple(seat_number(s, n, "winners") for s in data["winners"])
    if (phase == "over") != (state.current_player is None) or (phase == "over") != bool(state.winners):
        raise StateError("a game is over exactly when it has winners and no current player")
    if phase == "play" and state.first_player < 0:
        raise StateError("a game in play has a first player")
    if state.pending is not None and phase != "play":
        raise StateError("decisions are made only during play")
    if state.pending is not None:
        _check_pending(state)
    return state


def _check_pending(state: KamaraState) -> None:
    """A pending decision is one that silip or panaginip can leave: nothing changes the deck before it."""
    pending: tuple[int, ...] = state.pending  # type: ignore[assignment]
    left = len(state.yellow_deck)
    if pending[0] == ORDER:
        if pending[1] != min(3, left):
            raise StateError("an order decision covers the top three yellow cards (all of them, if fewer are left)")
        return
    drawn = len(pending) - 1
    own = state.yellow[state.current_player]  # type: ignore[index]
    if not (drawn == 2 or (drawn == 1 and left == 0 and own >= 0)):
        raise StateError("a keep decision follows a draw of two cards (one, if it was the last), with a choice")


def _check_squares(state: KamaraState) -> None:
    geometry = state.geometry
    squares = [sq for sq in state.diwa if sq >= 0]
    if len(set(squares)) != len(squares):
        raise StateError("two diwa cannot share a square")
    if any((geometry.blocked >> sq) & 1 for sq in squares):
        raise StateError("a diwa cannot stand on a block")


def _check_cards(state: KamaraState) -> None:
    """Every yellow card of the set is exactly once in a hand, a match, the deck or a pending draw; green too."""
    components = state.components
    pending = state.pending[1:] if state.pending is not None and state.pending[0] == KEEP else ()
    yellow = [c for c in state.yellow if c >= 0] + [c for m in state.matched for c in m] + [*state.yellow_deck]
    yellow += pending
    expected = sorted(CARD_IDS.index(card.id) for card in components.yellow)
    if sorted(yellow) != expected:
        raise StateError("the yellow cards must each be once in a hand, a match or the deck")
    green = Counter([e for e in state.green if e >= 0] + [*state.green_deck])
    if green != Counter(components.green_deck):
        raise StateError("the green cards must each be once in a hand or the deck")
    for seen in state.known:
        if seen and state.yellow_deck[: len(seen)] != seen:
            raise StateError("what silip showed must still be on top of the yellow deck")


def _read_pending(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    if value["decision"] == "order":
        count = whole_number(value["count"], "pending count")
        if not 1 <= count <= 3:
            raise StateError("an order decision covers one to three cards")
        return (ORDER, count)
    if value["decision"] == "keep":
        return (KEEP, *(CARD_IDS.index(card) for card in value["drawn"]))
    raise StateError(f"unknown decision {value['decision']!r}")


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise StateError(f"{name} must be true or false; got {value!r}")
    return value
