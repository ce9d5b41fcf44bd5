"""``laro play kamara`` and the Kamara view: whole games fed through standard input, the board's pictures, what
stays hidden, wrong entries, numbers and short forms, records, replays, resuming and the rules."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from rich.console import Console

from laro.bots import base as bots_base
from laro.bots import get_bot
from laro.cli.kamara_board import DIWA_LETTERS, board_text, layout_of, tiles_layout
from laro.cli.kamara_view import KamaraView, menu_entries, numbered
from laro.cli.saved import load_resumable
from laro.cli.views import PlayerInfo
from laro.core import make_rng, replay
from laro.games.kamara import COLOURS, GAME, KamaraState, square_index
from laro.games.kamara.components import EFFECTS

Run = Callable[..., Result]
VIEW = KamaraView()
SHORT = {"max_rounds": 3, "actions_per_turn": 3}  # a game of a few dozen moves
PLAYERS = [PlayerInfo("You", is_you=True), PlayerInfo("Bot 1 (random)"), PlayerInfo("Bot 2 (random)")]


def play_args(records: Path, *extra: str, options: dict[str, int] = SHORT, bots: str = "random") -> list[str]:
    pairs = [arg for key, value in options.items() for arg in ("-o", f"{key}={value}")]
    return ["play", "kamara", "--bots", bots, "--delay", "0", "--records", str(records), *pairs, *extra]


def only_record(records: Path) -> Path:
    files = sorted(records.glob("*.json"))
    assert len(files) == 1, files
    return files[0]


def typed(state: KamaraState, rng: random.Random) -> tuple[str, str]:
    """What a person might type for a random legal action: its number, its text, or its text in capitals."""
    action = rng.choice(state.legal_actions()).text
    listed = numbered(menu_entries(state))
    if action in listed and rng.random() < 0.5:
        return str(listed.index(action) + 1), action
    return (action.upper() if rng.random() < 0.3 else action), action


def script(
    state: KamaraState, seed: int, seat: int = 0, human_moves: int | None = None, bot: str = "random"
) -> tuple[list[str], list[str], KamaraState]:
    """Play ``state`` on as ``laro play`` will (``bot`` in the other seats, seeded like the session's): the lines
    the person types, every action, and the state reached (after ``human_moves`` of the person's moves, or the
    end)."""
    bots = {s: get_bot(bot, "kamara") for s in range(state.num_players) if s != seat}
    rngs = {s: make_rng(seed, "bot", s) for s in bots}
    person = random.Random(seed)
    lines: list[str] = []
    actions: list[str] = []
    moves = 0
    while not state.is_over and (human_moves is None or moves < human_moves):
        player = state.current_player
        assert player is not None
        if player == seat:
            line, action = typed(state, person)
            lines.append(line)
            if VIEW.confirmation(line, action, state):  # ending the turn early: yes
                lines.append("y")
            moves += 1
        else:
            action = str(bots[player].choose(state.observation(player), state.legal_actions(), rngs[player]))
        state = state.apply(action)
        actions.append(action)
    return lines, actions, state


def text_of(renderable: object, width: int = 150) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


# -- whole games -------------------------------------------------------------------------------------------------


def test_a_whole_game_typed_by_a_script(run: Run, tmp_path: Path) -> None:
    """Setup and play to the end, the person's moves typed as numbers and texts; the record holds every move."""
    seed = 31
    lines, actions, final = script(GAME.new_game(3, seed=seed, options=SHORT), seed)
    result = run(*play_args(tmp_path, "--players", "3", "--seed", str(seed)), input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Setup" in out and "Setup: placing tiles · your turn" in out and "Setup: choosing diwa" in out
    assert "tiles to place, both faces" in out and "You place " in out and "You take the " in out  # (more: …)
    assert "Every diwa is placed." in out and "Round 1 · your turn" in out
    assert "Game over" in out and "Seed: 31" in out
    assert "is not" not in out  # every typed line was understood
    record = load_resumable(only_record(tmp_path))
    assert record.actions == actions
    assert replay(record).to_json() == final.to_json()
    assert record.result is not None and record.result["over"]


def test_a_whole_game_against_the_hard_search_bot(run: Run, tmp_path: Path) -> None:
    seed = 12
    lines, actions, final = script(GAME.new_game(3, seed=seed, options=SHORT), seed, bot="hard")
    args = play_args(tmp_path, "--players", "3", "--seed", str(seed), bots="hard")
    result = run(*args, input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "Bot 1 (hard)" in result.output and "Game over" in result.output
    record = load_resumable(only_record(tmp_path))
    assert record.bots == {1: "hard", 2: "hard"}
    assert record.actions == actions  # the same moves as the hard bots played here
    assert replay(record).to_json() == final.to_json()


def test_other_seats_cards_stay_hidden(run: Run, tmp_path: Path) -> None:
    """No yellow card id ever shown but the person's own, matched ones and those a green card showed them; no
    bot's green effect is told."""
    seed = 8
    options = {"max_rounds": 6, "actions_per_turn": 4}
    lines, _, _ = script(GAME.new_game(3, seed=seed, options=options), seed)
    args = play_args(tmp_path, "--players", "3", "--seed", str(seed), options=options)
    out = run(*args, input="\n".join(lines) + "\n").output
    record = load_resumable(only_record(tmp_path))
    allowed: set[str] = set()
    state = GAME.new_game(3, seed=seed, options=options)
    for action in [None, *record.actions]:
        state = state if action is None else state.apply(action)
        seen = state.observation(0)
        allowed |= {seen["yellow"][0]} | {card for cards in seen["matched"] for card in cards}
        allowed |= set(seen["seen_on_top"]) | set((seen["pending"] or {}).get("drawn", []))
        allowed |= set((seen["pending"] or {}).get("cards", []))
    shown = set(re.findall(r"\bY\d\d\b", out))
    assert shown and shown <= allowed
    bot_lines = [line for line in out.splitlines() if " Bot " in line[:12]]
    assert bot_lines
    for line in bot_lines:
        if "green card" in line:
            assert line.rstrip().endswith(("green card", "unused")), line


def test_the_view_shows_only_what_the_seat_may_know() -> None:
    state = GAME.new_game(3, seed=4)
    rng = random.Random(4)
    while not (state.phase == "play" and state.green[1] >= 0 and state.green[0] < 0):
        state = state.apply(rng.choice(state.legal_actions()))
    secret = f"Y{state.yellow[1] + 1:02d}"
    effect = next(card.name for card in state.components.green if card.effect == EFFECTS[state.green[1]])
    mine = text_of(VIEW.turn(state, 0, PLAYERS))
    assert secret not in mine and effect not in mine
    assert f"Y{state.yellow[0] + 1:02d}" in mine and "Your yellow card" in mine
    everything = text_of(VIEW.turn(state, None, PLAYERS))  # a replay shows every card
    assert secret in everything


def test_a_delay_given_shows_the_board_after_bot_moves(run: Run, tmp_path: Path) -> None:
    """By default the board is drawn for the person's moves only; with --delay given, after bot moves too."""
    seed = 12
    lines, actions, _ = script(GAME.new_game(2, seed=seed, options=SHORT), seed)
    boards = []
    for delay in ("0", "0.0001"):
        args = play_args(tmp_path / delay, "--players", "2", "--seed", str(seed))
        args[args.index("--delay") + 1] = delay
        out = run(*args, input="\n".join(lines) + "\n").output
        boards.append(out.count("Decks:"))
        assert load_resumable(only_record(tmp_path / delay)).actions == actions
    assert boards[0] == len(lines) - lines.count("y") and boards[1] > boards[0]  # a yes to "end?" draws none


# -- input -------------------------------------------------------------------------------------------------------


def play_state(seed: int = 2, players: int = 3) -> KamaraState:
    """A game of random setup moves, at its first turn."""
    state = GAME.new_game(players, seed=seed)
    rng = random.Random(seed)
    while state.phase != "play":
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_short_forms() -> None:
    setup = GAME.new_game(2, seed=5, options={"elder": 0})
    assert VIEW.parse("sulok nw a", setup) == "place sulok NW A"
    assert VIEW.parse("  Place   KAMARA c b 270 ", setup) == "place kamara C B 270"
    state = play_state()
    legal = [a.text for a in state.legal_actions()]
    moves = [text for text in legal if text.startswith("move ")]
    assert VIEW.parse(moves[0].split()[1].lower(), state) == moves[0]
    assert VIEW.parse("end", state) == VIEW.parse("End turn", state) == "end"
    if "move E" in legal:  # a bare e is the direction east, never end
        assert VIEW.parse("e", state) == "move E"
    else:
        with pytest.raises(ValueError, match="move E is not allowed: you cannot step E"):
            VIEW.parse("e", state)
    for text in legal:
        assert VIEW.parse(text, state) == text


def test_short_forms_for_colours_squares_and_cards() -> None:
    state = GAME.new_game(2, seed=5, options={"elder": 0})
    rng = random.Random(1)
    while state.phase != "diwa":
        state = state.apply(rng.choice(state.legal_actions()))
    square = next(a.text.split()[2] for a in state.legal_actions())
    assert VIEW.parse(f"t {square}", state) == VIEW.parse(f"teal {square}", state) == f"diwa teal {square}"
    # a bare square ports, a colour letter names a diwa, effects need no "play", card ids decide
    for seed in range(12):
        state = play_state(seed)
        rng = random.Random(seed)
        while not state.is_over and state.round < 12:
            for action in state.legal_actions():
                words = action.text.split()
                if words[0] == "port":
                    assert VIEW.parse(words[1], state) == action.text
                if words[0] == "poke":
                    assert VIEW.parse(f"poke {DIWA_LETTERS[words[1]]} {words[2]}", state) == action.text
                if words[:2] == ["play", "tulak"]:
                    assert VIEW.parse(" ".join(words[1:]), state) == action.text
                if words[0] in ("keep", "order"):
                    assert VIEW.parse(" ".join(words[1:]), state) == action.text
            state = state.apply(rng.choice(state.legal_actions()))


def test_numbers_follow_the_menu() -> None:
    state = play_state()
    listed = numbered(menu_entries(state))
    assert listed and listed[-1] == "end"
    assert [VIEW.parse(str(n), state) for n in range(1, len(listed) + 1)] == listed
    menu = text_of(VIEW.menu(state))
    assert "You can:" in menu and f"{len(listed)} " in menu
    with pytest.raises(ValueError, match=f"from 1 to {len(listed)}"):
        VIEW.parse(str(len(listed) + 1), state)
    assert f"1–{len(listed)}" in VIEW.prompt(state)


def test_setup_menus_are_summarised() -> None:
    state = GAME.new_game(3, seed=5)
    menu = text_of(VIEW.menu(state))
    assert "place" in menu and "corner" in menu and "NW NE SW SE" in menu and "1 " not in menu
    with pytest.raises(ValueError, match="no choice is numbered here"):
        VIEW.parse("1", state)
    rng = random.Random(3)
    while state.phase != "diwa":
        state = state.apply(rng.choice(state.legal_actions()))
    menu = text_of(VIEW.menu(state))
    assert "colours left: red (R) blue (B)" in menu and "squares:" in menu


def test_wrong_entries_are_explained_and_change_nothing(run: Run, tmp_path: Path) -> None:
    state = GAME.new_game(2, seed=9, options={"elder": 0})
    entries = ["banana", "balon n a", "kamara c a", "move n", "99", "help", "rules", "sulok NW A", "exit", "y"]
    result = run(*play_args(tmp_path, "--players", "2", "--seed", "9", "-o", "elder=0"), input="\n".join(entries))
    out = " ".join(result.output.split())  # long messages wrap at the terminal's width
    assert result.exit_code == 0
    assert "'banana' is not an action here" in out
    assert "balon is a corner tile: it goes into a corner slot (NW NE SW SE)" in out
    assert "the centre tile also takes a rotation" in out
    assert "move N is not allowed: the chamber is being built: place a tile" in out
    assert "place a tile; allowed" not in out  # the reason is given, not the long list of allowed actions
    assert "no choice is numbered here" in out
    assert "Kamara in short" in out and "Reading a yellow card" in out  # help, then the full rules
    assert "You place sulok in NW, face A (paltik light)" in out
    record = load_resumable(only_record(tmp_path))
    assert record.actions[0] == "place sulok NW A" and state.apply(record.actions[0])


@pytest.mark.parametrize(
    ("entry", "hint"),
    [
        ("place sulok W A", "sulok is already placed, in NW"),
        ("sulok s b", "sulok is already placed, in NW"),
        ("place pinto NW A", "pinto is an edge tile: it goes into an edge slot (N W E S)"),
        ("place balon N A", "balon is a corner tile: it goes into a corner slot (NW NE SW SE)"),
        ("place pinto N A 90", "only the centre tile takes a rotation: place pinto N A"),
    ],
)
def test_a_setup_entry_gets_the_reason_it_names_no_action(entry: str, hint: str) -> None:
    state = GAME.new_game(2, seed=9, options={"elder": 0}).apply("place sulok NW A")
    with pytest.raises(ValueError, match=re.escape(hint)):
        VIEW.parse(entry, state)


def test_the_centre_tile_is_told_its_rotations() -> None:
    state = GAME.new_game(2, seed=9, options={"elder": 0})
    with pytest.raises(ValueError, match=re.escape("the rotation is 0, 90, 180 or 270")):
        VIEW.parse("place kamara C A 45", state)
    with pytest.raises(ValueError, match=re.escape("the centre tile also takes a rotation")):
        VIEW.parse("kamara c b", state)


def test_ending_a_turn_with_actions_left_asks_first(run: Run, tmp_path: Path) -> None:
    """``end`` with actions unused asks, as L.A.M.A.'s ``q`` does: no keeps the turn, yes ends it."""
    state, bot, rng = GAME.new_game(2, seed=21, options=SHORT), get_bot("random", "kamara"), make_rng(21, "bot", 1)
    lines, played = [], 0
    while state.phase != "play" or state.current_player != 0:
        if state.current_player == 1:
            action = str(bot.choose(state.observation(1), state.legal_actions(), rng))
        else:
            action = str(state.legal_actions()[0])
            lines.append(action)
        state, played = state.apply(action), played + 1
    records = tmp_path / "records"
    args = play_args(records, "--players", "2", "--seed", "21")
    result = run(*args, input="\n".join([*lines, "end", "n", "end", "y", "exit", "y", ""]))
    out = " ".join(result.output.split())
    assert result.exit_code == 0, out[-2000:]
    assert out.count("End your turn with 3 actions left unused? [y/N]") == 2
    assert out.count("You end your turn (3 actions unused)") == 1
    assert load_resumable(only_record(records)).actions[played] == "end"  # the no took nothing; the yes ended it


# -- the board ---------------------------------------------------------------------------------------------------


def known_position() -> KamaraState:
    """sulok face A in NW, balon face B in NE, the centre turned a quarter (logo east), the red diwa on c8."""
    state = GAME.new_game(2, seed=1, options={"elder": 0})
    placements = ["sulok NW A", "pinto N A", "balon NE B", "bintana W A", "kamara C A 90", "pasilyo E A"]
    placements += ["hagdan SW A", "silid S A", "haligi SE B"]
    for text in placements:
        state = state.apply(f"place {text}")
    state = state.apply("diwa red c8").apply("diwa blue e7")
    return state


def cell(lines: list[str], square: str) -> str:
    index = square_index(square)
    row, col = divmod(index, 9)
    return lines[2 + 2 * row][2 + 4 * col + 1 : 2 + 4 * col + 4]


def west_line(lines: list[str], square: str) -> str:
    row, col = divmod(square_index(square), 9)
    return lines[2 + 2 * row][2 + 4 * col]


def line_below(lines: list[str], square: str) -> str:
    row, col = divmod(square_index(square), 9)
    return lines[3 + 2 * row][2 + 4 * col + 1 : 2 + 4 * col + 4]


def test_the_board_of_a_known_position() -> None:
    state = known_position()
    diwa = {state.diwa[seat]: COLOURS[state.colours[seat]] for seat in range(2)}
    lines = board_text(layout_of(state), diwa, {}).plain.splitlines()
    assert lines[0].split() == list("abcdefghi") and lines[-1] == lines[0]
    assert lines[1].startswith("  ┏━━━━") and lines[1].endswith("━┓")  # the yellow border
    assert lines[2].startswith("9 ┃") and lines[2].endswith("┃ 9")
    assert cell(lines, "a9") == " ◇ " and cell(lines, "i9") == " ◇ "  # tapos
    assert cell(lines, "a7") == "███" and cell(lines, "i7") == "███" and cell(lines, "d6") == "███"  # blocks
    assert cell(lines, "b8") == " ○ "  # sulok face A: light paltik
    assert cell(lines, "g7") == " ● "  # balon face B, turned to face out: dark paltik
    assert cell(lines, "e5") == " → "  # the logo points east
    assert cell(lines, "c8") == " R " and cell(lines, "e7") == " B "  # diwa
    assert cell(lines, "b9") == " · "  # floor
    assert line_below(lines, "b9") == "━━━"  # sulok A: a wall between b9 and b8
    assert west_line(lines, "d9") == "┃"  # sulok A: a wall on its east side, c9 | d9
    assert line_below(lines, "a9") == "   "  # no wall inside a tile
    assert line_below(lines, "c7") == "───"  # the seam between the NW and W tiles
    assert west_line(lines, "d5") == "│"  # the seam between the W and C tiles


def test_locks_empty_slots_and_the_side_panel() -> None:
    state = known_position()
    locked = board_text(layout_of(state), {}, {0: "blue"}).plain.splitlines()
    assert cell(locked, "b9") == " ░ " and cell(locked, "a9") == " ◇ " and cell(locked, "e6") == " · "
    empty = board_text(layout_of(GAME.new_game(2, seed=1)), {}, {}).plain.splitlines()
    assert cell(empty, "b8") == "NW " and cell(empty, "e5") == " C " and cell(empty, "a9") == "   "
    players = [PlayerInfo("You", is_you=True), PlayerInfo("Bot 1 (random)")]
    screen = text_of(VIEW.turn(state, 0, players))
    assert "Round 1 · your turn" in screen or "Bot 1 (random)'s turn" in screen
    assert "Your yellow card" in screen and "on the chamber (→)" in screen and "Decks: yellow" in screen
    assert "Diwa" in screen and " R  red" in screen and " B  blue" in screen
    assert ("To match, flip:" in screen) or ("The chamber shows it" in screen)


def test_bot_lines_are_followable() -> None:
    state = play_state(seed=3)
    legal = state.legal_actions()
    move = next(a for a in legal if a.text.startswith("move"))
    after = state.apply(move)
    line = text_of(VIEW.move(state, move.text, after, 0, PLAYERS)).splitlines()[0]
    actor = PLAYERS[state.current_player or 0].label
    verb = "move" if actor == "You" else "moves"
    assert f"{actor} {verb} {move.text.split()[1]} to " in line


# -- records, replays, resuming, rules, bots ----------------------------------------------------------------------


def test_record_replays_step_by_step_and_all(run: Run, tmp_path: Path) -> None:
    seed = 5
    lines, actions, _ = script(GAME.new_game(2, seed=seed, options=SHORT), seed)
    run(*play_args(tmp_path, "--players", "2", "--seed", str(seed)), input="\n".join(lines) + "\n")
    path = only_record(tmp_path)
    result = run("replay", "--all", str(path))
    assert result.exit_code == 0, result.output
    assert f"Move {len(actions)}/{len(actions)}:" in result.output and "Game over" in result.output
    assert "Tiles to place" in result.output and "┏━━━" in result.output
    stepped = run("replay", str(path), input="\n\nq\n")
    assert "Move 2/" in stepped.output and "Move 3/" not in stepped.output


def test_resume_a_stopped_game(run: Run, tmp_path: Path) -> None:
    seed = 17
    start = GAME.new_game(3, seed=seed, options=SHORT)
    first, _, _ = script(start, seed, human_moves=2)
    stopped = run(*play_args(tmp_path, "--players", "3", "--seed", str(seed)), input="\n".join(first) + "\n")
    assert stopped.exit_code == 1 and "--resume" in stopped.output
    path = only_record(tmp_path)
    saved = load_resumable(path)
    rest, more, _ = script(replay(saved), seed)  # the resumed session's bots start their randomness afresh
    result = run("play", "kamara", "--resume", str(path), "--delay", "0", input="\n".join(rest) + "\n")
    assert result.exit_code == 0, result.output
    assert load_resumable(path).actions == saved.actions + more
    assert "Game over" in result.output


def test_rules_in_english_and_korean(run: Run) -> None:
    english = run("rules", "kamara")
    assert english.exit_code == 0 and "Kamara — rules" in english.output and "Reading a yellow card" in english.output
    korean = run("rules", "kamara", "--lang", "ko")
    assert korean.exit_code == 0 and "카마라" in korean.output


@pytest.mark.parametrize("missing", ["unregistered", "broken"])
def test_the_default_bot_falls_back_to_random(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    if missing == "unregistered":
        monkeypatch.delitem(bots_base._BOTS, ("heuristic", "kamara"), raising=False)
    else:
        monkeypatch.setitem(bots_base._BOTS, ("heuristic", "kamara"), "laro.no_such_module:Bot")
    result = run("play", "kamara", "-n", "2", "--delay", "0", "--records", str(tmp_path), input="exit\ny\n")
    assert result.exit_code == 0, result.output
    assert "No heuristic bot plays Kamara yet: the other seats are random bots." in result.output
    assert load_resumable(only_record(tmp_path)).bots == {1: "random"}
    named = run("play", "kamara", "-n", "2", "--bots", "heuristic", "--records", str(tmp_path))
    assert named.exit_code == 2  # asked for by name, it is an error


def test_the_board_agrees_with_the_chamber_geometry() -> None:
    """Worked out tile by tile (as during setup), the picture of a full chamber is the engine's geometry."""
    for seed in range(6):
        state = play_state(seed, players=2)
        rng = random.Random(seed)
        for _ in range(60):
            assert tiles_layout(state) == layout_of(state)
            state = state.apply(rng.choice(state.legal_actions()))
