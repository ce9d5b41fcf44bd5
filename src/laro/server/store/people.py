"""What every store keeps of people besides the tables: accounts, their sessions, and the seats they hold.

- **Accounts** (``laro_accounts``): an id, the name as its owner wrote it, the name's key (unique: see
  :func:`laro.server.accounts.name_key`), the password's Argon2id hash and when it was made.
- **Sessions** (``laro_sessions``): the SHA-256 of a session's random secret (the secret itself lives only in the
  browser's cookie), its account and until when it lasts. Every process reads them here, so signing out or
  deleting the account ends a session on every process at once.
- **Seats** (``laro_account_seats``): which account holds which seat, with the seat's token, so that its owner
  takes the seat back from any device ("My games"). A seat belongs to the last account that joined it.

The tables are made where missing, whatever the store's schema version (like the analyses): a store written before
them opens as it was, and a laro that does not know them leaves them alone.

>>> SeatLink("t1", 0, "secret", 0.0).invite
'/table/t1#seat=0&token=secret'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .base import StoreError

__all__ = ["NEUTRAL_NAME", "Account", "AccountExists", "Accounts", "Login", "SeatLink"]

NEUTRAL_NAME = "former player"  # the name a deleted account's seats keep in the games it played


class AccountExists(StoreError):
    """An account's name (its key) is taken already."""


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the server shows it: never its password's hash."""

    id: str
    name: str
    created: float


@dataclass(frozen=True, slots=True)
class Login:
    """What signing in checks: the account, and its password's hash."""

    account: Account
    password_hash: str


@dataclass(frozen=True, slots=True)
class SeatLink:
    """A seat an account holds: the table, the seat, its token, and when the account took it."""

    table_id: str
    seat: int
    token: str
    created: float

    @property
    def invite(self) -> str:
        return f"/table/{self.table_id}#seat={self.seat}&token={self.token}"


class Accounts(Protocol):
    """A store's accounts (``store.accounts``); every method raises ``StoreError`` for database failures."""

    async def create(self, account: Account, key: str, password_hash: str) -> None:
        """Add an account; ``AccountExists`` if its name's key is taken."""

    async def login(self, key: str) -> Login | None:
        """The account whose name has this key, with its password's hash; None if there is none."""

    async def delete(self, account_id: str) -> list[tuple[str, int]]:
        """Delete the account, its sessions and its seats, in one transaction; in the games it played, its seats'
        names become :data:`NEUTRAL_NAME` (their results and moves stay whole). The ``(table, seat)`` it held."""

    async def start_session(self, secret_hash: str, account_id: str, now: float, until: float) -> None:
        """Keep a new session of the account until ``until`` (and forget its sessions that ran out)."""

    async def session(self, secret_hash: str, now: float) -> Account | None:
        """The account of a session that has not run out by ``now``; None otherwise."""

    async def end_session(self, secret_hash: str) -> None:
        """Forget a session (signing out)."""

    async def hold_seat(self, account_id: str, table_id: str, seat: int, token: str, now: float) -> None:
        """The account holds the seat now (another account that held it no longer does)."""

    async def seats(self, account_id: str, limit: int) -> list[SeatLink]:
        """The seats the account holds, the newest taken first, at most ``limit``."""
