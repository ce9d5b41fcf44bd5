"""``laro play`` at a real terminal (a pseudo-terminal): lines are edited with the arrow keys and recalled with
the up arrow, Enter skips the bots' pauses once you are out of the round, and Kamara's screens fit 80 by 24."""

from __future__ import annotations

import contextlib
import os
import pty
import re
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from laro.bots import get_bot
from laro.core import make_rng
from laro.games.lama import GAME

LEFT, UP = "\x1b[D", "\x1b[A"


class Terminal:
    """``laro`` running in a pseudo-terminal: type into it and wait for what it prints."""

    def __init__(self, *args: str, size: tuple[int, int] = (100, 40)) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child becomes laro
            os.environ.update({"COLUMNS": str(size[0]), "LINES": str(size[1]), "TERM": "xterm"})
            os.execv(sys.executable, [sys.executable, "-m", "laro", *args])
        self.seen = b""

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait_for(self, text: str, seconds: float = 20) -> str:
        """Read until ``text`` appears in what comes next (at most ``seconds``); returns what came until then."""
        start = len(self.seen)
        deadline = time.monotonic() + seconds
        while text.encode() not in self.seen[start:]:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"{text!r} did not appear; the screen ended with:\n{self._tail()}")
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.5))
            if ready:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:  # the child has gone
                    pytest.fail(f"laro ended before {text!r}:\n{self._tail()}")
        return self.seen[start:].decode(errors="replace")

    def _tail(self) -> str:
        return self.seen[-1500:].decode(errors="replace")

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


Start = Callable[..., Terminal]


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Start]:
    opened: list[Terminal] = []

    def start(*args: str, size: tuple[int, int] = (100, 40)) -> Terminal:
        opened.append(Terminal(*args, "--records", str(tmp_path), size=size))
        return opened[-1]

    yield start
    for each in opened:
        each.close()


def _starter(seed: int, players: int = 2) -> int:
    seat = GAME.new_game(players, seed=seed).current_player
    assert seat is not None
    return seat


def test_arrow_keys_edit_the_line_and_the_up_arrow_recalls_it(terminal: Start) -> None:
    seed = 11
    args = ["play", "lama", "-n", "2", "--bots", "random", "--delay", "0", "--seed", str(seed)]
    screen = terminal(*args, "--seat", str(_starter(seed)))
    screen.wait_for("Your move")
    screen.type(f"elp{LEFT * 3}h\r")  # typed "elp", went back to its start and put the h there: help
    assert "L.A.M.A. in short" in screen.wait_for("Your move")
    screen.type(f"{UP}\r")  # the last entry again
    assert "L.A.M.A. in short" in screen.wait_for("Your move")
    screen.type("exit\r")
    screen.wait_for("[y/N]")
    screen.type("n\r")
    screen.wait_for("Your move")
    screen.type(f"{UP}\r")  # exit, not the answer n: answers are not kept
    screen.wait_for("Stop the game here?")
    screen.type("y\r")
    screen.wait_for("saved to")


def _a_long_solo_round() -> tuple[int, int]:
    """A seed of a two-player game whose first turn is yours and, once you quit, the random bot moves at least
    four times alone; and the number of its moves."""
    for seed in range(1, 200):
        state = GAME.new_game(2, seed=seed)
        you = state.current_player
        assert you is not None
        state = state.apply("quit")
        bot, rng, moves = get_bot("random", "lama"), make_rng(seed, "bot", 1 - you), 0
        while state.round == 1 and not state.is_over:
            state = state.apply(bot.choose(state.observation(1 - you), state.legal_actions(), rng))
            moves += 1
        if moves >= 4:
            return seed, moves
    raise AssertionError("no such seed")


def test_enter_skips_the_bots_pauses_once_you_have_quit(terminal: Start) -> None:
    seed, moves = _a_long_solo_round()
    args = ["play", "lama", "-n", "2", "--bots", "random", "--delay", "5", "--seed", str(seed)]
    screen = terminal(*args, "--seat", str(_starter(seed)))
    screen.wait_for("Your move")
    screen.type("quit\r")
    screen.wait_for("press Enter to skip ahead")
    pressed = time.monotonic()
    screen.type("\r")
    screen.wait_for("Round 1 is over", seconds=4.5)  # the bot's moves would take 5 s each without it
    assert time.monotonic() - pressed < 4.5 and moves >= 4


ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def _screen_from(printed: str, first: str) -> list[str]:
    """The lines from the last one holding ``first`` to the end (the prompt), without colours."""
    lines = ESCAPES.sub("", printed).replace("\r", "").split("\n")
    start = max(number for number, line in enumerate(lines) if first in line)
    return lines[start:]


def test_kamara_fits_a_terminal_of_80_by_24(terminal: Start) -> None:
    """At 80 by 24 every Kamara screen, from its heading to the prompt, fits the terminal: the setup's, the tiles
    to place (more), the diwa's and the play's."""
    from tests.cli.test_cli_kamara import script

    from laro.games.kamara import GAME as KAMARA

    seed, start = 3, KAMARA.new_game(4, seed=3, options={"elder": 0})
    lines_typed, _, reached = script(start, seed, human_moves=14)
    assert reached.phase == "play"  # the moves typed go through the setup into the game
    args = ["play", "kamara", "-n", "4", "--bots", "random", "--delay", "0", "--seed", str(seed), "-o", "elder=0"]
    screen = terminal(*args, size=(80, 24))
    printed = screen.wait_for("Your move")
    words = " ".join(ESCAPES.sub("", printed).split())
    assert "This terminal is 80×24: the chamber is drawn compactly. At 100×36 or more it is drawn in full." in words
    assert "(more: the 9 tiles to place, both faces)" in words
    screen.type("more\r")
    pool = _screen_from(screen.wait_for("Your move"), "Tiles to place")
    assert len(pool) <= 24 and sum(line.count("(corner)") for line in pool) == 4, "\n".join(pool)
    headings = set()
    for typed, after in zip(lines_typed, [*lines_typed[1:], ""], strict=True):
        if typed == "y":  # the answer to "End your turn …? [y/N]"
            screen.type("y\r")
            printed = screen.wait_for("Your move", seconds=30)
            continue
        lines = _screen_from(printed, "· your turn")
        headings.add(lines[0].split("·")[0].strip("─ "))
        assert len(lines) <= 24 and max(len(line) for line in lines) <= 80, "\n".join(lines)
        screen.type(f"{typed}\r")
        printed = screen.wait_for("[y/N]" if after == "y" else "Your move", seconds=30)
    assert {"Setup: placing tiles", "Setup: choosing diwa"} <= headings and any("Round" in h for h in headings)
