"""Rules pages for their readers: a game's rules in markdown may hold passages for one reader only — what to type
in the terminal, what to click in the browser — between marker lines of their own:

    <!-- in the terminal -->   lines for the terminal only
    <!-- in the browser -->    lines for the browser only
    <!-- everywhere -->        back to lines for every reader

The browser's rules page keeps the same passages (js/rules.js); any other reader of the raw text sees HTML
comments, which markdown does not show.

>>> text = "Take an action.\\n<!-- in the terminal -->\\nType `end`.\\n<!-- in the browser -->\\nClick End turn.\\n"
>>> for_reader(text + "<!-- everywhere -->\\nThe end.\\n", "terminal")
'Take an action.\\nType `end`.\\nThe end.\\n'
>>> for_reader(text, "browser")
'Take an action.\\nClick End turn.\\n'
"""

from __future__ import annotations

import re

__all__ = ["READERS", "for_reader"]

READERS = ("terminal", "browser")
_MARK = re.compile(r"^<!-- (in the terminal|in the browser|everywhere) -->[ \t]*\n?", re.MULTILINE)


def for_reader(markdown: str, reader: str) -> str:
    """``markdown`` with only the passages for ``reader`` (one of :data:`READERS`) and those for everyone."""
    if reader not in READERS:
        raise ValueError(f"no such reader {reader!r}; readers are {', '.join(READERS)}")
    pieces = _MARK.split(markdown)
    kept = [pieces[0]]
    for mark, passage in zip(pieces[1::2], pieces[2::2], strict=True):
        if mark in ("everywhere", f"in the {reader}"):
            kept.append(passage)
    return "".join(kept)
