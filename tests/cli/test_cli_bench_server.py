"""``laro bench server`` always ends with its report: a client that cannot connect, or a table that cannot be
created, is counted as an error and tried again, and the run goes on."""

from __future__ import annotations

import asyncio
import random
import socket
import time

from click.testing import CliRunner

from laro.cli.main import cli
from laro.server.bench import ServerBenchReport, _Run


def _report() -> ServerBenchReport:
    return ServerBenchReport(tables=1, players=2, game="lama", think=0.0)


def test_a_client_whose_handshake_times_out_is_counted_and_tries_again() -> None:
    """A server that accepts the connection and never answers the WebSocket's opening handshake."""

    async def scenario() -> tuple[bool, ServerBenchReport]:
        silent = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
        port = silent.sockets[0].getsockname()[1]
        report = _report()
        run = _Run(f"http://127.0.0.1:{port}", report, time.monotonic() + 1.0, open_timeout=0.1)
        async with silent:
            ended = await run.seat_loop("some-table", "token", random.Random(1))
        return ended, report

    ended, report = asyncio.run(asyncio.wait_for(scenario(), 10))
    assert not ended
    assert len(report.errors) >= 2  # it connected again after the first time-out
    assert all(error.startswith("client: TimeoutError") for error in report.errors), report.errors
    assert report.to_json()["error_kinds"] == {"client: TimeoutError": len(report.errors)}


def test_a_table_that_cannot_be_created_is_counted() -> None:
    with socket.socket() as sock:  # a port with nothing listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    report = _report()
    run = _Run(f"http://127.0.0.1:{port}", report, time.monotonic() + 0.6)
    asyncio.run(asyncio.wait_for(run.table_loop(0), 10))
    assert report.errors and all(error.startswith("new table: URLError") for error in report.errors)


def test_the_report_is_printed_once_with_its_title_on_one_line() -> None:
    command = ["bench", "server", "--tables", "2", "--players", "2", "--seconds", "1", "--think", "0.01"]
    result = CliRunner().invoke(cli, command, terminal_width=80)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(
        line.strip() == "server: 2 tables of 2 seats (0 bots), clients think 0.01\N{NO-BREAK SPACE}s" for line in lines
    )
    assert result.output.count("measured now, on this machine") == 1
    assert "lost actions" in result.output


def test_a_server_that_cannot_start_is_one_clear_error() -> None:
    command = ["bench", "server", "--db", "postgresql://nobody@127.0.0.1:1/none", "--tables", "1", "--seconds", "1"]
    result = CliRunner().invoke(cli, command)
    said = " ".join(result.output.split())
    assert result.exit_code == 1 and "measuring the server (PostgreSQL): 1 table of 4-player lama" in said
    assert "Error: the server did not start" in said and "Traceback" not in said
