"""``laro play GAME``: play a whole game in the terminal against bots.

The game is an argument so that every registered game can be played; a game with its own view (L.A.M.A.) is
drawn nicely, any other through the generic view.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.text import Text

from laro.bots import Bot, BotError, check_table, get_bot, list_bots, standin_bot
from laro.cli import saved
from laro.cli.session import Session
from laro.cli.views import PlayerInfo, view_for
from laro.cli.words import counted
from laro.core import Game, LaroError, RecordError, get_game, new_seed, replay
from laro.server.clocks import Clocks

__all__ = ["game_options", "parse_bots", "parse_options", "play", "resolve_game"]


def resolve_game(name: str) -> Game:
    """The registered game called ``name`` (any case); a usage error lists the known games otherwise."""
    try:
        return get_game(name.lower())
    except LaroError as error:
        raise click.BadParameter(str(error), param_hint="GAME") from None


_F = TypeVar("_F", bound=Callable[..., Any])


def game_options(help_text: str) -> Callable[[_F], _F]:
    """The ``--option KEY=VALUE`` (``-o``) option of the commands that take a game's options, repeatable, read
    with :func:`parse_options` from the parameter ``option_pairs``."""
    return click.option("--option", "-o", "option_pairs", multiple=True, metavar="KEY=VALUE", help=help_text)


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``key=value`` pairs as game options: whole numbers become ints, ``true``/``false`` booleans, ``none`` no
    value, and ``@FILE`` the JSON data in that file (e.g. another Kamara tile set).

    >>> parse_options(("end_score=20", "token_supply=boxed", "open_cards=true"))
    {'end_score': 20, 'token_supply': 'boxed', 'open_cards': True}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r} is not key=value", param_hint="--option")
        options[key.strip()] = _option_value(value.strip())
    return options


def _option_value(value: str) -> Any:
    if value.startswith("@"):
        try:
            return json.loads(Path(value[1:]).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise click.BadParameter(
                f"cannot read JSON data from {value[1:]!r}: {error}", param_hint="--option"
            ) from None
    words = {"true": True, "false": False, "none": None, "null": None}
    if value.lower() in words:
        return words[value.lower()]
    return int(value) if value.lstrip("-").isdigit() else value


def parse_bots(spec: str, game: str, seats: list[int], source: str = "--bots") -> dict[int, tuple[str, Bot]]:
    """Bots for ``seats`` from ``"random,heuristic"`` (one per seat) or a single name for every seat; an error
    names ``source``, where the names came from."""
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if len(names) == 1:
        names *= len(seats)
    if len(names) != len(seats):
        raise click.BadParameter(
            f"give one bot name for all {len(seats)} other seats, or one per seat; got {len(names)}",
            param_hint=source,
        )
    bots = {}
    for seat, name in zip(seats, names, strict=True):
        try:
            bots[seat] = (name, get_bot(name, game))
        except LaroError as error:
            raise click.BadParameter(str(error), param_hint=source) from None
        except ImportError as error:  # a registered bot whose module is missing or broken
            available = ", ".join(list_bots(game))
            raise click.BadParameter(
                f"bot {name!r} cannot be loaded ({error}); available: {available}", param_hint=source
            ) from None
    return bots


@click.command()
@click.argument("game", metavar="GAME")
@click.option("--players", "-n", default=4, show_default=True, help="Number of players, you included.")
@click.option("--seat", "-s", default=0, show_default=True, help="Your seat (0 is the first).")
@click.option(
    "--bots",
    "-b",
    default="heuristic",
    show_default=True,
    help="Bot kind for each other seat in seat order, comma-separated (e.g. random,heuristic,random), or one "
    "kind for all. Kinds: random, heuristic, easy, medium, hard (the search levels), ismcts:N (N "
    "simulations per move) or ismcts:Ns (N seconds).",
)
@click.option("--seed", type=int, default=None, help="Seed of the game (default: a fresh one). Shown at the end.")
@game_options(
    "A game option, repeatable, e.g. edition=party (the L.A.M.A. Party Edition), end_score=20, "
    "next_round_starter=ended_round, token_supply=boxed (L.A.M.A.) or actions_per_turn=4, target_matches=2, "
    "max_rounds=30, elder=0 (Kamara)."
)
@click.option("--name", default="You", show_default=True, help="Your name at the table and in the record.")
@click.option(
    "--resume",
    "resume_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Continue the unfinished game saved in this record (same seats, bots and options).",
)
@click.option(
    "--delay",
    type=click.FloatRange(min=0),
    default=0.6,
    show_default=True,
    help="Seconds to pause after each bot move, so you can follow. Given explicitly (above 0), the table is "
    "also shown after each bot move.",
)
@click.option(
    "--clock",
    "clock_name",
    default="none",
    show_default=True,
    metavar="CLOCK",
    help="A clock for your turns: none, fast (90 s + 5 s a turn), normal (3 min + 10 s), relaxed (10 min + 30 s), "
    "daily (24 h a turn) or BANK+INCREMENT in seconds (e.g. 60+5). When it runs out, the heuristic bot plays "
    "that turn for you.",
)
@click.option(
    "--takebacks",
    is_flag=True,
    help="Allow taking back your last turn with undo, even past cards drawn or shown (the bots' moves after it "
    "are undone too): the game is recorded as an unrated practice game. Without it, undo takes back only a step "
    "of your turn that revealed nothing (Kamara's move, port or poke).",
)
@click.option(
    "--records",
    "records_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("records"),
    show_default=True,
    help="Folder where the game record is saved.",
)
def play(
    game: str,
    players: int,
    seat: int,
    bots: str,
    seed: int | None,
    option_pairs: tuple[str, ...],
    name: str,
    resume_file: Path | None,
    delay: float,
    clock_name: str,
    takebacks: bool,
    records_dir: Path,
) -> None:
    """Play a game of GAME (lama, kamara, or one an installed package adds) in the terminal against bots.

    On your turn type what the list of choices shows (in L.A.M.A. a card to play it, d to draw, q to quit
    the round; in Kamara an action such as move NE, or its number); undo takes back a step of your turn
    (or, with --takebacks, your last turn); help explains more, rules shows the rules, exit stops. The game
    is saved in the records folder after every move; watch it again with `laro replay FILE`. Until it is over
    the file holds only what you saw (no seed, no bot's cards), and the whole game, which --resume needs, is
    kept in the folder's .unfinished/; the seed is shown once the game is over.

    \b
    Examples:
      laro play lama
      laro play lama --players 3 --bots random,heuristic --name Ana
      laro play lama -o end_score=20 -o next_round_starter=ended_round
      laro play kamara --players 3
      laro play kamara -n 4 -o actions_per_turn=4 --delay 1
      laro play kamara --players 2 --bots hard --takebacks
    """
    the_game = resolve_game(game)
    console = Console(highlight=False)
    if resume_file is not None:
        _only_with_a_new_game(("players", "seat", "bots", "seed", "option_pairs", "name", "takebacks"))
        session = _resumed_session(console, the_game, resume_file)
    else:
        options = parse_options(option_pairs)
        session = _new_session(console, the_game, players, seat, bots, seed, options, name, takebacks)
        try:
            session.save(records_dir)
        except OSError as error:
            raise click.UsageError(f"cannot save game records in {records_dir}: {error}") from None
    session.delay = delay
    session.watch = delay > 0 and not _is_default("delay")
    session.clock, session.standin = _clock(clock_name, the_game, session.state.num_players)
    console.print(
        Text(f"{the_game.title} — {session.state.num_players} players. Type help at any prompt for help.", style="bold")
    )
    if session.record.practice:
        console.print(
            Text("Takebacks allowed: undo takes back your last turn. An unrated practice game.", style="cyan")
        )
    with stop_on_signals():
        ending = session.run()
    _finish(console, session, records_dir)
    if ending.code:
        raise SystemExit(ending.code)


def _clock(text: str, game: Game, players: int) -> tuple[Clocks | None, Bot | None]:
    """The person's clock from ``--clock`` and the bot that stands in when it runs out."""
    from laro.server.clocks import ClockError, clock_spec

    bank, plus, increment = text.partition("+")
    try:
        spec = clock_spec({"bank": float(bank), "increment": float(increment)} if plus else text.strip().lower())
    except (ClockError, ValueError) as error:
        raise click.BadParameter(str(error), param_hint="--clock") from None
    if spec.bank is None and spec.per_turn is None:
        return None, None
    standin = get_bot(standin_bot(game.name), game.name)
    return Clocks(spec, players), standin


def _new_session(
    console: Console,
    game: Game,
    players: int,
    seat: int,
    bots: str,
    seed: int | None,
    options: dict[str, Any],
    name: str,
    takebacks: bool = False,
) -> Session:
    if not game.min_players <= players <= game.max_players:
        raise click.BadParameter(
            f"{game.title} takes {game.min_players} to {game.max_players} players; got {players}",
            param_hint="--players",
        )
    if not 0 <= seat < players:
        raise click.BadParameter(f"your seat must be 0 to {players - 1}; got {seat}", param_hint="--seat")
    others = [s for s in range(players) if s != seat]
    try:
        robots = parse_bots(bots, game.name, others)
    except click.BadParameter:
        if not _is_default("bots"):
            raise
        robots = parse_bots("random", game.name, others)  # the default kind does not play this game (yet)
        console.print(Text(f"No {bots} bot plays {game.title} yet: the other seats are random bots.", style="dim"))
    if seed is None:
        seed = new_seed()
    try:
        state = game.new_game(players, seed=seed, options=options)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    for bot_name, bot in robots.values():
        try:
            check_table(bot, players, options)  # a trained policy plays only the tables it was trained for
        except BotError as error:
            raise click.BadParameter(f"{bot_name}: {error}", param_hint="--bots") from None
    table = [
        PlayerInfo(name, is_you=True) if s == seat else PlayerInfo(f"Bot {s} ({robots[s][0]})") for s in range(players)
    ]
    return Session(
        console=console,
        view=view_for(game.name),
        state=state,
        seed=seed,
        players=table,
        human=seat,
        bots={s: bot for s, (_, bot) in robots.items()},
        bot_names={s: kind for s, (kind, _) in robots.items()},
        takebacks=takebacks,
    )


def _resumed_session(console: Console, game: Game, path: Path) -> Session:
    """A session that continues the unfinished game of the record at ``path`` (and keeps saving there)."""
    try:
        record = saved.load_resumable(path)
        state = replay(record)
    except RecordError as error:
        raise click.BadParameter(str(error), param_hint="--resume") from None
    if record.game != game.name:
        raise click.BadParameter(f"{path} is a {record.game} game, not {game.name}", param_hint="--resume")
    if state.is_over:
        raise click.BadParameter(f"that game is over; watch it with: laro replay {path}", param_hint="--resume")
    humans = [seat for seat in range(record.num_players) if seat not in record.bots]
    if len(humans) != 1 or len(record.players) != record.num_players:
        raise click.BadParameter(
            f"{path} does not say which seat was yours and which bots played", param_hint="--resume"
        )
    human = humans[0]
    try:
        kinds = parse_bots(",".join(record.bots.values()), game.name, [*record.bots], source="--resume")
    except click.BadParameter as error:
        raise click.BadParameter(
            f"{path} names a bot this laro cannot play: {error.message}", param_hint="--resume"
        ) from None

    robots = {seat: bot for seat, (_, bot) in kinds.items()}
    table = [PlayerInfo(player, is_you=seat == human) for seat, player in enumerate(record.players)]
    console.print(Text(f"Continuing the game saved in {path} after {counted(len(record.actions), 'move')}.", "bold"))
    return Session(
        console=console,
        view=view_for(game.name),
        state=state,
        seed=record.seed,
        players=table,
        human=human,
        bots=robots,
        bot_names=dict(record.bots),
        path=path,
        resumed=record,
    )


def _is_default(parameter: str) -> bool:
    """Whether ``parameter`` was left at its default on the command line."""
    source = click.get_current_context().get_parameter_source(parameter)
    return source in (None, click.core.ParameterSource.DEFAULT)


def _only_with_a_new_game(parameters: tuple[str, ...]) -> None:
    """Refuse options that would change a resumed game."""
    context = click.get_current_context()
    for parameter in parameters:
        if context.get_parameter_source(parameter) is not click.core.ParameterSource.DEFAULT:
            option = next(p for p in context.command.params if p.name == parameter)
            raise click.UsageError(f"{max(option.opts, key=len)} cannot be changed when resuming a game")


def _finish(console: Console, session: Session, records_dir: Path) -> None:
    """Save the record and show where; the seed only once the game is over (it would reveal the cards)."""
    try:
        path = session.save(records_dir)
    except OSError as error:
        console.print(Text(f"Could not save the game record in {records_dir}: {error}", style="red"))
    else:
        moves = len(session.record.actions)
        done = "Game" if session.state.is_over else f"Unfinished game ({counted(moves, 'move')})"
        console.print(Text.assemble(f"{done} saved to ", (str(path), "bold")), soft_wrap=True)
        if session.state.is_over:
            console.print(Text.assemble("Watch it again with: ", (f"laro replay {path}", "bold")), soft_wrap=True)
        else:
            game = session.record.game
            console.print(
                Text.assemble("Continue it with: ", (f"laro play {game} --resume {path}", "bold")), soft_wrap=True
            )
    if session.state.is_over:
        console.print(Text.assemble("Seed: ", (str(session.seed), "bold")))


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """A closed terminal (SIGHUP) or a polite kill (SIGTERM) stops the game like Ctrl-C: saved and reported."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGHUP, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
