"""Chat at a table: what a line may hold, and how often a seat may write one. Pure: the hub stores a line as a
:class:`~laro.server.table.events.Chat` event, which the game's record never holds.

A line is at most :data:`MAX_CHARS` characters once cleaned: control characters (line breaks, tabs, escapes) and
the characters that reorder text (bidirectional marks, embeddings, overrides and isolates) are taken out, spaces
at either end trimmed.

>>> clean_text("  hi\\u202e there\\u0007\\n ")
'hi there'
>>> clean_text("\\u200f\\n")
Traceback (most recent call last):
  ...
laro.server.errors.Refusal: a chat line needs some text
>>> len(clean_text("a" * 500))
500
"""

from __future__ import annotations

import unicodedata

from laro.server.errors import Code, Refusal

__all__ = ["MAX_CHARS", "clean_text"]

MAX_CHARS = 500  # characters a line may hold once cleaned
# the characters that change the direction of the text around them (Unicode's Bidi_Control property)
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _kept(char: str) -> bool:
    return char not in _BIDI and unicodedata.category(char) not in ("Cc", "Cs")


def clean_text(text: str) -> str:
    """``text`` as a chat line: control and bidirectional characters out, trimmed; :class:`Refusal` ``malformed``
    for nothing left, ``too_large`` for more than :data:`MAX_CHARS` characters."""
    cleaned = "".join(char for char in text if _kept(char)).strip()
    if not cleaned:
        raise Refusal(Code.MALFORMED, "a chat line needs some text")
    if len(cleaned) > MAX_CHARS:
        raise Refusal(Code.TOO_LARGE, f"a chat line is at most {MAX_CHARS} characters; this one has {len(cleaned)}")
    return cleaned
