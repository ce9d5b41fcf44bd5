"""``laro analyse RECORD --seat N``: grade each decision of one seat by the search, from that seat's knowledge.

>>> import json, tempfile, pathlib, laro
>>> from click.testing import CliRunner
>>> from laro.core import GameRecord
>>> record = GameRecord.start(laro.get_game("lama").new_game(2, seed=4), seed=4, players=["Ana", "Bo"])
>>> record.actions = ["play 5", "play 5", "play 5", "play 6"]
>>> with tempfile.TemporaryDirectory() as folder:
...     path = record.save(pathlib.Path(folder) / "game.json")
...     result = CliRunner().invoke(analyse, [str(path), "--seat", "0", "--budget", "10", "--json"])
>>> result.exit_code, json.loads(result.output)["format"]
(0, 'laro-analysis/1')
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from laro.bots.analysis import BLUNDER, INACCURACY, MISTAKE, AnalysisError, default_budget
from laro.bots.analysis import analyse as run_analysis
from laro.cli.views import view_for
from laro.cli.words import a, counted
from laro.core import GameRecord, JSONDict, LaroError, RecordError, iter_replay

__all__ = ["analyse", "move_words", "render_analysis"]

_STYLE = {"good": "", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


@click.command()
@click.argument("record_file", metavar="RECORD")
@click.option(
    "--seat",
    "-s",
    type=int,
    default=None,
    help="The seat whose decisions are graded [default: the first seat no bot played, else 0].",
)
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=None,
    help="Determinisations per decision, each move compared played out from every one "
    "[default: 200 for L.A.M.A., 30 for Kamara]. More is slower and less noisy.",
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="The search's seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON instead of a table.")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Draw the win chance over the game into this image (PNG or SVG; extra plot).",
)
@click.option("--marked", is_flag=True, help="List only the marked moves (inaccuracies, mistakes, blunders).")
def analyse(
    record_file: str,
    seat: int | None,
    budget: int | None,
    seed: int,
    as_json: bool,
    plot_path: Path | None,
    marked: bool,
) -> None:
    """Grade each decision of one seat in a game record by the search.

    The search sees only what the seat saw then (its own cards, what was played before), never the hidden
    cards: each move's value is its estimated chance to win the game, and a move that loses at least
    3 / 7 / 15 points of win chance against the best move found is an inaccuracy / mistake / blunder.
    The same record, seat, budget and seed give the same analysis. What the figures mean: docs/analysis.md.

    \b
    Examples:
      laro analyse records/lama_....json --seat 0
      laro analyse game.json --seat 2 --budget 400 --seed 1 --plot game.png
      laro analyse game.json --json > analysis.json
    """
    console = Console(highlight=False)
    try:
        record = GameRecord.load(record_file)
        if seat is None:
            seat = next((s for s in range(record.num_players) if s not in record.bots), 0)
        if plot_path is not None:
            from laro.sim.plot import check_plotting

            check_plotting()
        result = _run(record, seat, budget, seed, Console(stderr=True) if not as_json else None)
    except (RecordError, AnalysisError) as error:
        raise click.ClickException(str(error)) from None
    except LaroError as error:
        raise click.ClickException(str(error)) from None
    data = result.to_json()
    if as_json:
        click.echo(json.dumps(data, indent=1))
    else:
        render_analysis(console, data, marked, move_words(record, data))
    if plot_path is not None:
        from laro.sim.analysis_plot import plot_analysis

        plot_analysis(data, plot_path)
        if not as_json:
            console.print(f"[dim]plot saved to {escape(str(plot_path))}[/]", soft_wrap=True)


def _run(record: GameRecord, seat: int, budget: int | None, seed: int, console: Console | None) -> Any:
    if console is None or not console.is_terminal:
        return run_analysis(record, seat, budget, seed)
    columns = (TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("analyse", total=len(record.actions))
        return run_analysis(record, seat, budget, seed, lambda done, _: progress.update(task, completed=done))


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


Words = dict[tuple[int, str], Text]


def move_words(record: GameRecord, data: JSONDict) -> Words:
    """The terminal's words for the moves of each decision, the move played and the best found, keyed by
    ``(move number, action)``: as the game's view says them in play (``played 3``, ``drew a card``), told as the
    seat saw them — the card its draw brought, but not the one a move it did not make would have brought.

    >>> import laro
    >>> record = GameRecord.start(laro.get_game("lama").new_game(2, seed=4), seed=4)
    >>> record.actions = ["play 5", "draw"]
    >>> decision = {"move": 2, "played": "draw", "best": "quit"}
    >>> said = move_words(record, {"seat": 0, "decisions": [decision]})
    >>> said[2, "draw"].plain.split()[:3], said[2, "quit"].plain
    (['drew', 'a', 'card:'], 'quit the round (holding 6 cards)')
    """
    view = view_for(record.game)
    wanted = {decision["move"]: decision for decision in data["decisions"]}
    said: Words = {}
    for number, (_, before) in enumerate(iter_replay(record), start=1):  # the state before action `number`
        decision = wanted.get(number)
        if decision is None:
            continue
        for action in dict.fromkeys((decision["played"], decision["best"])):
            after = before.apply(action)
            said[number, action] = view.words(before, action, after, data["seat"], action == decision["played"])
    return said


def render_analysis(console: Console, data: JSONDict, marked: bool = False, words: Words | None = None) -> None:
    """Print an analysis (its JSON form) as a table of decisions and a summary; ``words`` (from
    :func:`move_words`) says the moves as the game's view does, else they are shown as their action text."""

    def say(number: int, action: str) -> Text:
        return words[number, action] if words and (number, action) in words else Text(action)

    budget = data["budget"]
    default = " (the default)" if budget == default_budget(data["game"]) else ""
    console.print(
        f"[bold]Analysis[/] of {escape(data['player'])} (seat {data['seat']}) in a {data['game']} game of "
        f"{counted(data['actions'], 'move')} · budget {budget}{default}, seed {data['seed']}",
        soft_wrap=True,
    )
    console.print(
        "[dim]Win: the search's estimate of the chance to win after the move, from what the seat knew then.[/]"
    )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name, justify in (("move", "right"), ("played", "left"), ("win", "right"), ("best found", "left"),
                          ("its win", "right"), ("loss", "right"), ("mark", "left")):  # fmt: skip
        # the figures keep to one line; the moves in words take the rest of the width and wrap within it
        table.add_column(name, justify=justify, no_wrap=justify == "right" or name == "mark")  # type: ignore[arg-type]
    for decision in data["decisions"]:
        mark = decision["verdict"]
        if marked and mark == "good":
            continue
        same = decision["best"] == decision["played"]
        table.add_row(
            str(decision["move"]),
            say(decision["move"], decision["played"]),
            _percent(decision["played_value"]),
            "" if same else say(decision["move"], decision["best"]),
            "" if same else _percent(decision["best_value"]),
            "" if same else f"{100 * decision['loss']:.1f}",
            "" if mark == "good" else mark,
            style=_STYLE[mark],
        )
    console.print(table)
    summary = data["summary"]
    if not summary["graded"]:
        console.print("No decision to grade: every move of this seat was forced.")
        return
    skipped = f"; {summary['forced']} forced" if summary["forced"] else ""
    skipped += f", {summary['level']} where no move was better" if summary["level"] else ""
    console.print(
        f"[bold]Accuracy {_percent(summary['accuracy'])}[/]: {counted(summary['graded'], 'decision')} graded{skipped}; "
        f"the best move found played {counted(summary['best_played'], 'time')}; average loss "
        f"{100 * summary['average_loss']:.1f} points of win chance.",
        soft_wrap=True,
    )
    console.print(
        f"{counted(summary['inaccuracies'], 'inaccuracy', 'inaccuracies')} (≥ {100 * INACCURACY:.0f} points), "
        f"{counted(summary['mistakes'], 'mistake')} (≥ {100 * MISTAKE:.0f}), "
        f"{counted(summary['blunders'], 'blunder')} (≥ {100 * BLUNDER:.0f}).",
        soft_wrap=True,
    )
    by_move = {decision["move"]: decision for decision in data["decisions"]}
    for number in summary["biggest"]:
        decision = by_move[number]
        line = Text.assemble(f"  move {number}: ", say(number, decision["played"]))
        line.append(f" ({_percent(decision['played_value'])}); best: ")
        line.append_text(say(number, decision["best"]))
        loss = f"−{100 * decision['loss']:.1f} points"
        line.append(f" ({_percent(decision['best_value'])}), {loss}, {a(decision['verdict'])}")
        console.print(line, soft_wrap=True)
    if data["won"] is not None:
        console.print(f"The game ended: {escape(data['player'])} {'won' if data['won'] else 'did not win'}.")
