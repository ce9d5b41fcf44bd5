"""How a game looks in the terminal: the view protocol, who sits where, and a generic view for any game.

A game with its own view (``lama_view``, ``kamara_view``) is drawn nicely; any other registered game falls back
to :class:`GenericView`, which shows JSON and numbers the legal actions. A view whose choices are too many to list
one by one also keeps :class:`MenuView`: it draws its own menu and prompt.

>>> import laro
>>> view_for("lama").game, view_for("kamara").game
('lama', 'kamara')
>>> isinstance(view_for("kamara"), MenuView), isinstance(view_for("lama"), MenuView)
(True, False)
>>> GenericView("lama").parse("3", laro.get_game("lama").new_game(2, seed=3))
'quit'
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rich.console import Console, Group, RenderableType
from rich.json import JSON
from rich.rule import Rule
from rich.text import Text

from laro.core import GameState, MalformedActionError

__all__ = [
    "CommandView",
    "ConfirmingView",
    "GameView",
    "GenericView",
    "MenuView",
    "PlayerInfo",
    "terminal_text",
    "view_for",
]


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Who sits at a seat: the name shown, and whether it is the person at this terminal."""

    name: str
    is_you: bool = False

    @property
    def label(self) -> str:
        """The name as shown at the table: the person at the terminal is marked ``(you)``."""
        if self.is_you and self.name.lower() != "you":
            return f"{self.name} (you)"
        return self.name


class GameView(Protocol):
    """Everything the play and replay commands need to show one game and read its moves.

    ``viewer`` is the seat whose eyes we see through (its hand is shown, the others' are not), or ``None`` for
    the post-game view of a replay, where every hand is visible.
    """

    game: str
    help_markdown: str

    def turn(self, state: GameState, viewer: int | None, players: Sequence[PlayerInfo]) -> RenderableType:
        """The picture of the table when it is someone's turn."""
        ...

    def choices(self, state: GameState) -> list[tuple[str, str]]:
        """The legal actions as ``(what to type, what it does)`` pairs."""
        ...

    def parse(self, text: str, state: GameState) -> str:
        """The action text meant by what a person typed; a ``ValueError`` explains what is wrong."""
        ...

    def move(
        self, before: GameState, action: str, after: GameState, viewer: int | None, players: Sequence[PlayerInfo]
    ) -> RenderableType:
        """One line saying who did what."""
        ...

    def words(self, before: GameState, action: str, after: GameState, viewer: int | None, outcome: bool = True) -> Text:
        """What the move did, as ``move`` says it but without who did it (``played 3``); the cards the move drew
        or showed (``drew a card: 5``) are told to their owner and in a replay, and only when ``outcome`` is true."""
        ...

    def round_end(self, before: GameState, after: GameState, players: Sequence[PlayerInfo]) -> RenderableType | None:
        """The summary of the round that the move from ``before`` to ``after`` ended, if it ended one."""
        ...

    def round_start(self, state: GameState, players: Sequence[PlayerInfo]) -> RenderableType | None:
        """The heading of a round that has just been dealt (``None`` for games without rounds)."""
        ...

    def game_end(self, state: GameState, players: Sequence[PlayerInfo]) -> RenderableType:
        """The final ranking and the winners."""
        ...


@runtime_checkable
class MenuView(Protocol):
    """A view that shows the choices itself (grouped, numbered as it likes) instead of one ``key what`` list."""

    def menu(self, state: GameState) -> RenderableType:
        """What the person can do now."""
        ...

    def prompt(self, state: GameState) -> str:
        """The question asked for a move (rich markup allowed)."""
        ...

    def screen(self, state: GameState, viewer: int | None, players: Sequence[PlayerInfo]) -> RenderableType:
        """The turn and the menu together, laid out for the terminal (shown when the person is to move)."""
        ...


@runtime_checkable
class CommandView(Protocol):
    """A view that answers words of its own at the prompt, beside actions and the session's commands."""

    def command(
        self, word: str, state: GameState, viewer: int | None, players: Sequence[PlayerInfo]
    ) -> RenderableType | None:
        """What to show for ``word`` (typed alone, in lower case), or None when it is not one of the view's."""
        ...


@runtime_checkable
class ConfirmingView(Protocol):
    """A view that asks before some moves are taken (a move typed in one key that cannot be taken back)."""

    def confirmation(self, typed: str, action: str, state: GameState) -> str | None:
        """The yes/no question to ask before ``action`` (meant by what was ``typed``), or None to take it."""
        ...


class GenericView:
    """A plain view for any game: JSON for the table, legal actions numbered from 1."""

    help_markdown = "Type the number of an action from the list, or its text. Other commands: `help`, `rules`, `exit`."

    def __init__(self, game: str) -> None:
        self.game = game

    def turn(self, state: GameState, viewer: int | None, players: Sequence[PlayerInfo]) -> RenderableType:
        """The observation of ``viewer`` (or the full state in a replay) as JSON."""
        data = state.to_json() if viewer is None else state.observation(viewer)
        whose = "nobody" if state.current_player is None else players[state.current_player].label
        return Group(Rule(f"{whose} to play"), JSON(json.dumps(data)))

    def choices(self, state: GameState) -> list[tuple[str, str]]:
        """The legal actions numbered from 1."""
        return [(str(number), str(action)) for number, action in enumerate(state.legal_actions(), start=1)]

    def parse(self, text: str, state: GameState) -> str:
        """A number from the list, or an action's text."""
        legal = state.legal_actions()
        text = text.strip()
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(legal):
                raise MalformedActionError(f"choose a number from 1 to {len(legal)}")
            return str(legal[number - 1])
        return str(state.game.parse_action(text))

    def move(
        self, before: GameState, action: str, after: GameState, viewer: int | None, players: Sequence[PlayerInfo]
    ) -> RenderableType:
        """``name: action``."""
        actor = before.current_player
        name = "?" if actor is None else players[actor].label
        return Text(f"{name}: {action}")

    def words(self, before: GameState, action: str, after: GameState, viewer: int | None, outcome: bool = True) -> Text:
        """The action's text."""
        return Text(action)

    def round_end(self, before: GameState, after: GameState, players: Sequence[PlayerInfo]) -> RenderableType | None:
        """Nothing: the generic view knows no rounds."""
        return None

    def round_start(self, state: GameState, players: Sequence[PlayerInfo]) -> RenderableType | None:
        """Nothing: the generic view knows no rounds."""
        return None

    def game_end(self, state: GameState, players: Sequence[PlayerInfo]) -> RenderableType:
        """Every seat's score and the winners."""
        lines = [f"{player.label}: {score}" for player, score in zip(players, state.scores, strict=True)]
        winners = ", ".join(players[seat].label for seat in state.winners) or "nobody"
        return Group(Rule("Game over"), Text("\n".join(lines)), Text(f"Winner(s): {winners}", style="bold"))


def view_for(game: str) -> GameView:
    """The terminal view of ``game``: its own if it has one, else the generic one."""
    if game == "lama":
        from laro.cli.lama_view import LamaView

        return LamaView()
    if game == "kamara":
        from laro.cli.kamara_view import KamaraView

        return KamaraView()
    return GenericView(game)


def terminal_text(state: GameState, viewer: int | None, width: int = 100) -> str:
    """The terminal's picture of the table through ``viewer``'s eyes, its seats named ``player_0`` …, as text
    with ANSI colours; once the game is over, every hand and the final ranking. Offered in the ``laro.views``
    entry-point group: the rl environments' ``render_mode="ansi"`` returns it.

    >>> import laro
    >>> text = terminal_text(laro.get_game("lama").new_game(2, seed=3), 1)
    >>> "player_1 (you)" in text and "Your hand" in text
    True
    """
    view = view_for(state.game.name)
    players = [PlayerInfo(f"player_{seat}", is_you=seat == viewer) for seat in range(state.num_players)]
    out = io.StringIO()
    console = Console(file=out, width=width, height=60, force_terminal=True, color_system="standard")
    if state.is_over:
        console.print(view.turn(state, None, players))
        console.print(view.game_end(state, players))
    else:
        console.print(view.turn(state, viewer, players))
    return out.getvalue()
