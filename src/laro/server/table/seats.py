"""A table's seats: who plays each (a person, known by the hash of a secret token, or a bot), their names, and
whether their stand-in plays for them.

>>> seats = [Seat(0, hash_token("secret"), None, name="Ana"), Seat(1, None, "random")]
>>> seat_of_token(seats, "secret"), name_of(seats, 1)
(0, 'random bot')
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from laro.core import JSONDict
from laro.server.errors import Code, Refusal

__all__ = ["MAX_NAME", "Seat", "clean_name", "hash_token", "name_of", "seat_of_token"]

MAX_NAME = 24
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})  # characters a name may not hold


def clean_name(name: object) -> str:
    """A player's name as shown to everyone: control, format (bidirectional overrides, zero-width) and private-use
    characters dropped, runs of blanks made one space, at most ``MAX_NAME`` characters.

    >>> clean_name("  Ana\u202e\x07 \t Lee ")
    'Ana Lee'
    """
    kept = "".join(c for c in str(name) if unicodedata.category(c) not in _HIDDEN_CATEGORIES)
    return " ".join(kept.split())[:MAX_NAME]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seat:
    """A seat: a human (with a secret token, of which only the hash is kept) or a bot."""

    index: int
    token_hash: str | None
    bot: str | None
    name: str | None = None
    joined: bool = False  # a human has taken the seat (and not left)
    connections: int = 0
    standin: str = "heuristic"  # the bot that plays for the seat when its player is away or out of time
    away: bool = False  # handed to its stand-in until the player comes back (joins again)
    timeouts: int = 0  # time-outs in a row
    standing_in: bool = False  # the stand-in plays the rest of this turn (the player ran out of time)
    disconnected_since: float | None = None  # in memory only: since when no connection is open

    @property
    def kind(self) -> str:
        return "bot" if self.bot else "human"

    @property
    def played_by_standin(self) -> bool:
        return self.away or self.standing_in

    @property
    def shown_name(self) -> str | None:
        return self.name if self.bot is None else (self.name or f"{self.bot} bot")

    def public(self) -> JSONDict:
        return {
            "seat": self.index,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.shown_name,
            "joined": self.joined or self.bot is not None,
            "connected": self.connections > 0,
            "standin": self.standin,
            "away": self.away or self.timeouts > 0,  # shown as away: out of time last turn, or handed over
            "handed": self.away,  # its stand-in plays until the player comes back
        }


def name_of(seats: Sequence[Seat], seat: int) -> str:
    """How the log names ``seat``: its player's or bot's name, else its number."""
    return seats[seat].shown_name or f"seat {seat}"


def seat_of_token(seats: Sequence[Seat], token: str) -> int:
    """The seat whose secret token this is; :class:`Refusal` ``bad_token`` otherwise."""
    wanted = hash_token(token)
    for seat in seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted):
            return seat.index
    raise Refusal(Code.BAD_TOKEN, "that token opens no seat at this table")
