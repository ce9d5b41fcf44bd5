"""Penalty tokens. The total points ``S`` of a seat is what counts; tokens only show it.

With an unlimited supply a seat shows ``S // 10`` black and ``S % 10`` white tokens. With the ``boxed`` supply
(50 white, 20 black) each seat's tokens are tracked: a payment the supply cannot cover is made in the other
colour where possible, the rest is recorded as points owed. After every payment, and for every seat at the end of
every round, points owed are paid from the box as far as it can, and ten whites are exchanged for a black while
the box has one. At every moment ``10 * black + white + owed == S``.

>>> supply, held = pay(Supply(white=3, black=0), Tokens(), white=7, black=1)
>>> supply, held
(Supply(white=0, black=0), Tokens(white=3, black=0, owed=14))
>>> give_back(supply, held, 10)
(Supply(white=3, black=0), Tokens(white=0, black=0, owed=7))
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BOX_BLACK", "BOX_WHITE", "Supply", "Tokens", "give_back", "pay", "settle", "unlimited_tokens"]

BOX_WHITE = 50
BOX_BLACK = 20


@dataclass(frozen=True, slots=True)
class Tokens:
    """The tokens in front of one seat, and points owed when the box ran out."""

    white: int = 0
    black: int = 0
    owed: int = 0

    @property
    def points(self) -> int:
        return 10 * self.black + self.white + self.owed

    def to_json(self) -> dict[str, int]:
        return {"white": self.white, "black": self.black, "owed": self.owed}


@dataclass(frozen=True, slots=True)
class Supply:
    """The tokens left in the box."""

    white: int = BOX_WHITE
    black: int = BOX_BLACK


def unlimited_tokens(points: int) -> Tokens:
    return Tokens(white=points % 10, black=points // 10)


def pay(supply: Supply, held: Tokens, white: int, black: int) -> tuple[Supply, Tokens]:
    """Take ``white`` white and ``black`` black tokens' worth from the box for one seat."""
    box_white, box_black = supply.white, supply.black
    got_white, got_black, owed = held.white, held.black, held.owed
    take = min(black, box_black)
    box_black -= take
    got_black += take
    white += 10 * (black - take)  # a missing black is paid in whites
    take = min(white, box_white)
    box_white -= take
    got_white += take
    missing = white - take
    take = min(missing // 10, box_black)  # missing whites are paid in blacks, ten at a time
    box_black -= take
    got_black += take
    owed += missing - 10 * take
    while got_white >= 10 and box_black:  # exchange ten whites for a black
        got_white -= 10
        got_black += 1
        box_white += 10
        box_black -= 1
    return Supply(box_white, box_black), Tokens(got_white, got_black, owed)


def give_back(supply: Supply, held: Tokens, points: int) -> tuple[Supply, Tokens]:
    """Return tokens worth ``points`` (10 or 1) to the box: a black if possible, else whites, else owed points."""
    box_white, box_black = supply.white, supply.black
    got_white, got_black, owed = held.white, held.black, held.owed
    if points >= 10 and got_black:
        return Supply(box_white, box_black + 1), Tokens(got_white, got_black - 1, owed)
    take = min(points, got_white)
    got_white -= take
    box_white += take
    owed -= points - take
    return Supply(box_white, box_black), Tokens(got_white, got_black, owed)


def settle(supply: Supply, held: Tokens) -> tuple[Supply, Tokens]:
    """Pay what a seat owes from the box as far as it can, then exchange its whites for blacks.

    >>> settle(Supply(white=4, black=1), Tokens(white=8, owed=5))
    (Supply(white=10, black=0), Tokens(white=2, black=1, owed=1))
    """
    return pay(supply, Tokens(held.white, held.black, 0), white=held.owed, black=0)
