"""The ``laro`` command: a click group of subcommands.

>>> from click.testing import CliRunner
>>> "play" in CliRunner().invoke(cli, ["--help"]).output
True
"""

from __future__ import annotations

import importlib

import click

from laro import __version__
from laro.cli.play import play
from laro.cli.replay import replay
from laro.cli.rules import rules

__all__ = ["cli", "main"]

# Commands written elsewhere are loaded only when used, so a missing or broken one cannot break the others.
_LAZY_COMMANDS = {
    "analyse": "laro.cli.analyse:analyse",
    "bench": "laro.cli.bench:bench",
    "serve": "laro.cli.serve:serve",
    "store": "laro.cli.store:store",
    "tournament": "laro.cli.tournament:tournament",
}


class _LazyGroup(click.Group):
    """A group that imports some commands on first use, and reports (not raises) one that fails to import."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in _LAZY_COMMANDS:
            return command
        module_name, _, attribute = _LAZY_COMMANDS[cmd_name].partition(":")
        try:
            loaded = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError) as error:
            loaded = _unavailable(cmd_name, str(error))
        if not isinstance(loaded, click.Command):
            loaded = _unavailable(cmd_name, f"{module_name}.{attribute} is not a click command")
        self.add_command(loaded, cmd_name)
        return loaded


def _unavailable(name: str, why: str) -> click.Command:
    def callback(**_: object) -> None:
        raise click.ClickException(f"laro {name} is not available: {why}")

    return click.Command(
        name,
        callback=callback,
        help=f"(not available: {why})",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="laro")
def cli() -> None:
    """laro: play L.A.M.A. and Kamara with friends and bots, in the terminal or on a server.

    \b
    Examples:
      laro serve                           the multiplayer server on http://127.0.0.1:8000/
      laro store check                     list the server's damaged tables, if any
      laro play lama                       a game against three heuristic bots
      laro play lama -n 3 --bots random    against two random bots
      laro replay records/lama_....json    watch a saved game again
      laro analyse records/lama_....json   grade your moves, the mistakes marked
      laro play kamara -n 3                Kamara against two bots
      laro rules lama --lang ko            the rules, in Korean
      laro bench kamara                    how fast the Kamara engine is here
      laro bench server                    200 tables of WebSocket clients on loopback
      laro bench store                     appends/s into the SQLite store, grouped commits or not
      laro tournament lama -b heuristic,random  100 games between two bots, rated
    """


cli.add_command(play)
cli.add_command(replay)
cli.add_command(rules)


def main() -> None:
    """Run the ``laro`` command (the console-script entry point)."""
    cli(prog_name="laro")
