"""The lobby's index: every table not over, ordered by when it was made, so that a page of it costs the same
however many tables there are; and the cursors that say where the next page starts (of the lobby, and of the
finished games).

>>> lobby = Lobby()
>>> for created, table_id in [(3.0, "c"), (1.0, "a"), (2.0, "b")]:
...     lobby.add((created, table_id))
>>> lobby.page(2, None)
(['c', 'b'], '2.0_b')
>>> lobby.page(2, "2.0_b")
(['a'], None)
>>> lobby.remove((2.0, "b")); len(lobby)
2
"""

from __future__ import annotations

import bisect

from laro.server.errors import Code, Refusal

__all__ = ["Lobby", "cursor_of", "key_of_cursor"]

Key = tuple[float, str]  # (created, table id)


def cursor_of(key: Key) -> str:
    """The lobby's page cursor: where the next page starts (older tables than this one).

    >>> cursor_of((1700000000.25, "t1")), key_of_cursor("1700000000.25_t1")
    ('1700000000.25_t1', (1700000000.25, 't1'))
    """
    return f"{key[0]!r}_{key[1]}"


def key_of_cursor(cursor: str) -> Key:
    created, _, table_id = cursor.partition("_")
    try:
        return (float(created), table_id)
    except ValueError:
        raise Refusal(Code.BAD_REQUEST, f"not a lobby cursor: {cursor[:40]!r}; use the 'next' of a page") from None


class Lobby:
    """The keys ``(created, table id)`` of the tables listed, oldest first."""

    def __init__(self) -> None:
        self._keys: list[Key] = []

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, key: Key) -> None:
        bisect.insort(self._keys, key)

    def remove(self, key: Key) -> None:
        """Unlist a table (nothing happens if it is not listed)."""
        at = bisect.bisect_left(self._keys, key)
        if at < len(self._keys) and self._keys[at] == key:
            del self._keys[at]

    def page(self, limit: int, before: str | None) -> tuple[list[str], str | None]:
        """Up to ``limit`` table ids, newest first, older than the cursor ``before`` (None: from the newest), and
        the cursor of the next page (None on the last)."""
        end = len(self._keys) if before is None else bisect.bisect_left(self._keys, key_of_cursor(before))
        keys = self._keys[max(0, end - limit) : end][::-1]
        more = end - limit > 0
        return [table_id for _, table_id in keys], cursor_of(keys[-1]) if more and keys else None
