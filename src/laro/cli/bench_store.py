"""``laro bench store``: appends per second into the SQLite store, grouped commits against one per append."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

__all__ = ["bench_store"]


def bench_store(seconds: float, writer_counts: tuple[int, ...], as_json: bool) -> None:
    """Measure and print, for each number of writers, both ways of committing, with their ratio."""
    try:
        from laro.server.store.bench import run_store_bench
    except ImportError as error:
        raise click.ClickException(
            f"the store needs the server's extra: pip install 'laro[server]' ({error})"
        ) from None
    console = Console()
    if not as_json:
        console.print(
            f"[bold]measuring the SQLite store[/]: {', '.join(map(str, writer_counts))} writers, each way "
            f"{seconds:g} s …"
        )
    runs = run_store_bench(writer_counts, seconds)
    if as_json:
        click.echo(json.dumps([run.to_json() for run in runs], indent=1))
        return
    table = Table(title="SQLite store (synchronous=FULL): appends, each writer to its own table, back to back")
    for name in ("writers", "commits", "appends/s", "per commit", "p50 ms", "p99 ms", "÷ one each"):
        table.add_column(name, justify="left" if name == "commits" else "right")
    single: dict[int, float] = {}
    for run in runs:
        if not run.grouped:
            single[run.writers] = run.appends_per_second
        base = single.get(run.writers)
        ratio = f"{run.appends_per_second / base:.2f}×" if run.grouped and base else ""
        table.add_row(
            f"{run.writers:,}",
            "grouped" if run.grouped else "one each",
            f"{run.appends_per_second:,.0f}",
            f"{run.appends_per_commit:,.1f}",
            f"{run.p50_ms:,.2f}",
            f"{run.p99_ms:,.1f}",
            ratio,
        )
    console.print(table)
    console.print(
        "[dim]commits: one each = one transaction per append; grouped = the waiting appends share one. "
        "Measured now, on this machine and its disk (a temporary folder), both ways in this run[/]"
    )
