"""The Kamara screen in words: a swap says where the diwa went, the green-card hint only when it helps, a
replay's options as they are typed."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from rich.console import Console
from tests.kamara.helpers import build

from laro.cli.kamara_view import KamaraView
from laro.cli.views import PlayerInfo
from laro.core import GameRecord
from laro.games.kamara import GAME

Run = Callable[..., Result]
VIEW = KamaraView()
PLAYERS = [PlayerInfo("You", is_you=True), PlayerInfo("Bot 1 (random)"), PlayerInfo("Bot 2 (random)")]


def text_of(renderable: object, width: int = 160) -> str:
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_palitan_says_where_each_diwa_went() -> None:
    state = build([("red", "a8"), ("blue", "i8"), ("orange", "a1")], faces={"NW": "B"}, green=["palitan", None, None])
    after = state.apply("play palitan NW NE")
    line = " ".join(text_of(VIEW.move(state, "play palitan NW NE", after, 0, PLAYERS)).split())
    assert "swaps the NW and NE tiles; the diwa on them went along:" in line
    assert "R red a8 → h9" in line and "B blue i8 → b9" in line
    assert "orange" not in line  # a1 is on another tile


def test_palitan_with_nobody_on_the_tiles() -> None:
    state = build([("red", "e5"), ("blue", "e4"), ("orange", "a1")], green=["palitan", None, None])
    after = state.apply("play palitan NE SE")
    line = " ".join(text_of(VIEW.move(state, "play palitan NE SE", after, 0, PLAYERS)).split())
    assert "swaps the NE and SE tiles; no diwa stood on them" in line


def test_the_green_card_hint_only_when_a_flip_would_draw_one() -> None:
    hint = "flip a paltik to draw one"
    fresh = build([("red", "e5"), ("blue", "e4"), ("orange", "a1")])
    assert hint in text_of(VIEW.turn(fresh, 0, PLAYERS))
    drawn = build([("red", "e5"), ("blue", "e4"), ("orange", "a1")], green_drawn=True)
    assert hint not in text_of(VIEW.turn(drawn, 0, PLAYERS))
    assert "Your green card: none" in text_of(VIEW.turn(drawn, 0, PLAYERS))
    assert hint not in text_of(VIEW.turn(fresh, None, PLAYERS))  # a replay: nobody is asked to flip


def test_a_replay_lists_the_options_as_typed(run: Run, tmp_path: Path) -> None:
    state = GAME.new_game(3, seed=3)
    record = GameRecord.start(state, 3, players=["You", "Bot 1", "Bot 2"], bots={1: "random", 2: "random"})
    path = record.save(tmp_path / "k.json")
    result = run("replay", "--all", str(path))
    options = next(line for line in result.output.splitlines() if line.startswith("Options:"))
    assert "None" not in options and "False" not in options
    assert "open_cards=false" in options and "elder" not in options and "tiles" not in options


def _turn_lines(width: int, with_menu: bool = True) -> list[str]:
    state = build([("red", "e5"), ("blue", "e4"), ("orange", "a1")])
    picture = VIEW.screen(state, 0, PLAYERS) if with_menu else VIEW.turn(state, 0, PLAYERS)
    return text_of(picture, width=width).rstrip("\n").splitlines()


def test_a_small_terminal_gets_the_compact_layout_with_everything_in_view() -> None:
    lines = _turn_lines(80)
    assert max(len(line) for line in lines) <= 80
    assert len(lines) <= 23  # with the prompt, one screen of 80 by 24
    board_rows = [line for line in lines if line[:3] in {f"{rank} ┃" for rank in "123456789"}]
    assert len(board_rows) == 9 and board_rows[0].index("┃ 9") < 22  # one character a square
    beside = [line for line in board_rows if "You can:" in line or "Decks:" in line or "Your yellow card" in line]
    assert len(beside) >= 2  # the panel and the menu stand beside the board, not below it
    assert any("You can:" in line and "┃" in line for line in lines)


def test_every_screen_of_a_game_fits_80_by_24() -> None:
    """Through the setup and the game, with 2 to 8 players, the screen at each of the person's moves (heading,
    chamber, panel and menu) leaves the prompt its line on a terminal of 80 by 24."""
    import random

    phases = set()
    for players in (2, 5, 8):
        names = [PlayerInfo("You", is_you=True)] + [PlayerInfo(f"Bot {n} (heuristic)") for n in range(1, players)]
        state, rng, shown = GAME.new_game(players, seed=players), random.Random(players), 0
        while not state.is_over and shown < 30:
            if state.current_player == 0:
                console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, record=True)
                console.print(VIEW.screen(state, 0, names))
                lines = console.export_text().rstrip("\n").splitlines()
                assert len(lines) <= 23 and max(map(len, lines)) <= 80, "\n".join(lines)
                phases.add(state.phase)
                shown += 1
            state = state.apply(rng.choice(state.legal_actions()))
    assert phases == {"tiles", "diwa", "play"}


def test_more_shows_what_the_compact_screen_leaves_out() -> None:
    state = GAME.new_game(3, seed=3, options={"elder": 0})
    pool = text_of(VIEW.command("more", state, 0, PLAYERS), width=80)
    assert "Tiles to place" in pool and pool.count("(corner)") == 4 and len(pool.splitlines()) <= 23
    played = build([("red", "e5"), ("blue", "e4"), ("orange", "a1")], green=["sigla", None, None])
    more = " ".join(text_of(VIEW.command("more", played, 0, PLAYERS), width=80).split())
    assert "○ light paltik" in more and "R red" in more and "Your yellow card" in more
    assert "Your green card: Sigla" in more and "…" not in more  # the card's whole text
    assert VIEW.command("less", played, 0, PLAYERS) is None


def test_a_big_terminal_gets_the_full_layout() -> None:
    lines = _turn_lines(160)
    row = next(line for line in lines if line.startswith("9 ┃"))
    assert row.index("┃ 9") > 30  # three characters a square
    assert any("Decks:" in line and "┃" in line for line in lines)  # the panel beside
    menu = next(number for number, line in enumerate(lines) if "You can:" in line)
    assert "┃" not in lines[menu] and menu > 20  # the menu below


def test_the_size_needed_is_said_on_a_small_terminal_only() -> None:
    state = GAME.new_game(3, seed=3)
    small = " ".join(text_of(VIEW.round_start(state, PLAYERS), width=80).split())
    assert "the chamber is drawn compactly. At 100×36 or more it is drawn in full." in small
    assert "drawn compactly" not in text_of(VIEW.round_start(state, PLAYERS), width=160)


def test_the_compact_chamber_names_each_empty_slot_as_it_is_typed() -> None:
    """At 80 by 24, an empty slot shows the whole name that ``place …`` takes (NW, not N), in its middle row."""
    state = GAME.new_game(3, seed=3, options={"elder": 0})
    lines = text_of(VIEW.screen(state, 0, PLAYERS), width=80).splitlines()
    rows = {line[0]: line[: line.index("┃", 3) + 1] for line in lines if line[:3] in {"8 ┃", "5 ┃", "2 ┃"}}
    assert rows["8"].split("┃")[1].split() == ["NW", "│", "N", "│", "NE"]
    assert rows["5"].split("┃")[1].split() == ["W", "│", "C", "│", "E"]
    assert rows["2"].split("┃")[1].split() == ["SW", "│", "S", "│", "SE"]
