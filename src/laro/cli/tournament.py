"""``laro tournament GAME --bots a,b,c``: play many seeded games between bots, rotating them through the seats,
and print each bot's win rate (with its 95% interval), average score and rating.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(tournament, ["lama", "--bots", "heuristic,random", "--games", "4", "--seed", "1",
...     "--jobs", "1", "--quiet"])
>>> result.exit_code, "heuristic" in result.output
(0, True)
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from laro.bots import BotError
from laro.cli.play import game_options, parse_options, resolve_game, stop_on_signals
from laro.core import OptionError, new_seed
from laro.sim.executors import EXECUTORS, Executor, ExecutorError, get_executor
from laro.sim.plot import PlotError, check_plotting, plot_summary
from laro.sim.tournament import GameResult, Plan, Summary, Tournament, TournamentError, prepare, summarize

__all__ = ["render_summary", "tournament"]

DEFAULT_GAMES = 100
_PIPED_WIDTH = 1000  # columns when the output is no terminal: rich would cut the table at 80


@click.command()
@click.argument("game", metavar="GAME")
@click.option(
    "--bots",
    "-b",
    required=True,
    help="The lineup: one bot name per seat, comma-separated (e.g. heuristic,random,random); the number of "
    "players is the number of names. The lineup turns one seat each game, so every bot sits in every seat.",
)
@click.option(
    "--games",
    "-g",
    type=click.IntRange(min=1),
    default=None,
    help=f"Number of games [default: {DEFAULT_GAMES}, or as many as the --out file was started with].",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=None,
    help="The tournament's seed: the same seed gives the same games [default: a fresh one, printed; or the "
    "--out file's].",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Save each game as a JSON line in this file; run the same command again to resume it or, with more "
    "--games, to extend it.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (or a local cluster's workers) [default: one per CPU].",
)
@click.option(
    "--executor",
    type=click.Choice(EXECUTORS),
    default="local",
    show_default=True,
    help="Where games run: local processes, or a Ray or Dask cluster (extras ray, dask).",
)
@click.option("--address", default=None, help="The address of a running Ray or Dask cluster to use.")
@game_options("A game option, repeatable, e.g. edition=party, end_score=20 (L.A.M.A.) or max_rounds=30 (Kamara).")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Draw win rates and ratings into this image (PNG; extra plot).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="The summary as a table, or as JSON on standard output (the notes and progress then go to standard error).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or notes: only the table and its meaning.")
def tournament(
    game: str,
    bots: str,
    games: int | None,
    seed: int | None,
    out: Path | None,
    jobs: int | None,
    executor: str,
    address: str | None,
    option_pairs: tuple[str, ...],
    plot_path: Path | None,
    output_format: str,
    quiet: bool,
) -> None:
    """Play a tournament of GAME between bots and rate them.

    Game i gets its own seed from the tournament's seed, and each seat's bot its own random generator, so the
    results are the same whatever the executor and the number of jobs. The table shows, per bot name (seats
    with the same bot add up): seat-games, wins (a shared win is split), the win rate with its 95% Wilson
    interval, the fair share (1 / players), the average score and a rating: a Bradley-Terry fit of every pair
    of seats in all the games at once, on the Elo scale (extra ratings; without it the table has no ratings).

    \b
    Examples:
      laro tournament lama --bots heuristic,random,random,random --games 200
      laro tournament lama --bots hard,heuristic,heuristic,heuristic --games 400 --out hard.jsonl
      laro tournament kamara --bots heuristic,random,random --games 500 --out kamara.jsonl --plot kamara.png
      laro tournament lama --bots heuristic,random -o end_score=20 --executor dask --jobs 8
    """
    the_game = resolve_game(game)
    lineup = [name.strip() for name in bots.split(",")]
    if not all(lineup):
        raise click.BadParameter(f"give bot names separated by commas; got {bots!r}", param_hint="--bots")
    saved = _saved_header(out)
    fresh_seed = seed is None and saved is None
    if seed is None:
        seed = int(saved["seed"]) if saved is not None else new_seed()
    try:
        setup = Tournament.create(the_game.name, lineup, seed, parse_options(option_pairs))
    except (BotError, TournamentError) as error:
        raise click.BadParameter(str(error), param_hint="--bots") from None
    except OptionError as error:
        raise click.BadParameter(str(error), param_hint="--option") from None
    try:
        run = get_executor(executor, jobs, address)
        if plot_path is not None:
            check_plotting()
    except (ExecutorError, PlotError) as error:
        raise click.UsageError(str(error)) from None
    if games is None:
        games = int(saved["games"]) if saved is not None else DEFAULT_GAMES
    try:
        plan = prepare(setup, games, out)
    except TournamentError as error:
        raise click.BadParameter(str(error), param_hint="--out") from None

    console = Console(highlight=False, stderr=output_format == "json")
    if not console.is_terminal:
        console.width = _PIPED_WIDTH  # piped or redirected: the table as wide as it needs, never cut
    if not quiet:
        _announce(console, plan, fresh_seed)
        for name in sorted({name for name in lineup if _searches_for_a_time(name)}):
            console.print(
                f"[yellow]note:[/] {escape(name)} searches for a fixed time, so its games depend on this machine's "
                "speed and load and will not repeat exactly; a number of simulations (e.g. ismcts:2000) repeats.",
                soft_wrap=True,
            )
    try:
        with stop_on_signals():
            results = _play(plan, run, quiet)
    except KeyboardInterrupt:
        where = f"; run the same command again to resume from {escape(str(plan.out))}" if plan.out else ""
        raise click.ClickException(f"interrupted{where}") from None
    except (TournamentError, ExecutorError) as error:
        raise click.ClickException(str(error)) from None
    summary = summarize(setup, results)
    if output_format == "json":
        click.echo(json.dumps({**summary.to_json(), "seed": setup.seed, "bots": list(setup.bots)}, indent=1))
    else:
        render_summary(summary, setup, console)
    if plot_path is not None:
        plot_summary(summary, plot_path)
        if not quiet:
            console.print(f"[dim]plot saved to {escape(str(plot_path))}[/]", soft_wrap=True)


def _searches_for_a_time(name: str) -> bool:
    """A bot spec with a budget in seconds (``ismcts:2s``).

    >>> _searches_for_a_time("ismcts:2s"), _searches_for_a_time("ismcts:500"), _searches_for_a_time("hard")
    (True, False, False)
    """
    return ":" in name and name.endswith("s")


def _saved_header(out: Path | None) -> dict[str, Any] | None:
    """The header of an existing results file (to resume with its seed and number of games), if it has one."""
    if out is None or not out.is_file():
        return None
    try:
        with out.open("rb") as file:
            header = json.loads(file.readline())
    except (OSError, ValueError):
        return None
    ok = isinstance(header, dict) and isinstance(header.get("seed"), int) and isinstance(header.get("games"), int)
    return header if ok else None


def _announce(console: Console, plan: Plan, fresh_seed: bool) -> None:
    setup = plan.tournament
    seed = f"seed {setup.seed}" + (" (a fresh one: give --seed to repeat this run)" if fresh_seed else "")
    console.print(f"[bold]{setup.game}[/]: {', '.join(setup.bots)}; {plan.games:,} games, {seed}", soft_wrap=True)
    if plan.out is not None and plan.done:
        if plan.complete:
            console.print(f"[dim]{escape(str(plan.out))} already holds all {plan.games:,} games[/]", soft_wrap=True)
        else:
            played = f"{len(plan.done):,} of {plan.games:,} games already played"
            console.print(f"[dim]resuming {escape(str(plan.out))}: {played}[/]", soft_wrap=True)


def _play(plan: Plan, run: Executor, quiet: bool) -> list[GameResult]:
    if quiet or plan.complete:
        return plan.run(run)
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games · elapsed"),
        TimeElapsedColumn(),
        TextColumn("· left"),
        TimeRemainingColumn(),
    )
    # redrawn as games finish, not by a refresh thread: the worker processes fork from a single-threaded parent
    with Progress(*columns, console=Console(stderr=True), auto_refresh=False) as progress:
        task = progress.add_task("playing", total=plan.games, completed=len(plan.done))
        drawn = [0.0]

        def advance(_: GameResult) -> None:
            progress.advance(task)
            if time.monotonic() - drawn[0] >= 0.1:
                progress.refresh()
                drawn[0] = time.monotonic()

        return plan.run(run, on_result=advance)


def _wins(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def render_summary(summary: Summary, setup: Tournament, console: Console) -> None:
    """Print the standings table and one line on what it means.

    >>> import io
    >>> from laro.sim.tournament import run_tournament
    >>> setup = Tournament.create("lama", ["heuristic", "random"], seed=1)
    >>> console = Console(file=io.StringIO(), width=120)
    >>> render_summary(summarize(setup, run_tournament(setup, games=2)), setup, console)
    >>> "fair share" in console.file.getvalue()
    True
    """
    better = "lower" if summary.score_order == "low" else "higher"
    table = Table(
        title=f"{summary.game}: {summary.players} players, {summary.games:,} games, seed {setup.seed}",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    rated = summary.rating_method is not None
    table.add_column("bot", no_wrap=True)
    headers = ("games", "wins", "win rate", "95% CI", "fair share", "avg score", *(("rating",) if rated else ()))
    for header in headers:
        table.add_column(header, justify="right", no_wrap=header not in ("fair share", "avg score"))
    for standing in summary.standings:
        low, high = standing.interval
        table.add_row(
            standing.name,
            f"{standing.games:,}",
            _wins(standing.wins),
            f"{standing.win_rate:.1%}",
            f"{100 * low:.1f}–{100 * high:.1f}%",
            f"{standing.share:.1%}",
            f"{standing.average_score:.1f}",
            *((f"{standing.rating:.0f}",) if standing.rating is not None else ()),
        )
    console.print(table)
    rating = f"rating: {summary.rating_method}" if rated else "no ratings: pip install 'laro[ratings]' for them"
    piped = not console.is_terminal  # a line of its own however long; a terminal wraps it between words
    console.print(f"[dim]games: seat-games · avg score: {better} is better · {escape(rating)}[/]", soft_wrap=piped)
    console.print(summary.verdict(), soft_wrap=piped)
