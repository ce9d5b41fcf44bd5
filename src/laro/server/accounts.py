"""People's accounts: names, passwords, sessions, and the limits that keep guessing slow.

- A name follows the rules of a seat's name (:func:`laro.server.table.clean_name`: no control, format or
  private-use characters, blanks made one space, at most 24 characters) and must already be written that way; it is
  unique after Unicode NFKC normalisation and case folding (:func:`name_key`), and a bot's name is no person's.
- A password has 8 characters at least and 1 KiB (UTF-8) at most; only its Argon2id hash is kept (``argon2-cffi``'s
  defaults, RFC 9106's low-memory choice: 3 passes over 64 MiB), made in worker threads, a few at a time.
- Signing in with an unknown name checks the password against a made-up hash, so a wrong password and an unknown
  name get the same answer in the same time.
- A session is a random secret (256 bits) in the browser's cookie; the store keeps only its SHA-256, so every
  process sees it, and signing out or deleting the account ends it everywhere.
- Sign-ups per address, and sign-in attempts per address and per account, are rate-limited (``ServerLimits``).

>>> name_key("Ｊｏｓé"), name_key("JOSE\u0301") == name_key("josé")
('josé', True)
>>> account_name("  Ana   Lee ")
('Ana Lee', 'ana lee')
>>> account_name("Heuristic")
Traceback (most recent call last):
laro.server.errors.Refusal: the name 'Heuristic' belongs to a bot
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import os
import secrets
import time
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from laro.server.errors import Code, Refusal
from laro.server.limits import Buckets, ServerLimits
from laro.server.store.people import NEUTRAL_NAME, Account, AccountExists, Accounts
from laro.server.table.seats import MAX_NAME, clean_name

__all__ = ["SESSION_SECONDS", "Passwords", "People", "account_name", "check_password", "name_key", "session_hash"]

T = TypeVar("T")

SESSION_SECONDS = 30 * 24 * 3600.0  # a session lasts 30 days
MIN_PASSWORD = 8  # characters
MAX_PASSWORD = 1024  # bytes of UTF-8
BOT_NAMES = frozenset(
    {"random", "heuristic", "easy", "medium", "hard", "ismcts", "learned", "turns"}
)  # public profiles of bot levels
_RESERVED = BOT_NAMES | {NEUTRAL_NAME}


def name_key(name: str) -> str:
    """What makes two names the same: NFKC normalisation and case folding (normalised again after folding)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def account_name(raw: object) -> tuple[str, str]:
    """An account's name as written (outer and repeated blanks aside) and its key; ``bad_name`` unless it
    follows a seat name's rules as it is, and is no bot's."""
    if not isinstance(raw, str):
        raise Refusal(Code.BAD_NAME, 'give "name" as text')
    name = " ".join(raw.split())
    if not name or len(name) > MAX_NAME or clean_name(name) != name:
        raise Refusal(Code.BAD_NAME, f"a name has 1 to {MAX_NAME} characters, without control or invisible characters")
    key = name_key(name)
    if key in _RESERVED:
        raise Refusal(Code.BAD_NAME, f"the name {name!r} belongs to a bot")
    return name, key


def check_password(password: object) -> str:
    """The password, if it may be one; ``bad_password`` otherwise (never saying what it was)."""
    if not isinstance(password, str):
        raise Refusal(Code.BAD_PASSWORD, 'give "password" as text')
    if len(password) < MIN_PASSWORD or len(password.encode("utf-8", "surrogatepass")) > MAX_PASSWORD:
        raise Refusal(
            Code.BAD_PASSWORD, f"a password has {MIN_PASSWORD} characters at least and {MAX_PASSWORD} bytes at most"
        )
    return password


def session_hash(secret: str) -> str:
    """What the store keeps of a session's secret."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class Passwords:
    """Argon2id hashing over ``memory_mib`` MiB (``laro serve --password-memory``) in ``workers`` threads; beyond
    ``waiting`` requests queued, ``busy`` (each hash takes 64 MiB and a few hundred milliseconds by default, so
    they are never all made at once)."""

    def __init__(self, memory_mib: int = 64, workers: int | None = None, waiting: int | None = None) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) // 2)
        self.waiting = waiting or 8 * self.workers
        self._hasher = PasswordHasher(memory_cost=memory_mib * 1024)  # a hash names its settings: old ones check
        self._pool: ThreadPoolExecutor | None = None
        self._queued = 0
        self._dummy: str | None = None  # the hash an unknown name's password is checked against

    async def hash(self, password: str) -> str:
        return await self._run(self._hasher.hash, password)

    async def verify(self, hashed: str | None, password: str) -> bool:
        """True if ``password`` is the one ``hashed`` was made from; for ``hashed=None`` (no such account) the
        same work against a made-up hash, and False."""
        if self._dummy is None:  # made before the first check of either kind, so neither takes longer for it
            self._dummy = await self.hash(secrets.token_urlsafe(16))
        if hashed is None:
            await self._run(self._check, self._dummy, password)
            return False
        return await self._run(self._check, hashed, password)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _check(self, hashed: str, password: str) -> bool:
        try:
            return self._hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    async def _run(self, job: Callable[..., T], *args: str) -> T:
        if self._queued >= self.waiting:
            raise Refusal(Code.BUSY, "the server is checking many passwords; try again in a moment", 2.0)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="laro-passwords")
        self._queued += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, job, *args)
        finally:
            self._queued -= 1


class People:
    """Signing up, in and out, and deleting an account, over a store's accounts, within the server's limits."""

    def __init__(self, accounts: Accounts, limits: ServerLimits, passwords: Passwords | None = None) -> None:
        self.accounts = accounts
        self.passwords = passwords or Passwords()
        self.sign_ups = Buckets(limits.sign_ups_per_hour / 3600, limits.sign_up_burst)
        self.sign_ins = Buckets(limits.sign_ins_per_minute / 60, limits.sign_in_burst)
        self.tries = Buckets(limits.sign_ins_per_account_per_hour / 3600, limits.sign_in_account_burst)

    async def sign_up(self, name: object, password: object, address: str) -> tuple[Account, str]:
        """A new account and its first session's secret."""
        name, key = account_name(name)
        password = check_password(password)
        _throttle(self.sign_ups.wait(address), "new accounts from your address")
        if await self.accounts.login(key) is not None:
            raise Refusal(Code.NAME_TAKEN, f"the name {name!r} is taken")
        account = Account(secrets.token_urlsafe(12), name, time.time())
        try:
            await self.accounts.create(account, key, await self.passwords.hash(password))
        except AccountExists:  # taken meanwhile
            raise Refusal(Code.NAME_TAKEN, f"the name {name!r} is taken") from None
        return account, await self._start(account)

    async def sign_in(self, name: object, password: object, address: str) -> tuple[Account, str]:
        """The account whose name and password these are, and a new session's secret; ``bad_credentials`` for a
        wrong password and an unknown name alike."""
        account = await self.check(name, password, address)
        return account, await self._start(account)

    async def check(self, name: object, password: object, address: str) -> Account:
        """The account whose name and password these are (an attempt, counted in the limits)."""
        given = password if isinstance(password, str) else ""
        key = name_key(name) if isinstance(name, str) else ""
        _throttle(self.sign_ins.wait(address), "sign-in attempts from your address")
        _throttle(self.tries.wait(key), "sign-in attempts for this name")
        fits = len(given.encode("utf-8", "surrogatepass")) <= MAX_PASSWORD
        login = await self.accounts.login(key) if key and fits else None
        if not await self.passwords.verify(None if login is None else login.password_hash, given[:MAX_PASSWORD]):
            raise Refusal(Code.BAD_CREDENTIALS, "no account has that name and password")
        assert login is not None
        return login.account

    async def signed_in(self, secret: str | None) -> Account | None:
        """The account of a session's secret, while it lasts."""
        if not secret or len(secret) > 128:
            return None
        return await self.accounts.session(session_hash(secret), time.time())

    async def sign_out(self, secret: str) -> None:
        await self.accounts.end_session(session_hash(secret))

    async def delete(self, account: Account, password: object, address: str) -> list[tuple[str, int]]:
        """Delete the account once its password is given again: its sessions end, its seats are forgotten, and
        the games it played keep a neutral name. The ``(table, seat)`` it held."""
        checked = await self.check(account.name, password, address)
        if checked.id != account.id:
            raise Refusal(Code.BAD_CREDENTIALS, "no account has that name and password")
        return await self.accounts.delete(account.id)

    async def _start(self, account: Account) -> str:
        secret = secrets.token_urlsafe(32)
        now = time.time()
        await self.accounts.start_session(session_hash(secret), account.id, now, now + SESSION_SECONDS)
        return secret


def _throttle(wait: float, what: str) -> None:
    if wait:
        raise Refusal(Code.RATE_LIMITED, f"too many {what}; try again in {math.ceil(wait)} s", wait)
