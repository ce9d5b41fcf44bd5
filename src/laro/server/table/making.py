"""Making a table: a new table's request checked (game, players, options, bots, clock), one secret token per
human seat, and the rematch of a finished table.

>>> table, tokens = create("lama", 2, {}, {1: "random"}, created=0.0, seed=7, table_id="t1")
>>> sorted(tokens), table.status
([0], 'open')
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Any

from laro.bots import BotError, check_table, get_bot, list_bots, standin_bot
from laro.core import LaroError, get_game, new_seed
from laro.server.clocks import ClockError, ClockSpec, clock_spec, default_profile
from laro.server.errors import Code, Refusal
from laro.server.store.base import TableMeta, new_table_id
from laro.server.table.model import Table
from laro.server.table.seats import hash_token, seat_of_token

__all__ = ["create", "rematch_id", "rematch_meta"]


def rematch_id(table_id: str) -> str:
    """The id of the table where the players of ``table_id`` play again, derived from it (12 characters, like every
    table id): every process, before and after a restart, names the same one, and of two processes making it at
    once the store takes one and refuses the other (its id is taken), so the finished table needs no link stored.

    >>> rematch_id("t1") == rematch_id("t1") != rematch_id("t2"), len(rematch_id("t1"))
    (True, 12)
    """
    digest = hashlib.blake2b(f"laro rematch {table_id}".encode(), digest_size=9).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")


def create(
    game_name: str,
    players: int,
    options: dict[str, Any],
    bots: dict[int, str],
    created: float,
    seed: int | None = None,
    table_id: str | None = None,
    clock: object = None,
    standin: str | None = None,
    round_pause: float = 0.0,
    takebacks: bool = False,
    spectator_chat: bool = False,
) -> tuple[Table, dict[int, str]]:
    """A new table made at ``created`` and one secret token per human seat; :class:`Refusal` for anything invalid.
    ``clock`` is a profile's name or figures (default: ``normal`` with several people, ``none`` for one against
    bots); ``standin`` the bot that plays for a seat whose player is away (default: the game's heuristic bot, else
    the random one); ``round_pause`` the seconds a round's end is shown before the next round starts;
    ``takebacks`` allows a person playing against bots only to take their last turn back (an unrated practice
    game); ``spectator_chat`` lets spectators write in the table's chat, not only read it."""
    try:
        game = get_game(game_name)
        seed = new_seed() if seed is None else seed
        game.new_game(players, seed=seed, options=options)  # checks the players and options
    except LaroError as error:
        raise Refusal(Code.BAD_REQUEST, str(error)) from None
    standin = standin_bot(game_name) if standin is None else standin
    _check_bots(game_name, players, options, bots, standin)
    spec = _clock(players - len(bots), clock)
    tokens = {seat: secrets.token_urlsafe(24) for seat in range(players) if seat not in bots}
    seat_rows = [
        {
            "token_hash": hash_token(tokens[seat]) if seat in tokens else None,
            "bot": bots.get(seat),
            "standin": standin,
            "clock": spec.to_json(),
            "round_pause": round_pause,
            "takebacks": bool(takebacks),
            "spectator_chat": bool(spectator_chat),
        }
        for seat in range(players)
    ]
    meta = TableMeta(
        id=table_id or new_table_id(),
        game=game.name,
        rules_version=game.rules_version,
        num_players=players,
        options=dict(options),
        seed=seed,
        seats=seat_rows,
        created=created,
    )
    return Table(meta), tokens


def _check_bots(game: str, players: int, options: dict[str, Any], bots: dict[int, str], standin: str) -> None:
    """Refuse a bot seat that is not a seat, a bot the game has not, or one that cannot play such a table."""
    offered = list_bots(game)
    for seat, bot in bots.items():
        if not 0 <= seat < players:
            raise Refusal(Code.BAD_REQUEST, f"bot seat {seat} is not a seat of this {players}-player table")
        if bot not in offered:
            raise Refusal(Code.BAD_REQUEST, f"no bot {bot!r} for {game}; bots: {', '.join(offered)}")
    if standin not in offered:
        raise Refusal(Code.BAD_REQUEST, f"no bot {standin!r} to stand in; bots: {', '.join(offered)}")
    for bot in dict.fromkeys([*bots.values(), standin]):
        try:  # a trained policy plays only the tables it was trained for
            check_table(get_bot(bot, game), players, options)
        except BotError as error:
            raise Refusal(Code.BAD_REQUEST, f"bot {bot!r}: {error}") from None


def _clock(humans: int, clock: object) -> ClockSpec:
    try:
        return clock_spec(default_profile(humans) if clock is None else clock)
    except ClockError as error:
        raise Refusal(Code.BAD_REQUEST, str(error)) from None


def rematch_meta(table: Table, token: str, created: float) -> TableMeta:
    """A new game for the same players, made at ``created``: same game, seats, bots and options, a new seed; every
    human seat keeps its secret token, so each player takes their seat again with what they already hold. Its id
    is :func:`rematch_id` of this table's."""
    if not table.state.is_over:
        raise Refusal(Code.NOT_OVER, "a rematch begins once the game is over")
    seat_of_token(table.seats, token)  # only a player of this table may start it
    return TableMeta(
        id=rematch_id(table.meta.id),
        game=table.meta.game,
        rules_version=table.game.rules_version,
        num_players=table.meta.num_players,
        options=table.meta.options,
        seed=new_seed(),
        seats=[dict(seat) for seat in table.meta.seats],
        created=created,
    )
