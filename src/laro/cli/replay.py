"""``laro replay FILE``: step through a saved game, every hand visible (a post-game view)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from laro.cli.prompt import InputClosed, ask
from laro.cli.saved import whole_record_path
from laro.cli.views import GameView, PlayerInfo, view_for
from laro.cli.words import counted
from laro.core import GameRecord, GameState, PartialRecord, RecordError, iter_replay, load_record, result_of

__all__ = ["replay", "show_partial", "show_replay"]


@click.command()
@click.argument("file", metavar="FILE")
@click.option("--all", "-a", "show_all", is_flag=True, help="Print the whole game without stopping.")
def replay(file: str, show_all: bool) -> None:
    """Watch a saved game again, every hand visible.

    Shows the game record FILE move by move: Enter for the next move, q then Enter to stop; --all prints it all at
    once.
    A record taken while its game was played (it has no seed) lists the moves its reader was told.
    """
    console = Console(highlight=False)
    try:
        record = load_record(file)
        if isinstance(record, PartialRecord):
            show_partial(console, record)
            if whole_record_path(Path(file)).is_file():  # a terminal game stopped before its end
                again = f"laro play {record.game} --resume {file}"
                console.print(Text.assemble("Continue it with: ", (again, "bold")), soft_wrap=True)
        else:
            show_replay(console, record, step=not show_all)
    except RecordError as error:
        raise click.ClickException(str(error)) from None


def _players(record: GameRecord | PartialRecord) -> list[PlayerInfo]:
    names = [str(name) for name in record.players]
    names += [f"Seat {seat}" for seat in range(len(names), record.num_players)]
    return [PlayerInfo(name) for name in names[: record.num_players]]


def _option_text(key: str, value: object) -> str:
    """An option as it is given on the command line: ``open_cards=true``, ``end_score=40``, data as ``@FILE``.

    >>> _option_text("open_cards", True), _option_text("end_score", 40), _option_text("tiles", {"tiles": []})
    ('open_cards=true', 'end_score=40', 'tiles=(its own data)')
    """
    if isinstance(value, bool):
        return f"{key}={'true' if value else 'false'}"
    if isinstance(value, dict | list):
        return f"{key}=(its own data)"
    return f"{key}={value}"


def show_replay(console: Console, record: GameRecord, step: bool = True) -> None:
    """Show ``record`` from the start to its last action; with ``step`` wait for Enter after each action.

    Raises :class:`RecordError` if the record does not replay (what replayed until then has been shown).
    """
    view = view_for(record.game)
    players = _players(record)
    options = ", ".join(_option_text(key, value) for key, value in sorted(record.options.items()) if value is not None)
    console.print(
        Text.assemble(("Replay", "bold"), f" of a {record.game} game, {counted(len(record.actions), 'move')}")
    )
    seats = ", ".join(f"{seat} {p.label}" for seat, p in enumerate(players))
    console.print(Text(f"Players: {seats}"), soft_wrap=True)
    console.print(Text(f"Options: {options or 'the defaults'} · seed {record.seed}"), soft_wrap=True)
    _say_practice(console, record)
    state: GameState | None = None
    total = len(record.actions)
    for number, (action, after) in enumerate(iter_replay(record)):
        if action is None or state is None:
            _show_start(console, view, after, players)
        else:
            console.print(Text(f"Move {number}/{total}: ", style="dim"), end="")
            console.print(view.move(state, action, after, None, players))
            _show_after(console, view, state, after, players)
        state = after
        if step and number < total and not _next(console):
            console.print(Text(f"Stopped after move {number} of {total}.", style="dim"))
            return
    assert state is not None
    _show_end(console, view, record, state, players)


def _show_start(console: Console, view: GameView, state: GameState, players: list[PlayerInfo]) -> None:
    heading = view.round_start(state, players)
    if heading is not None:
        console.print(heading)
    console.print(view.turn(state, None, players))


def _show_after(
    console: Console, view: GameView, before: GameState, after: GameState, players: list[PlayerInfo]
) -> None:
    summary = view.round_end(before, after, players)
    if summary is not None:
        console.print(summary)
        if after.is_over:
            return
        heading = view.round_start(after, players)
        if heading is not None:
            console.print(heading)
    if not after.is_over:
        console.print(view.turn(after, None, players))


def _next(console: Console) -> bool:
    """Wait for Enter; ``False`` when the viewer wants to stop (q, end of input or Ctrl-C)."""
    try:
        answer = ask(console, "[dim]Enter: next move · q then Enter: stop [/]", remember=False)
    except (InputClosed, KeyboardInterrupt):
        return False
    return answer.strip().lower() not in ("q", "quit", "exit")


def _show_end(
    console: Console, view: GameView, record: GameRecord, state: GameState, players: list[PlayerInfo]
) -> None:
    if state.is_over:
        console.print(view.game_end(state, players))
    else:
        console.print(
            Text(
                f"The record ends after {counted(len(record.actions), 'move')}; the game was not finished.",
                style="yellow",
            )
        )
    if record.result is not None and record.result != result_of(state):
        console.print(Text("Note: the result stored in the record differs from the replayed game.", style="red"))


def _say_practice(console: Console, record: GameRecord | PartialRecord) -> None:
    if record.practice:
        taken = f"{counted(record.takebacks, 'turn')} taken back"
        console.print(Text(f"A practice game with takebacks (unrated): {taken}", style="cyan"), soft_wrap=True)


def show_partial(console: Console, record: PartialRecord) -> None:
    """List the moves of a record taken while its game was played: without the seed it cannot be replayed, and it
    holds only what its reader was told (another player's ``keep Y3`` as ``keep``)."""
    players = _players(record)
    reader = "a spectator" if record.seat is None else f"seat {record.seat} ({players[record.seat].label})"
    moves = counted(len(record.actions), "move")
    console.print(
        Text.assemble(
            ("Record", "bold"), f" of a {record.game} game being played, as {reader} saw it: ", f"{moves} so far."
        ),
        soft_wrap=True,
    )
    console.print(Text(f"Players: {', '.join(f'{seat} {p.label}' for seat, p in enumerate(players))}"), soft_wrap=True)
    _say_practice(console, record)
    for number, (seat, action) in enumerate(zip(record.seats, record.actions, strict=True), start=1):
        who = players[seat].label if 0 <= seat < len(players) else f"seat {seat}"
        console.print(Text(f"{number}. {who}: {action}"), soft_wrap=True)
    console.print(
        Text(
            "It has no seed, so the table cannot be shown move by move: the record of the whole game (seed "
            "included) can be had once it is over.",
            style="yellow",
        ),
        soft_wrap=True,
    )
