"""``laro rules GAME``: the rules of a game, rendered from its markdown."""

from __future__ import annotations

import click
from rich.console import Console
from rich.markdown import Markdown

from laro.cli.play import game_options, parse_options, resolve_game
from laro.core import OptionError
from laro.core.readers import for_reader

__all__ = ["rules"]


@click.command()
@click.argument("game", metavar="GAME")
@click.option("--lang", "-l", default="en", show_default=True, help="Language of the rules: en or ko.")
@game_options("The game's options, as for laro play: edition=party shows the L.A.M.A. Party Edition's rules.")
def rules(game: str, lang: str, option_pairs: tuple[str, ...]) -> None:
    """Print the rules of GAME (lama, kamara, or one an installed package adds)."""
    the_game = resolve_game(game)
    try:
        text = the_game.rules_text(lang.lower(), parse_options(option_pairs))
    except OptionError as error:
        raise click.BadParameter(str(error), param_hint="--option") from None
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--lang") from None
    Console(highlight=False).print(Markdown(for_reader(text, "terminal")))
