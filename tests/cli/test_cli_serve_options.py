"""``laro serve`` sets the server's limits through options derived from the limits' own declaration: each limit it
may set has its option, whose default is the limit's, and the options' defaults give the server's default limits."""

from __future__ import annotations

from click.testing import CliRunner

from laro.cli.serve import serve
from laro.server.limits import ServerLimits, options


def test_the_options_defaults_are_the_limits_defaults() -> None:
    declared = options()
    assert len(declared) == 17
    assert ServerLimits.from_options({name: default for name, _, default in declared}) == ServerLimits()


def test_every_limit_option_is_offered_with_its_default() -> None:
    shown = " ".join(CliRunner().invoke(serve, ["--help"], terminal_width=400).output.split())
    for _, option, default in options():
        assert f"{option.flag} " in shown and f"[default: {default};" in shown, option.flag


def test_an_option_is_taken_in_its_unit() -> None:
    limits = ServerLimits.from_options({"bot_table_seconds": 2.5, "open_table_ttl": 0.5, "bot_tables": 9})
    assert (limits.bot_table_seconds, limits.open_table_ttl, limits.bot_tables_per_address) == (150.0, 1800.0, 2)
