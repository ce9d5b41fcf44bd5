"""``laro bench server --db postgresql://… --workers N``: the same load on 1 to N processes, and lease moves."""

from __future__ import annotations

import json
import statistics

import click
from rich.console import Console
from rich.table import Table

from laro.cli.bench import _ServerLoad, render_server

__all__ = ["bench_cluster"]


def bench_cluster(seconds: float, load: _ServerLoad, workers: int, as_json: bool) -> None:
    """Measure and print each run, their actions/s and p99 against one process's, and the lease moves."""
    if not load.database or not load.database.lower().startswith(("postgresql:", "postgres:")):
        raise click.BadParameter("several processes share a PostgreSQL store: give --db postgresql://…")
    if load.heavy:
        raise click.BadParameter("--heavy and --workers measure different things: give one of them")
    try:
        from laro.server.bench_cluster import run_cluster_bench
    except ImportError as error:
        raise click.ClickException(f"the server needs its extra: pip install 'laro[server]' ({error})") from None
    console = Console()
    if not as_json:
        console.print(
            f"[bold]measuring 1 to {workers} server processes on PostgreSQL[/]: {load.tables} tables of "
            f"{load.players}-player {load.game} ({load.bots} bot seats each), {seconds:g} s each, then 3 kills …"
        )
    report = run_cluster_bench(
        load.database,
        workers,
        load.tables,
        load.players,
        load.game,
        seconds,
        load.think,
        load.bots,
        load.bot_delay,
    )
    data = report.to_json()
    base = data["runs"][0]
    for run in data["runs"]:
        run["actions_per_second_ratio"] = _ratio(run["actions_per_second"], base["actions_per_second"])
        run["p99_ratio"] = _ratio(run["latency_ms"]["p99"], base["latency_ms"]["p99"])
    if as_json:
        click.echo(json.dumps(data, indent=1))
        return
    for run in data["runs"]:
        render_server(console, run)
    table = Table(title="the same load on 1, 2, … processes (latency in ms; ratios against 1 process, this run)")
    for column in ("processes", "actions/s", "×1", "p50", "p95", "p99", "p99 ×1", "lost"):
        table.add_column(column, justify="right")
    for run in data["runs"]:
        latency = run["latency_ms"]
        table.add_row(
            str(run["workers"]),
            f"{run['actions_per_second']:,.1f}",
            f"{run['actions_per_second_ratio']}×",
            f"{latency['p50']:.1f}",
            f"{latency['p95']:.1f}",
            f"{latency['p99']:.1f}",
            f"{run['p99_ratio']}×",
            str(run["lost"]),
        )
    console.print(table)
    moves = data["lease_moves"]
    leases = [move["lease_seconds"] for move in moves]
    actions = [move["next_action_seconds"] for move in moves]
    console.print(
        f"after kill -9 of the process driving a table ({len(moves)} times, leases of "
        f"{data['lease_seconds_setting']:g} s): another process held the lease in "
        + ", ".join(f"{value:.2f}" for value in leases)
        + f" s (median {statistics.median(leases):.2f}); the table's next action followed in "
        + ", ".join(f"{value:.2f}" for value in actions)
        + " s"
    )
    console.print(
        "[dim]measured now, on this machine: every server process, PostgreSQL and the load's clients share its cores[/]"
    )


def _ratio(value: float, base: float) -> float | None:
    return round(value / base, 2) if base else None
