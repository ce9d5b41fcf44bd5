"""English counts and articles, said right in one place: "1 decision", "2 decisions", "an edge tile".

>>> counted(1, "decision"), counted(2, "decision"), counted(1, "inaccuracy", "inaccuracies")
('1 decision', '2 decisions', '1 inaccuracy')
>>> a("edge tile"), a("corner slot"), a("inaccuracy")
('an edge tile', 'a corner slot', 'an inaccuracy')
"""

from __future__ import annotations

__all__ = ["a", "counted", "plural"]


def plural(count: float, one: str, many: str | None = None) -> str:
    """``one`` for a count of exactly one, else ``many`` (by default ``one`` + "s").

    >>> plural(1, "move"), plural(0, "move"), plural(1.5, "win"), plural(3, "blunder")
    ('move', 'moves', 'wins', 'blunders')
    """
    return one if count == 1 else many if many is not None else one + "s"


def counted(count: int, one: str, many: str | None = None) -> str:
    """The count and its noun, the noun in the form for that count (thousands grouped).

    >>> counted(0, "game"), counted(1, "game"), counted(1200, "game")
    ('0 games', '1 game', '1,200 games')
    """
    return f"{count:,} {plural(count, one, many)}"


def a(phrase: str) -> str:
    """``phrase`` with its indefinite article, chosen by the first letter's sound (laro's words are read as spelt:
    no silent h, no "you"-sounding u).

    >>> a("edge slot"), a("heuristic bot"), a("unrated game"), a("blue diwa")
    ('an edge slot', 'a heuristic bot', 'an unrated game', 'a blue diwa')
    """
    return ("an " if phrase[:1].lower() in "aeiou" and phrase else "a ") + phrase
