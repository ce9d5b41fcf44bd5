"""One game at the terminal: a person at one seat, bots at the others, every move recorded.

The loop is the same for every game; what it shows comes from the game's view (:mod:`laro.cli.views`).
"""

from __future__ import annotations

import random
import time
from dataclasses import InitVar, dataclass, field
from datetime import datetime
from enum import Enum
from pathlib import Path

from rich.console import Console, RenderableType
from rich.markdown import Markdown
from rich.markup import escape
from rich.text import Text

from laro.bots import Bot, Follower, get_bot
from laro.cli import saved
from laro.cli.prompt import InputClosed, TimeUp, ask, pause
from laro.cli.takeback import UNDO_HELP, Moves, UndoRefused
from laro.cli.views import CommandView, ConfirmingView, GameView, MenuView, PlayerInfo
from laro.cli.words import counted
from laro.core import GameRecord, GameState, make_rng, result_of
from laro.core.readers import for_reader
from laro.server.clocks import Clocks

__all__ = ["Ending", "Session", "record_path"]


class Ending(Enum):
    """How a session ended; ``code`` is the command's exit status."""

    OVER = "over"
    LEFT = "left"  # the person typed exit
    CLOSED = "closed"  # standard input ended
    INTERRUPTED = "interrupted"  # Ctrl-C

    @property
    def code(self) -> int:
        return {"over": 0, "left": 0, "closed": 1, "interrupted": 130}[self.value]


class _Leave(Exception):
    """The person asked to stop the game."""


class _Undo(Exception):
    """The person takes back a ``step`` or their last turn (``takeback``)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass
class Session:
    """A game in progress at the terminal and everything needed to run, show and record it."""

    console: Console
    view: GameView
    state: GameState
    seed: int
    players: list[PlayerInfo]
    human: int
    bots: dict[int, Bot]
    delay: float = 0.6
    watch: bool = False  # show the table after every bot move too, not only when it is the person's turn
    path: Path | None = None  # where the record is kept up to date after every move
    rngs: dict[int, random.Random] = field(default_factory=dict)
    bot_names: dict[int, str] = field(default_factory=dict)
    resumed: InitVar[GameRecord | None] = None  # the record of an unfinished game that this session continues
    record: GameRecord = field(init=False)
    _hurry: bool = field(default=False, init=False)  # Enter was pressed: no pause until the person moves again
    clock: Clocks | None = None  # the person's clock (--clock), if any; bots are never timed
    standin: Bot | None = None  # plays the rest of the person's turn when their time runs out
    _standing_in: bool = field(default=False, init=False)
    takebacks: bool = False  # the person may take back their last turn: an unrated practice game
    moves: Moves = field(init=False)

    def __post_init__(self, resumed: GameRecord | None) -> None:
        names = [p.name for p in self.players]
        self.record = resumed or GameRecord.start(self.state, self.seed, players=names, bots=self.bot_names)
        self.record.practice = self.record.practice or self.takebacks
        self.moves = Moves.of_record(self.record, self.human) if resumed else Moves(self.record.game, self.human)
        self.moves.allowed = self.record.practice
        for seat in self.bots:
            self.rngs.setdefault(seat, make_rng(self.seed, "bot", seat))
        self.rngs.setdefault(self.human, make_rng(self.seed, "standin", self.human))

    def run(self) -> Ending:
        """Play until the game is over or the person stops it; the record is complete either way."""
        try:
            self._show_round_start()
            while not self.state.is_over:
                self._step()
        except _Leave:
            return Ending.LEFT
        except InputClosed:
            self.console.print(Text("Input ended: the game stops here.", style="yellow"))
            return Ending.CLOSED
        except KeyboardInterrupt:
            self.console.print()
            self.console.print(Text("Interrupted: the game stops here.", style="yellow"))
            return Ending.INTERRUPTED
        self.record.result = result_of(self.state)
        self.console.print(self.view.game_end(self.state, self.players))
        return Ending.OVER

    # -- one move -----------------------------------------------------------------------------------------

    def _step(self) -> None:
        seat = self.state.current_player
        assert seat is not None
        before = self.state
        person = seat == self.human and not self._standing_in
        if seat == self.human and self._standing_in and self.standin is not None:
            action = str(self.standin.choose(before.observation(seat), before.legal_actions(), self.rngs[seat]))
            after = before.apply(action)
        elif seat == self.human:
            try:
                action, after = self._human_move()
            except _Undo as undo:
                self._undo(undo.kind)
                return
            person = not self._standing_in  # a time-out hands the turn to the stand-in
        else:
            action = str(self.bots[seat].choose(before.observation(seat), before.legal_actions(), self.rngs[seat]))
            after = before.apply(action)
        self.state = after
        if self.clock is not None and after.current_player != self.human:  # the person's turn is over
            self.clock.end_turn(time.monotonic())
            self._standing_in = False
        self.record.actions.append(action)
        bot = None if person else self.bot_names.get(seat, self.standin.name if self.standin else None)
        self.moves.add(seat, action, person=person, bot=bot)
        if after.is_over:
            self.record.result = result_of(after)
        self._autosave()
        self.console.print(self.view.move(before, action, after, self.human, self.players))
        summary = self.view.round_end(before, after, self.players)
        watched = seat != self.human and self.watch and after.current_player != self.human
        if watched and not after.is_over and summary is None:  # a new round is shown after its summary
            self.console.print(self.view.turn(after, self.human, self.players))
        if seat == self.human or after.current_player == self.human:
            self._hurry = False
        elif self.delay > 0 and not self._hurry:
            self._hurry = pause(self.delay)
        if summary is not None:
            self._hurry = False
            self.console.print(summary)
            if not after.is_over:
                self._confirm_next_round()
                self._show_round_start()

    def _human_move(self) -> tuple[str, GameState]:
        try:
            return self._typed_move()
        except TimeUp:
            assert self.clock is not None and self.standin is not None
            self.clock.timed_out(self.human)
            self._standing_in = True
            self.console.print(
                Text(f"Your time ran out — the {self.standin.name} bot plays this turn for you.", style="bold yellow")
            )
            state = self.state
            action = str(
                self.standin.choose(state.observation(self.human), state.legal_actions(), self.rngs[self.human])
            )
            return action, state.apply(action)

    def _deadline(self) -> float | None:
        """Seconds left on the person's clock (started now if this is the first move of their turn)."""
        clock = self.clock
        if clock is None or not clock.timed:
            return None
        now = time.monotonic()
        if clock.turn_seat != self.human:
            clock.start_turn(self.human, now)
        left = clock.remaining(self.human, now) or 0.0
        increment = f" (+{clock.spec.increment:g} s a turn)" if clock.spec.increment else ""
        self.console.print(Text(f"Your clock: {_clock_text(left)} left{increment}", style="cyan"))
        return left

    def _typed_move(self) -> tuple[str, GameState]:
        view, state = self.view, self.state
        if isinstance(view, MenuView):
            self.console.print(view.screen(state, self.human, self.players))
            self._show_undo()
            question = view.prompt(state)
        else:
            self.console.print(view.turn(state, self.human, self.players))
            self._show_choices()
            keys = ", ".join(key for key, _ in view.choices(state))
            question = f"[bold]Your move[/] ({keys} · help): "
        while True:
            left = self._deadline()
            text = ask(self.console, question, timeout=left)
            command = text.strip().lower()
            if not command:
                self._show_choices()
            elif command in ("help", "h", "?"):
                self.console.print(Markdown(view.help_markdown + UNDO_HELP))
                self._show_choices()
            elif command in ("undo", "undo turn"):
                try:
                    raise _Undo(self.moves.kind_for(command, state.current_player))
                except UndoRefused as refused:
                    self.console.print(Text(str(refused), style="red"))
            elif command == "rules":
                self._show_rules()
                self._show_choices()
            elif command == "exit":
                self._confirm_leave()
                self._show_choices()
            elif (shown := self._view_command(command)) is not None:
                self.console.print(shown)
            else:
                try:
                    action = view.parse(text, state)
                    after = state.apply(action)
                except ValueError as error:
                    self.console.print(Text(str(error), style="red"))
                    continue
                if self._confirmed(text, action, state):
                    return action, after
                self._show_choices()

    def _view_command(self, word: str) -> RenderableType | None:
        """The view's answer to a word of its own (Kamara's ``more``), or None."""
        if not isinstance(self.view, CommandView):
            return None
        return self.view.command(word, self.state, self.human, self.players)

    def _undo(self, kind: str) -> None:
        """Take back a step or the last turn: the game replayed without the undone moves, and every bot that
        moved among them made anew (reading again what it saw at its moves still in force, if it can)."""
        undone = self.moves.take_back(kind)
        del self.record.actions[len(self.record.actions) - len(undone) :]
        self.record.result = None
        self.state = self.moves.replayed(self.record)
        for seat in {move.seat for move in undone if move.seat != self.human}:
            self.bots[seat] = get_bot(self.bot_names[seat], self.record.game)
            self._follow(seat)
        if kind == "takeback":
            self.record.takebacks += 1
            count = len(undone)
            text = f"You take back your last turn ({counted(count, 'move')} undone)."
        else:
            text = f"You take back {undone[0].action}."
        self._autosave()
        self.console.print(Text(text, style="bold yellow"))

    def _follow(self, seat: int) -> None:
        bot = self.bots[seat]
        if not isinstance(bot, Follower):
            return
        state = self.state.game.new_game(self.state.num_players, seed=self.seed, options=self.record.options)
        for move in self.moves.moves:
            if move.seat == seat:
                bot.follow(state.observation(seat))
            state = state.apply(move.action)

    def _undo_what(self) -> str:
        kind = self.moves.kind_for("undo", self.state.current_player)
        return f"{self.moves.moves[-1].action}" if kind == "step" else "your last turn (a practice game)"

    def _show_undo(self) -> None:
        if self.moves.offered(self.state.current_player):
            self.console.print(Text.assemble(("undo", "bold cyan"), " takes back ", self._undo_what()))

    def _show_choices(self) -> None:
        if isinstance(self.view, MenuView):
            self.console.print(self.view.menu(self.state))
            self._show_undo()
            return
        self._show_undo()
        line = Text("You can: ")
        for number, (key, what) in enumerate(self.view.choices(self.state)):
            if number:
                line.append(" · ")
            line.append(key, style="bold cyan")
            line.append(f" {what}")
        self.console.print(line)

    def _show_rules(self) -> None:
        try:
            options = getattr(self.state, "options", None)  # an edition has its own rules page
            self.console.print(Markdown(for_reader(self.state.game.rules_text("en", options), "terminal")))
        except ValueError as error:
            self.console.print(Text(str(error), style="red"))

    def _confirmed(self, typed: str, action: str, state: GameState) -> bool:
        """Whether to take ``action``: at once, or after a yes to the view's question about it."""
        question = self.view.confirmation(typed, action, state) if isinstance(self.view, ConfirmingView) else None
        if question is None:
            return True
        return ask(self.console, escape(question) + " ", remember=False).strip().lower() in ("y", "yes")

    def _confirm_leave(self) -> None:
        """Stop the game if the person confirms (raises ``_Leave``), else carry on."""
        question = escape("Stop the game here? It is saved, to be continued with --resume. [y/N] ")
        answer = ask(self.console, question, remember=False)
        if answer.strip().lower() in ("y", "yes"):
            raise _Leave

    def _confirm_next_round(self) -> None:
        answer = ask(self.console, "[dim]Press Enter for the next round (or type exit): [/]", remember=False)
        if answer.strip().lower() == "exit":
            self._confirm_leave()

    def _show_round_start(self) -> None:
        heading = self.view.round_start(self.state, self.players)
        if heading is not None:
            self.console.print()
            self.console.print(heading)

    # -- the record ---------------------------------------------------------------------------------------

    def save(self, directory: Path) -> Path:
        """Save the record (at ``path``, or under a new timestamped name in ``directory``); returns its path. While
        the game runs, the file holds only what the person may know (see :mod:`laro.cli.saved`)."""
        if self.path is None:
            self.path = record_path(directory, self.record.game)
        return saved.write(self.path, self.record, self.state, [move.seat for move in self.moves.moves], self.human)

    def _autosave(self) -> None:
        """Keep the record on disk after every move, so that nothing is lost if the process dies."""
        if self.path is not None:
            self.save(self.path.parent)


def _clock_text(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) of a clock.

    >>> _clock_text(83.4), _clock_text(3725)
    ('1:23', '1:02:05')
    """
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def record_path(directory: Path, game: str, now: datetime | None = None) -> Path:
    """A new, readable file name for a record: ``lama_2025-01-31_14-05-09.json`` (``_2``, ``_3``… if taken)."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d_%H-%M-%S")
    path = directory / f"{game}_{stamp}.json"
    number = 2
    while path.exists():
        path = directory / f"{game}_{stamp}_{number}.json"
        number += 1
    return path
