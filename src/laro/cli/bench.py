"""``laro bench``: measure the engines on this machine and print the figures."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import asdict, dataclass
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from laro.cli.play import game_options, parse_options
from laro.cli.words import counted
from laro.core import LaroError
from laro.core.registry import get_game, list_games
from laro.sim.bench import BenchReport, against_bridge, bench_game
from laro.sim.search_bench import bench_search, bench_tournament_speed

__all__ = ["bench"]


def _number(value: float, unit: str) -> str:
    if unit in ("KiB", "bytes"):
        return f"{value:,.1f} {unit}"
    return f"{value:,.0f} {unit}"


def render(report: BenchReport, console: Console) -> None:
    """Print one game's figures and targets, then the baselines measured in the same run with the ratios."""
    options = "".join(f", {key}={value}" for key, value in report.options.items())
    table = Table(title=f"{report.game}{options}: {report.players} players, {report.seconds:g} s per figure, one core")
    table.add_column("measure")
    table.add_column("laro", justify="right")
    table.add_column("target", justify="right")
    shown: set[str] = set()
    for figure in report.figures:
        if figure.name in shown:
            continue
        shown.add(figure.name)
        target = ""
        mark = "[green]met[/]" if figure.meets_target else "[red]missed[/]"
        if figure.target is not None:
            target = f"≥ {_number(figure.target, figure.unit)} {mark}"
        elif figure.target_ratio is not None:
            target = f"≥ {figure.target_ratio:g}× {figure.baseline_name} {mark}"
        table.add_row(escape(figure.name), _number(figure.value, figure.unit), target)
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
                escape(figure.baseline_name),
                escape(figure.name),
                _number(figure.baseline, figure.unit),
                f"{figure.ratio:.2f}×",
            )
        console.print(baselines)
    for note in report.notes:
        console.print(f"[dim]{escape(note)}[/]")
    console.print(f"[dim]{escape(report.machine)}; every figure above was measured now, on this machine[/]")


@click.command()
@click.argument("game", required=False)
@click.option("--seconds", type=click.FloatRange(0.05, 3600), default=None, help="Time per figure [3; server: 30].")
@click.option("--players", type=int, default=4, show_default=True, help="Players per game.")
@click.option("--tables", type=click.IntRange(1, 2000), default=200, show_default=True, help="server: tables at once.")
@click.option(
    "--think",
    type=click.FloatRange(0, 60),
    default=0.5,
    show_default=True,
    help="server: seconds a client waits before each action (half to one and a half times this).",
)
@click.option(
    "--game-played", "game_played", default="lama", show_default=True, help="server: the game the tables play."
)
@click.option(
    "--db", "database", default=None, metavar="URL", help="server: a store URL (default: SQLite in a temp dir)."
)
@click.option("--batch", type=click.IntRange(1, 1 << 20), default=4096, show_default=True, help="rl: games at once.")
@click.option(
    "--bots",
    type=click.IntRange(0, 7),
    default=0,
    show_default=True,
    help="server: seats of each table played by the server's heuristic bots (the others by clients).",
)
@click.option(
    "--heavy",
    type=click.IntRange(0, 200),
    default=0,
    show_default=True,
    help="server: measure again while this many tables of 6 hard L.A.M.A. bots think, against a first run without.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 30),
    default=0.6,
    show_default=True,
    help="server: the server's --bot-delay (seconds a bot waits before each action).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 16),
    default=None,
    help="server, PostgreSQL: the same load on 1, 2, … this many processes, then the time a lease takes to move.",
)
@game_options(
    "A game option, as for laro play: -o edition=party measures L.A.M.A.'s Party Edition (and compares its "
    "playouts with the classic game's)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON instead of a table.")
def bench(
    game: str | None,
    seconds: float | None,
    players: int,
    tables: int,
    think: float,
    game_played: str,
    database: str | None,
    batch: int,
    bots: int,
    heavy: int,
    bot_delay: float,
    workers: int | None,
    option_pairs: tuple[str, ...],
    as_json: bool,
) -> None:
    """Benchmark GAME's engine (every game if omitted): random-playout games and moves per second, apply and
    legal_actions calls per second, JSON round trips (a state's clone) and memory, ISMCTS simulations and
    determinisations per second, and tournament games per second on two processes against one, with
    baselines measured in the same run.

    `laro bench server` starts a server on loopback and plays --tables tables at once with bot-driven WebSocket
    clients, then prints actions per second, latency percentiles (action sent to its state received), errors and
    lost actions; --bots seats of each table are the server's bots, and --heavy adds a second run while tables of
    hard bots think, with the ratio of the latencies against the first.

    `laro bench rl` steps --batch L.A.M.A. games at once with the batched engine and compares it with the scalar
    engine stepped through PettingZoo and with PettingZoo's own leduc_holdem_v4 (the rl extra).

    `laro bench store` measures appends per second into the SQLite store with 1, 50 and 400 writers, grouped
    commits against one commit per append.
    """
    if game == "rl":
        _bench_rl(seconds or 3.0, batch, players, as_json)
        return
    if game == "server":
        load = _ServerLoad(players, tables, think, game_played, database, bots, heavy, bot_delay)
        if workers is not None:
            from laro.cli.bench_cluster import bench_cluster

            bench_cluster(seconds or 30.0, load, workers, as_json)
            return
        _bench_server(seconds or 30.0, load, as_json)
        return
    if game == "store":
        from laro.cli.bench_store import bench_store

        bench_store(seconds or 3.0, (1, 50, 400), as_json)
        return
    games = [game] if game else list_games()
    for name in games:
        if name not in list_games():
            raise click.BadParameter(
                f"unknown game {name!r}; games: {', '.join(list_games())}, server, store or rl", param_hint="GAME"
            )
    options = parse_options(option_pairs)
    if options and len(games) != 1:
        raise click.BadParameter("options are a game's: name the game", param_hint="--option")
    try:
        for name in games:
            get_game(name).new_game(players, seed=0, options=options)  # refuse bad options before measuring
    except LaroError as error:
        raise click.BadParameter(str(error), param_hint="--option") from None
    console = Console()
    for name in games:
        if not as_json:
            shown = "".join(f" {key}={value}" for key, value in options.items())
            console.print(f"[bold]measuring {name}{shown}[/] …")
        report = bench_game(name, seconds=seconds or 3.0, players=players, options=options)
        if name == "kamara" and not options:
            _bench_bridge(report, seconds or 3.0)
        report.figures += bench_search(name, seconds=seconds or 3.0, players=players, options=options)
        report.figures.append(bench_tournament_speed(name, seconds=seconds or 3.0, players=players, options=options))
        if as_json:
            click.echo(report.dumps())
        else:
            render(report, console)


def _bench_bridge(report: BenchReport, seconds: float) -> None:
    """Kamara's random playouts through laro's OpenSpiel game against the engine itself (the rl extra)."""
    if importlib.util.find_spec("pyspiel") is None:
        report.notes.append("OpenSpiel is not installed: pip install 'laro[rl]' measures laro's OpenSpiel game too")
        return
    import laro.rl.spiel  # noqa: F401  # registers python_laro_kamara

    report.figures.append(against_bridge(report.game, report.players, seconds))


@dataclass(frozen=True, slots=True)
class _ServerLoad:
    players: int
    tables: int
    think: float
    game: str
    database: str | None
    bots: int
    heavy: int
    bot_delay: float


def _bench_server(seconds: float, load: _ServerLoad, as_json: bool) -> None:
    try:
        from laro.server.bench import run_server_bench
    except ImportError as error:
        raise click.ClickException(f"the server needs its extra: pip install 'laro[server]' ({error})") from None
    if load.bots >= load.players:
        raise click.BadParameter(f"leave a seat for a client: at most {load.players - 1}", param_hint="--bots")
    console = Console()
    store = "PostgreSQL" if load.database and load.database.startswith("postgres") else "SQLite"
    if not as_json:
        console.print(
            f"[bold]measuring the server[/] ({store}): {counted(load.tables, 'table')} of {load.players}-player "
            f"{load.game} ({counted(load.bots, 'bot seat')} each), {seconds:g} s"
            + (f", then again with {counted(load.heavy, 'table')} of hard bots" if load.heavy else "")
            + " …"
        )
    settings = (load.tables, load.players, load.game, seconds, load.think, load.database, load.bots, load.heavy)
    try:
        reports = run_server_bench(*settings, load.bot_delay)
    except RuntimeError as error:  # the server did not start: nothing was measured
        raise click.ClickException(str(error)) from None
    data = [report.to_json() for report in reports]
    if len(data) == 2:
        base, heavy = data[0]["latency_ms"], data[1]["latency_ms"]
        data[1]["p99_ratio_to_baseline"] = round(heavy["p99"] / base["p99"], 2) if base["p99"] else None
    if as_json:
        click.echo(json.dumps(data if len(data) > 1 else data[0], indent=1))
        return
    for figures in data:
        render_server(console, figures)
    if len(data) == 2:
        console.print(f"p99 with the hard bots thinking: {data[1]['p99_ratio_to_baseline']}× the p99 without them")
    console.print("[dim]measured now, on this machine: the server and the clients share its cores[/]")


def render_server(console: Console, data: dict[str, Any]) -> None:
    latency = data["latency_ms"]
    title = f"server: {data['tables']} tables of {data['players']} seats ({data['bots']} bots), clients think"
    title += f" {data['think_seconds']:g}\N{NO-BREAK SPACE}s"
    if data["heavy_bot_tables"]:
        title += f", {data['heavy_bot_tables']} tables of hard bots thinking"
    table = Table(title=title, min_width=min(len(title), console.width))
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    met = latency["p99"] < 100
    table.add_row("actions/s (clients)", f"{data['actions_per_second']:,.0f}", "")
    table.add_row("actions measured", f"{data['actions']:,}", "")
    table.add_row("games finished", f"{data['games_finished']:,}", "")
    for name in ("p50", "p95", "p99", "max"):
        target = ("< 100 ms " + ("[green]met[/]" if met else "[red]missed[/]")) if name == "p99" else ""
        table.add_row(f"latency {name}", f"{latency[name]:,.1f} ms", target)
    table.add_row("errors", str(data["errors"]), "0 " + ("[green]met[/]" if not data["errors"] else "[red]missed[/]"))
    table.add_row("lost actions", str(data["lost"]), "0 " + ("[green]met[/]" if not data["lost"] else "[red]missed[/]"))
    console.print(table)
    for kind, count in data.get("error_kinds", {}).items():
        console.print(f"[red]errors:[/] {count:,} × {escape(kind)}", soft_wrap=True)
    for sample in data["error_samples"]:
        console.print(f"[red]error:[/] {escape(str(sample))}", soft_wrap=True)


def _bench_rl(seconds: float, batch: int, players: int, as_json: bool) -> None:
    try:
        from laro.rl.bench import bench_rl
    except ImportError as error:
        raise click.ClickException(f"the rl benchmark needs its extra: pip install 'laro[rl]' ({error})") from None
    console = Console()
    say = None if as_json else (lambda text: console.print(f"[bold]measuring[/] {text} …"))
    figures = bench_rl(seconds, batch, players, progress=say)
    if as_json:
        click.echo(json.dumps([{**asdict(f), "met": f.met} for f in figures], indent=1))
        return
    table = Table(title=f"L.A.M.A. for learning agents: {seconds:g} s per figure, one core")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    for figure in figures:
        mark = "[green]met[/]" if figure.met else "[red]missed[/]"
        value = f"{figure.value:,.2f}×" if figure.ratio is not None else f"{figure.value:,.0f}"
        target = ""
        if figure.target is not None:
            target = f"≥ {figure.target:,.0f} {mark}"
        elif figure.target_ratio is not None:
            target = f"≥ {figure.target_ratio:g}× {mark}"
        table.add_row(figure.name, value, target)
    console.print(table)
    for figure in figures:
        console.print(f"[dim]{figure.name}: {figure.detail}[/]")
    console.print(
        "[dim]every figure above was measured now, on this machine, one after the other, per second of CPU time[/]"
    )
