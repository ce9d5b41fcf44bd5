"""Penalty tokens. The total points ``S`` of a seat is what counts; tokens only show it.

With an unlimited supply a seat shows ``S // 10`` black and ``S % 10`` white tokens (in the Party Edition
``S // 20`` pink, then one black for the tens left and whites). With the ``boxed`` supply (50 white, 20 black,
and in the Party Edition 6 pink) each seat's tokens are tracked: a payment the supply cannot cover is made in
another colour where possible (a pink as two blacks, a black as ten whites, whites as blacks ten at a time), the
rest is recorded as points owed. After every payment, and for every seat at the end of every round, points owed
are paid from the box as far as it can, ten whites are exchanged for a black while the box has one, and two
blacks for a pink while the box has one. At every moment ``20 * pink + 10 * black + white + owed == S``.

>>> supply, held = pay(Supply(white=3, black=0), Tokens(), white=7, black=1)
>>> supply, held
(Supply(white=0, black=0, pink=0), Tokens(white=3, black=0, owed=14, pink=0))
>>> give_back(supply, held, 10)
(Supply(white=3, black=0, pink=0), Tokens(white=0, black=0, owed=7, pink=0))
>>> pay(Supply(pink=6), Tokens(black=1), white=3, black=1)  # two blacks are exchanged for a pink
(Supply(white=47, black=21, pink=5), Tokens(white=3, black=0, owed=0, pink=1))
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BOX_BLACK",
    "BOX_PINK",
    "BOX_WHITE",
    "Supply",
    "Tokens",
    "give_back",
    "pay",
    "settle",
    "unlimited_tokens",
]

BOX_WHITE = 50
BOX_BLACK = 20
BOX_PINK = 6  # the Party Edition's pink tokens, worth 20


@dataclass(frozen=True, slots=True)
class Tokens:
    """The tokens in front of one seat, and points owed when the box ran out."""

    white: int = 0
    black: int = 0
    owed: int = 0
    pink: int = 0

    @property
    def points(self) -> int:
        return 20 * self.pink + 10 * self.black + self.white + self.owed

    def to_json(self, party: bool = False) -> dict[str, int]:
        """The counts; ``party``: with the pink tokens, which only the Party Edition has."""
        data = {"white": self.white, "black": self.black, "owed": self.owed}
        if party:
            data["pink"] = self.pink
        return data


@dataclass(frozen=True, slots=True)
class Supply:
    """The tokens left in the box."""

    white: int = BOX_WHITE
    black: int = BOX_BLACK
    pink: int = 0

    def to_json(self, party: bool = False) -> dict[str, int]:
        data = {"white": self.white, "black": self.black}
        if party:
            data["pink"] = self.pink
        return data


def unlimited_tokens(points: int, party: bool = False) -> Tokens:
    """The fewest tokens that show ``points``: pinks first in the Party Edition, then blacks, then whites."""
    if party:
        return Tokens(white=points % 10, black=points % 20 // 10, pink=points // 20)
    return Tokens(white=points % 10, black=points // 10)


def pay(supply: Supply, held: Tokens, white: int, black: int, pink: int = 0) -> tuple[Supply, Tokens]:
    """Take ``white`` white, ``black`` black and ``pink`` pink tokens' worth from the box for one seat."""
    box_white, box_black, box_pink = supply.white, supply.black, supply.pink
    got_white, got_black, owed, got_pink = held.white, held.black, held.owed, held.pink
    take = min(pink, box_pink)
    box_pink -= take
    got_pink += take
    black += 2 * (pink - take)  # a missing pink is paid in blacks
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
    while got_black >= 2 and box_pink:  # and two blacks for a pink
        got_black -= 2
        got_pink += 1
        box_black += 2
        box_pink -= 1
    return Supply(box_white, box_black, box_pink), Tokens(got_white, got_black, owed, got_pink)


def give_back(supply: Supply, held: Tokens, points: int) -> tuple[Supply, Tokens]:
    """Return tokens worth ``points`` (20, 10 or 1) to the box: the largest tokens that fit, then whites, and
    what the seat cannot give back in tokens comes off the points owed."""
    box_white, box_black, box_pink = supply.white, supply.black, supply.pink
    got_white, got_black, owed, got_pink = held.white, held.black, held.owed, held.pink
    take = min(points // 20, got_pink)
    got_pink -= take
    box_pink += take
    points -= 20 * take
    take = min(points // 10, got_black)
    got_black -= take
    box_black += take
    points -= 10 * take
    take = min(points, got_white)
    got_white -= take
    box_white += take
    owed -= points - take
    return Supply(box_white, box_black, box_pink), Tokens(got_white, got_black, owed, got_pink)


def settle(supply: Supply, held: Tokens) -> tuple[Supply, Tokens]:
    """Pay what a seat owes from the box as far as it can, then exchange its whites for blacks.

    >>> settle(Supply(white=4, black=1), Tokens(white=8, owed=5))
    (Supply(white=10, black=0, pink=0), Tokens(white=2, black=1, owed=1, pink=0))
    """
    return pay(supply, Tokens(held.white, held.black, 0, held.pink), white=held.owed, black=0)
