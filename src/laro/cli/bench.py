"""``laro bench``: measure the engines on this machine and print the figures."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from laro.core.registry import list_games
from laro.sim.bench import BenchReport, bench_game

__all__ = ["bench"]


def _number(value: float, unit: str) -> str:
    if unit in ("KiB", "bytes"):
        return f"{value:,.1f} {unit}"
    return f"{value:,.0f} {unit}"


def render(report: BenchReport, console: Console) -> None:
    """Print one game's figures and targets, then the baselines measured in the same run with the ratios."""
    table = Table(title=f"{report.game}: {report.players} players, {report.seconds:g} s per figure, one core")
    table.add_column("measure")
    table.add_column("laro", justify="right")
    table.add_column("target", justify="right")
    shown: set[str] = set()
    for figure in report.figures:
        if figure.name in shown:
            continue
        shown.add(figure.name)
        target = ""
        if figure.target is not None:
            mark = "[green]met[/]" if figure.meets_target else "[red]missed[/]"
            target = f"≥ {_number(figure.target, figure.unit)} {mark}"
        table.add_row(figure.name, _number(figure.value, figure.unit), target)
    console.print(table)
    compared = [figure for figure in report.figures if figure.baseline]
    if compared:
        baselines = Table(title="baselines, measured in this run")
        baselines.add_column("engine")
        baselines.add_column("measure")
        baselines.add_column("baseline", justify="right")
        baselines.add_column("laro ÷ baseline", justify="right")
        for figure in compared:
            assert figure.baseline is not None and figure.ratio is not None
            baselines.add_row(
                figure.baseline_name, figure.name, _number(figure.baseline, figure.unit), f"{figure.ratio:.2f}×"
            )
        console.print(baselines)
    for note in report.notes:
        console.print(f"[dim]{note}[/]")
    console.print(f"[dim]{report.machine}; every figure above was measured now, on this machine[/]")


@click.command()
@click.argument("game", required=False)
@click.option("--seconds", type=click.FloatRange(0.05, 120), default=3.0, show_default=True, help="Time per figure.")
@click.option("--players", type=int, default=4, show_default=True, help="Players per game.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON instead of a table.")
def bench(game: str | None, seconds: float, players: int, as_json: bool) -> None:
    """Benchmark GAME's engine (every game if omitted): random-playout games and moves per second, apply and
    legal_actions calls per second, JSON round trips and memory, against baselines measured in the same run."""
    games = [game] if game else list_games()
    for name in games:
        if name not in list_games():
            raise click.BadParameter(f"unknown game {name!r}; games: {', '.join(list_games())}", param_hint="GAME")
    console = Console()
    for name in games:
        if not as_json:
            console.print(f"[bold]measuring {name}[/] …")
        report = bench_game(name, seconds=seconds, players=players)
        if as_json:
            click.echo(report.dumps())
        else:
            render(report, console)
