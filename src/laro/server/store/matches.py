"""The quick-match queue every store keeps (``laro_match_queue``): who waits for a table, of which game, and the
table each of them was given.

A ticket is one account's place in the queue: the game, the players and the clock it asked for, the rating it had
when it came, after how long it takes bots for the seats nobody fills, and when it came. A process that seats a
group first claims their tickets, all or none in one transaction, for a little while (``holder``, ``held_until``):
of two processes that found the same group, one claims it and the other claims nothing. The claimer makes the
table and writes each ticket's table, seat and token; a claimer that dies before that lets its claim run out, and
the tickets wait again. A seated ticket stays until its player leaves the queue or asks again.

The table is made where missing, whatever the store's schema version (like the accounts): a store written before
it opens as it was.

>>> Ticket("a1", "Ana", "lama", 3, '"fast"', 1000, None, 0.0).waiting
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["Matches", "Ticket"]


@dataclass(frozen=True, slots=True)
class Ticket:
    """One account's place in the queue, and the seat it was given (``table_id`` None: still waiting)."""

    account_id: str
    name: str
    game: str
    players: int
    clock: str  # the clock asked for, as canonical JSON ('null': the table's default)
    rating: int
    bots_after: float | None  # seconds after ``joined`` when bots may fill the other seats (None: never)
    joined: float
    table_id: str | None = None
    seat: int | None = None
    token: str | None = None

    @property
    def waiting(self) -> bool:
        return self.table_id is None


class Matches(Protocol):
    """A store's quick-match queue (``store.matches``); every method raises ``StoreError`` for database failures."""

    async def enter(self, ticket: Ticket) -> None:
        """Put the ticket in the queue, in place of the account's earlier one (waiting or seated)."""

    async def leave(self, account_id: str) -> bool:
        """Take the account's ticket out of the queue; whether it had one."""

    async def ticket(self, account_id: str) -> Ticket | None:
        """The account's ticket, waiting or seated; None if it has none."""

    async def waiting(self, now: float) -> list[Ticket]:
        """Every ticket waiting and not claimed at ``now``, the oldest first."""

    async def claim(self, account_ids: list[str], holder: str, now: float, until: float) -> bool:
        """Claim these waiting tickets for ``holder`` until ``until``: all of them, or (one was taken, left or
        claimed by another) none; whether they were claimed."""

    async def seat(self, holder: str, seats: list[tuple[str, str, int, str]]) -> None:
        """Give each claimed ticket ``(account, table, seat, token)`` its seat, in one transaction."""

    async def release(self, holder: str, account_ids: list[str]) -> None:
        """Let the holder's claimed tickets wait again (their table could not be made)."""

    async def counts(self) -> dict[str, int]:
        """How many tickets wait for each game."""
