"""The component data and its validator (``shared/rules/kamara.md`` sections 1 and 2): the default set loads, and
a broken tile or card set is refused with a message naming the tile or card and the rule it breaks."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from laro.core import OptionError
from laro.games.kamara import GAME, ComponentError, default_components, load_components
from laro.games.kamara.chamber import CENTRE, OUTWARD, chamber_geometry
from laro.games.kamara.components import DEFAULT_DATA, EFFECTS
from laro.sim.baselines.kamara_uncached import reference_geometry

Change = Callable[[dict[str, Any]], None]


def _tiles() -> dict[str, Any]:
    return copy.deepcopy(DEFAULT_DATA["tiles"])


def _tile(data: dict[str, Any], tile_id: str) -> dict[str, Any]:
    tile: dict[str, Any] = next(tile for tile in data["tiles"] if tile["id"] == tile_id)
    return tile


# -- the default set ------------------------------------------------------------------------------------------


def test_the_default_set_loads() -> None:
    """Components: the package data is one centre, four corner and four edge tiles, 32 yellow cards and the 24
    green cards of eleven effects."""
    components = default_components()
    assert [(tile.id, tile.kind) for tile in components.tiles] == [
        ("kamara", "centre"),
        ("sulok", "corner"),
        ("balon", "corner"),
        ("hagdan", "corner"),
        ("haligi", "corner"),
        ("pinto", "edge"),
        ("bintana", "edge"),
        ("pasilyo", "edge"),
        ("silid", "edge"),
    ]
    assert [card.id for card in components.yellow] == [f"Y{n:02d}" for n in range(1, 33)]
    assert len(components.green_deck) == 24 and [card.effect for card in components.green] == list(EFFECTS)
    assert {card.effect: card.count for card in components.green} == {
        effect: 3 if effect in ("sigla", "pitik") else 2 for effect in EFFECTS
    }
    for tile in components.tiles:
        assert (tile.paltik is None) == (tile.kind == "centre")
        assert tile.kind == "centre" or [face.paltik for face in tile.faces] == ["light", "dark"]
    assert all(1 <= len(card.code) <= 8 for card in components.yellow)


def test_loading_does_not_change_the_data() -> None:
    """Components: loading another set leaves the default data as it was."""
    before = copy.deepcopy(DEFAULT_DATA)
    load_components(tiles=_tiles())
    assert before == DEFAULT_DATA


# -- broken tiles ---------------------------------------------------------------------------------------------


def _set_grid(tile_id: str, *rows: str) -> Change:
    return lambda data: _tile(data, tile_id).update(grid=list(rows))


def _face(tile_id: str, face: str, **changes: Any) -> Change:
    return lambda data: _tile(data, tile_id)["faces"][face].update(changes)


def _walls(tile_id: str, face: str, *walls: Any) -> Change:
    return lambda data: _tile(data, tile_id)["faces"][face]["walls"].extend(walls)


def _tile_update(tile_id: str, **changes: Any) -> Change:
    return lambda data: _tile(data, tile_id).update(changes)


def _paltik_states(tile_id: str, a: str, b: str) -> Change:
    def change(data: dict[str, Any]) -> None:
        _tile(data, tile_id)["faces"]["A"]["paltik"] = a
        _tile(data, tile_id)["faces"]["B"]["paltik"] = b

    return change


def _drop(tile_id: str) -> Change:
    return lambda data: data["tiles"].remove(_tile(data, tile_id))


def _append_copy(tile_id: str, new_id: str) -> Change:
    def change(data: dict[str, Any]) -> None:
        tile = copy.deepcopy(_tile(data, tile_id))
        tile["id"] = new_id
        data["tiles"].append(tile)

    return change


BROKEN_TILES: list[tuple[str, Change, str]] = [
    # blocks, paltik and tapos are the same on both faces
    (
        "block moved on B",
        _face("sulok", "B", grid=["T..", ".P#", "..."]),
        "tile 'sulok' face B: blocks, paltik and tapos",
    ),
    ("paltik moved on B", _face("pinto", "B", grid=[".#.", "P..", "..."]), "tile 'pinto' face B: blocks, paltik and"),
    ("tapos added on A", _face("balon", "A", grid=["T.#", ".T.", "..P"]), "tile 'balon' face A: blocks, paltik and"),
    # the middle square of every inner side is open and unwalled on that side
    ("inner middle walled", _walls("sulok", "A", "E1"), "tile 'sulok' face A: the middle square of the inner E side"),
    ("inner middle walled S", _walls("pinto", "B", "S1"), "tile 'pinto' face B: the middle square of the inner S side"),
    ("inner middle blocked", _set_grid("sulok", "T..", ".P#", "#.."), "tile 'sulok' face A: the middle square of the"),
    ("centre middle blocked", _set_grid("kamara", "###", ".K.", "#.#"), "tile 'kamara' face A: the middle square of"),
    ("centre middle walled", _walls("kamara", "B", "W1"), "tile 'kamara' face B: the middle square of the inner W"),
    # each face's open squares are connected inside the tile
    ("square cut off", _walls("sulok", "A", "0,0-0,1", "0,0-1,0"), "tile 'sulok' face A: the open squares must be "),
    (
        "paltik cut off",
        _walls("haligi", "A", "2,1-2,2", "1,2-2,2"),
        "tile 'haligi' face A: .*; cut off: 0,2, 1,2, 2,2$",
    ),
    ("centre cut", _walls("kamara", "A", "0,1-1,1"), "tile 'kamara' face A: .*; cut off: 1,0, 1,1, 1,2, 2,1$"),
    # A and B paltik states differ; A light, B dark
    ("paltik states equal", _face("sulok", "B", paltik="light"), "tile 'sulok': faces A and B must show the paltik in"),
    (
        "paltik states swapped",
        _paltik_states("hagdan", "dark", "light"),
        "tile 'hagdan': face A shows the paltik light",
    ),
    ("paltik state missing", _face("silid", "A", paltik=None), "tile 'silid' face A: the paltik state must be light"),
    (
        "centre paltik state",
        _face("kamara", "A", paltik="light"),
        "tile 'kamara' face A: the centre tile has no paltik",
    ),
    # every corner and edge tile has exactly one paltik; the centre has none and carries the logo
    ("two paltik", _set_grid("sulok", "T.P", ".P.", "#.."), "tile 'sulok': every corner and edge tile has exactly one"),
    ("no paltik", _set_grid("pinto", ".#.", "...", "..."), "tile 'pinto': every corner and edge tile has exactly one"),
    ("centre paltik", _set_grid("kamara", "#.#", "PK.", "#.#"), "tile 'kamara': the centre tile has no paltik"),
    ("centre without logo", _set_grid("kamara", "#.#", ".T.", "#.#"), "tile 'kamara': the centre tile carries exactly"),
    ("logo on a corner", _set_grid("balon", "K.#", "...", "..P"), "tile 'balon': only the centre tile carries the "),
    # one centre, four corners, four edges, unique ids
    ("three corners", _drop("hagdan"), "1 centre, 4 corner and 4 edge tiles; found 3 corner"),
    ("five edges", _append_copy("silid", "silid2"), "found 5 edge"),
    ("two centres", _append_copy("kamara", "kamara2"), "found 2 centre"),
    ("corner as edge", _tile_update("haligi", kind="edge"), "found 3 corner"),
    ("duplicate id", _tile_update("balon", id="sulok"), "tile 'sulok': tile ids must be unique"),
    ("bad id", _tile_update("balon", id="Balon!"), "tile 'Balon!': an id is a short lowercase word"),
    ("bad kind", _tile_update("balon", kind="side"), "tile 'balon': kind must be one of centre, corner, edge"),
    # walls
    ("wall out of the tile", _walls("sulok", "A", "9,9-1,1"), "tile 'sulok' face A: cannot read the wall '9,9-1,1'"),
    ("wall gibberish", _walls("sulok", "B", "Q4"), "tile 'sulok' face B: cannot read the wall 'Q4'"),
    ("side index too big", _walls("pinto", "A", "E3"), "tile 'pinto' face A: cannot read the wall 'E3'"),
    ("diagonal wall", _walls("balon", "A", "0,0-1,1"), "tile 'balon' face A: the wall '0,0-1,1' must lie between two"),
    ("wall to itself", _walls("balon", "B", "1,1-1,1"), "tile 'balon' face B: the wall '1,1-1,1' must lie between"),
    ("far wall", _walls("balon", "B", "0,0-0,2"), "tile 'balon' face B: the wall '0,0-0,2' must lie between"),
    ("wall not text", _walls("silid", "A", 7), "tile 'silid' face A: a wall is a text like"),
    ("walls not a list", _face("silid", "B", walls="E0"), "tile 'silid' face B: walls must be a list"),
    # grid and faces
    ("two rows", _set_grid("sulok", "T..", ".P."), "tile 'sulok': the grid must be three rows of three squares"),
    ("long row", _set_grid("sulok", "T...", ".P.", "#.."), "tile 'sulok': the grid must be three rows of three"),
    ("bad square", _set_grid("sulok", "T.X", ".P.", "#.."), "tile 'sulok': grid squares are . # P T K"),
    ("one face", lambda d: _tile(d, "pinto")["faces"].pop("B"), "tile 'pinto': a tile has exactly two faces, A and B"),
    ("no kind", lambda d: _tile(d, "pinto").pop("kind"), "malformed tiles data: missing key 'kind'"),
    ("bad format", lambda d: d.update(format="tiles/2"), 'must say "format": "laro-kamara-tiles/1"'),
    ("tiles not a list", lambda d: d.update(tiles={"sulok": {}}), "'tiles' must be a list of objects"),
]


@pytest.mark.parametrize(("change", "message"), [case[1:] for case in BROKEN_TILES], ids=[c[0] for c in BROKEN_TILES])
def test_broken_tiles_are_refused(change: Change, message: str) -> None:
    """Components: tile data that breaks a load-time invariant is refused, naming the tile and the rule."""
    data = _tiles()
    change(data)
    with pytest.raises(ComponentError, match=message) as error:
        load_components(tiles=data)
    assert error.value.part == "tiles"
    assert isinstance(error.value, OptionError) and isinstance(error.value, ValueError)


def test_a_face_may_repeat_the_grid() -> None:
    """Components: a face that repeats the tile's grid unchanged is fine."""
    data = _tiles()
    for tile in data["tiles"]:
        for face in tile["faces"].values():
            face["grid"] = list(tile["grid"])
    assert len(load_components(tiles=data).tiles) == 9


# -- broken cards ---------------------------------------------------------------------------------------------


def _yellow(change: Change) -> dict[str, Any]:
    data = copy.deepcopy(DEFAULT_DATA["yellow_cards"])
    change(data)
    return data


BROKEN_YELLOW: list[tuple[str, Change, str]] = [
    ("id out of range", lambda d: d["cards"][0].update(id="Y33"), "yellow card 'Y33': ids are Y01 to Y32"),
    ("id malformed", lambda d: d["cards"][0].update(id="y1"), "yellow card 'y1': ids are Y01 to Y32"),
    ("duplicate id", lambda d: d["cards"][1].update(id="Y01"), "yellow card 'Y01': card ids must be unique"),
    ("bad position", lambda d: d["cards"][2].update(code={"UP": "light"}), "yellow card 'Y03': code entries are"),
    ("bad state", lambda d: d["cards"][3].update(code={"N": "grey"}), "yellow card 'Y04': code entries are a position"),
    ("empty code", lambda d: d["cards"][4].update(code={}), "yellow card 'Y05': the code must show at least one"),
    ("code not a map", lambda d: d["cards"][4].update(code=["N"]), "yellow card 'Y05': the code must show at least"),
    ("too few cards", lambda d: d.update(cards=d["cards"][:7]), "at least 8 cards"),
    ("bad format", lambda d: d.update(format="laro-kamara-tiles/1"), 'must say "format": "laro-kamara-yellow/1"'),
    ("no code", lambda d: d["cards"][0].pop("code"), "malformed yellow_cards data: missing key 'code'"),
]


@pytest.mark.parametrize(("change", "message"), [c[1:] for c in BROKEN_YELLOW], ids=[c[0] for c in BROKEN_YELLOW])
def test_broken_yellow_cards_are_refused(change: Change, message: str) -> None:
    """Components: a yellow card set with a bad id, a repeated id, a bad position or state or an empty code is
    refused, naming the card."""
    with pytest.raises(ComponentError, match=message) as error:
        load_components(yellow_cards=_yellow(change))
    assert error.value.part == "yellow_cards"


def _green(change: Change) -> dict[str, Any]:
    data = copy.deepcopy(DEFAULT_DATA["green_cards"])
    change(data)
    return data


BROKEN_GREEN: list[tuple[str, Change, str]] = [
    ("unknown effect", lambda d: d["cards"][0].update(effect="fly"), "green card 'fly': the effects are sigla, pitik"),
    ("negative count", lambda d: d["cards"][1].update(count=-1), "green card 'pitik': count must be a whole number"),
    ("count not a number", lambda d: d["cards"][2].update(count="2"), "green card 'ikot': count must be a whole"),
    ("count a boolean", lambda d: d["cards"][2].update(count=True), "green card 'ikot': count must be a whole number"),
    ("effect twice", lambda d: d["cards"][1].update(effect="sigla"), "green card 'sigla': each effect is listed once"),
    ("bad format", lambda d: d.pop("format"), 'must say "format": "laro-kamara-green/1"'),
]


@pytest.mark.parametrize(("change", "message"), [c[1:] for c in BROKEN_GREEN], ids=[c[0] for c in BROKEN_GREEN])
def test_broken_green_cards_are_refused(change: Change, message: str) -> None:
    """Components: a green card set with an unknown effect or a bad count is refused, naming the effect."""
    with pytest.raises(ComponentError, match=message) as error:
        load_components(green_cards=_green(change))
    assert error.value.part == "green_cards"


def test_a_green_effect_may_have_no_cards() -> None:
    """Components: a count of 0 leaves the effect out of the deck."""
    data = _green(lambda d: d["cards"][0].update(count=0))
    assert len(load_components(green_cards=data).green_deck) == 21


# -- sets given as options ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "data", "message"),
    [
        ("tiles", BROKEN_TILES[0][1], "option 'tiles': tile 'sulok' face B: blocks, paltik and tapos"),
        ("tiles", BROKEN_TILES[8][1], "option 'tiles': tile 'sulok' face A: the open squares must be connected"),
        ("yellow_cards", BROKEN_YELLOW[2][1], "option 'yellow_cards': yellow card 'Y01': card ids must be unique"),
        ("green_cards", BROKEN_GREEN[0][1], "option 'green_cards': green card 'fly'"),
    ],
)
def test_a_broken_set_given_as_an_option_is_refused(option: str, data: Change, message: str) -> None:
    """Options: a broken component set given as a game option raises ComponentError (an OptionError) naming the
    option, the tile or card and the rule."""
    value = {"tiles": _tiles, "yellow_cards": lambda: copy.deepcopy(DEFAULT_DATA["yellow_cards"])}.get(
        option, lambda: copy.deepcopy(DEFAULT_DATA["green_cards"])
    )()
    data(value)
    with pytest.raises(ComponentError, match=message):
        GAME.new_game(3, seed=1, options={option: value})
    with pytest.raises(OptionError):
        GAME.new_game(3, seed=1, options={option: value})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tiles": "tiles.json"}, "option 'tiles' must be JSON data"),
        ({"elder": 3}, "option 'elder' must be a seat 0..2"),
        ({"actions_per_turn": 0}, "option 'actions_per_turn' must be at least 1"),
        ({"target_matches": 0}, "option 'target_matches' must be at least 1"),
        ({"max_rounds": 0}, "option 'max_rounds' must be at least 1"),
        ({"open_cards": "yes"}, "option 'open_cards' must be one of"),
        ({"colour": "red"}, "unknown option"),
        ({"max_rounds": 1001}, "option 'max_rounds' must be at most 1000"),
        ({"actions_per_turn": 51}, "option 'actions_per_turn' must be at most 50"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    """Options: values the game does not allow raise OptionError saying which option."""
    with pytest.raises(OptionError, match=message):
        GAME.new_game(3, seed=1, options=options)


def _alternative_tiles() -> dict[str, Any]:
    """The default tiles renamed, with other (valid) thick lines."""
    data = _tiles()
    for tile in data["tiles"]:
        tile["id"] = "x-" + tile["id"]
    _tile(data, "x-sulok")["faces"]["A"]["walls"] = ["0,0-1,0", "2,1-2,2"]
    _tile(data, "x-pinto")["faces"]["B"]["walls"] = []
    _tile(data, "x-balon")["faces"]["A"]["walls"] = ["S0", "E2"]
    return data


def test_an_alternative_set_plays_a_whole_game() -> None:
    """Options: a valid other set (renamed tiles, other walls, fewer cards) is used for the whole game: its tile
    names are in the place actions, its walls in the moves, and its states round-trip through JSON."""
    yellow = copy.deepcopy(DEFAULT_DATA["yellow_cards"])
    yellow["cards"] = yellow["cards"][10:20]
    green = {
        "format": "laro-kamara-green/1",
        "cards": [{"effect": "tagos", "count": 3}, {"effect": "ikot", "count": 2}],
    }
    options = {"tiles": _alternative_tiles(), "yellow_cards": yellow, "green_cards": green, "max_rounds": 3}
    rng = random.Random(5)
    state = GAME.new_game(3, seed=9, options=options)
    data = state.to_json()
    assert len(data["yellow_deck"]) == 7 and sorted(data["green_deck"]) == ["ikot"] * 2 + ["tagos"] * 3
    assert "place x-kamara C A 0" in [str(a) for a in state.legal_actions()]
    with pytest.raises(ValueError):
        state.apply("place kamara C A 0")
    seen = set()
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        seen.add(action.text.split()[0])
        state = state.apply(action)
        assert GAME.from_json(state.to_json()).to_json() == state.to_json()
    assert state.winners and {"place", "diwa", "move"} <= seen
    assert {t["tile"] for t in state.to_json()["tiles"].values()} == {tile["id"] for tile in options["tiles"]["tiles"]}


def test_alternative_walls_change_the_moves() -> None:
    """Options: the thick lines of the given set are the ones that count (x-sulok's face A: a9/a8, not b9/b8)."""
    options = {"tiles": _alternative_tiles(), "elder": 0}
    state = GAME.new_game(2, seed=1, options=options)
    for text in ("x-sulok NW", "x-pinto N", "x-balon NE", "x-bintana W", "x-kamara C", "x-pasilyo E", "x-hagdan SW"):
        state = state.apply(f"place {text} A" + (" 0" if "kamara" in text else ""))
    state = state.apply("place x-silid S A").apply("place x-haligi SE A").apply("diwa blue i1").apply("diwa red b9")
    assert state.current_player == 0
    directions = {str(a).split()[1] for a in state.legal_actions() if str(a).startswith("move")}
    assert "S" in directions and "W" in directions
    state = state.apply("move W")
    assert "S" not in {str(a).split()[1] for a in state.legal_actions() if str(a).startswith("move")}


def test_another_sets_geometry_is_the_one_read_from_its_walls() -> None:
    """Chamber: with other thick lines (some on a tile's outer side only), the geometry put together from the
    tiles' fragments is the one read square by square from the walls, in any arrangement."""
    components = load_components(tiles=_alternative_tiles())
    rng = random.Random(3)
    for _ in range(150):
        corners, edges = rng.sample(range(1, 5), 4), rng.sample(range(5, 9), 4)
        numbers = {**dict(zip((0, 2, 6, 8), corners, strict=True)), **dict(zip((1, 3, 5, 7), edges, strict=True))}
        tiles = tuple(
            (0, rng.randrange(2), rng.randrange(4))
            if slot == CENTRE
            else (numbers[slot], rng.randrange(2), OUTWARD[slot])
            for slot in range(9)
        )
        assert chamber_geometry(components, tiles) == reference_geometry(components, tiles)


def test_a_green_set_in_another_order() -> None:
    """Options: a green set names its effects in any order, and its cards are those effects."""
    green = {
        "format": "laro-kamara-green/1",
        "cards": [{"effect": "tagos", "count": 1}, {"effect": "lipat", "count": 1}],
    }
    state = GAME.new_game(2, seed=3, options={"green_cards": green})
    assert sorted(state.to_json()["green_deck"]) == ["lipat", "tagos"]
    data = state.to_json()
    assert GAME.from_json(data).to_json() == data


@pytest.mark.parametrize(
    ("option", "change", "message"),
    [
        ("tiles", lambda d: d.update(padding="x"), "component data: unknown key.s. padding"),
        ("tiles", lambda d: d["tiles"][0].update(note="x"), "tile 'kamara': unknown key.s. note"),
        ("tiles", lambda d: d["tiles"][1]["faces"]["A"].update(x=1), "face A: unknown key.s. x"),
        ("yellow_cards", lambda d: d["cards"][0].update(extra=[1]), "yellow card 'Y01': unknown key.s. extra"),
        ("green_cards", lambda d: d["cards"][0].update(art="x"), "green card 'sigla': unknown key.s. art"),
        ("green_cards", lambda d: d["cards"][0].update(text="x" * 60000), "at most 8192 bytes"),
        ("green_cards", lambda d: d["cards"][0].update(count=10**9), "count must be a whole number from 0 to 50"),
    ],
)
def test_a_set_carries_nothing_but_itself(option: str, change: Change, message: str) -> None:
    """Options: a component set with keys the format does not have, or padded beyond 8 KiB, is refused, so a
    table's options cannot carry baggage into every message about it."""
    data = copy.deepcopy(DEFAULT_DATA[option])
    change(data)
    with pytest.raises(ComponentError, match=message):
        GAME.new_game(3, seed=1, options={option: data})
