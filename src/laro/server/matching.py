"""Quick match: players who ask for a game wait in the store's queue (:mod:`laro.server.store.matches`), and every
server process looks at the queue and seats those who fit together at new tables.

- Tickets fit together when they ask for the same game, number of players and clock, and their ratings are
  close: they differ by at most the wider of the two players' windows. A window starts at :data:`WINDOW_START`
  rating points and widens by :data:`WINDOW_WIDENS` points for each second its player has waited, up to
  :data:`WINDOW_MOST`.
- The oldest ticket goes first: it is seated with the closest tickets that fit it as soon as there are enough of
  them. A player who chose to take bots (``bots_after`` seconds) and has waited that long is seated with the
  tickets that fit them and have waited their own chosen wait for bots, and bots take the other seats: the bot
  level whose rating in the game is closest to the players' mean (:func:`closest_level`; a level not rated in
  the game yet counts as a new player, 1000; of levels as close, :data:`MATCH_BOT`).
- Seating is claimed in the store first, all the group's tickets or none, so two processes never seat a player
  twice; the table is then made, each player joined to their seat under their account's name (the seat is kept
  on their account, as in "My games"), and each ticket given its seat and token.

>>> from laro.server.store.matches import Ticket
>>> a = Ticket("a", "Ana", "lama", 2, "null", 1000, None, 0.0)
>>> b = Ticket("b", "Bo", "lama", 2, "null", 1300, None, 0.0)
>>> window(a, now=0.0), window(a, now=10.0), window(a, now=1e6)
(100, 200, 1000)
>>> [[t.account_id for t in group.tickets] for group in groups([a, b], now=10.0)]
[]
>>> [[t.account_id for t in group.tickets] for group in groups([a, b], now=20.0)]
[['a', 'b']]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from laro.core import LaroError
from laro.server.errors import Refusal
from laro.server.hub import Hub
from laro.server.ratings import NEW_SKILL, edition, levels_of, shown
from laro.server.store import Store
from laro.server.store.matches import Ticket
from laro.server.table import commands
from laro.server.tasks import cancel_and_wait, spawn

__all__ = [
    "MATCH_BOT",
    "WINDOW_MOST",
    "WINDOW_START",
    "WINDOW_WIDENS",
    "Group",
    "Matchmaker",
    "closest_level",
    "groups",
    "window",
]

log = logging.getLogger("laro.server.matching")

WINDOW_START = 100  # rating points a ticket's window spans when it comes
WINDOW_WIDENS = 10  # more rating points for each second waited
WINDOW_MOST = 1000  # the widest a window gets
MATCH_BOT = "medium"  # of bot levels rated as close to the players as each other, the one that plays
CLAIM_SECONDS = 30.0  # how long a process's claim on a group lasts while it makes their table


def closest_level(ratings: dict[str, int], target: float) -> str:
    """The bot level whose rating is closest to ``target``; :data:`MATCH_BOT` when it is as close as any.

    >>> closest_level({"random": 700, "medium": 1000, "hard": 1400}, 1300), closest_level({}, 5000)
    ('hard', 'medium')
    """
    return min(ratings, key=lambda level: (abs(ratings[level] - target), level != MATCH_BOT), default=MATCH_BOT)


def window(ticket: Ticket, now: float) -> int:
    """The rating points around a ticket's rating that fit it at ``now``: wider the longer it has waited."""
    waited = max(0.0, now - ticket.joined)
    return int(min(WINDOW_MOST, WINDOW_START + WINDOW_WIDENS * waited))


def bots_due(ticket: Ticket, now: float) -> bool:
    """The ticket's player takes bots for the other seats now."""
    return ticket.bots_after is not None and now - ticket.joined >= ticket.bots_after


@dataclass(frozen=True, slots=True)
class Group:
    """Tickets to seat at one table, and how many bots take its other seats."""

    tickets: list[Ticket]
    bots: int


def groups(tickets: Sequence[Ticket], now: float) -> list[Group]:
    """The groups to seat now (see the module's notes); each ticket in one group at most."""
    found: list[Group] = []
    kinds: dict[tuple[str, int, str], list[Ticket]] = {}
    for ticket in sorted(tickets, key=lambda t: (t.joined, t.account_id)):
        kinds.setdefault((ticket.game, ticket.players, ticket.clock), []).append(ticket)
    for (_, players, _), line in kinds.items():
        left = list(line)
        for anchor in line:
            if anchor not in left:
                continue
            near = [t for t in left if abs(t.rating - anchor.rating) <= max(window(anchor, now), window(t, now))]
            near.sort(key=lambda t: (t is not anchor, abs(t.rating - anchor.rating), t.joined))
            if len(near) >= players:
                chosen = near[:players]
            elif bots_due(anchor, now):
                chosen = [t for t in near if bots_due(t, now)]  # fewer than ``players``: the anchor and others
            else:
                continue
            found.append(Group(chosen, players - len(chosen)))
            left = [t for t in left if t not in chosen]
    return found


class Matchmaker:
    """Seats the store's waiting tickets, every ``every`` seconds and whenever :meth:`poke` asks, in a task of its
    own; tells those waiting here (:meth:`wait`) of each group seated."""

    def __init__(self, store: Store, hub: Hub, every: float = 1.0, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.hub = hub
        self.every = every
        self.clock = clock
        self.holder = f"matcher-{secrets.token_hex(8)}"  # this process's name on its claims
        self._task: asyncio.Task[None] | None = None
        self._poked = asyncio.Event()
        self._news = asyncio.Event()  # set (and replaced) whenever this process seats a group
        self._shuffle = random.Random()

    async def match_once(self) -> int:
        """Seat every group that fits now; how many players this process seated."""
        now = self.clock()
        seated = 0
        for group in groups(await self.store.matches.waiting(now), now):
            seated += await self._seat(group, now)
        if seated:
            self._news.set()
            self._news = asyncio.Event()
        return seated

    async def _seat(self, group: Group, now: float) -> int:
        ids = [ticket.account_id for ticket in group.tickets]
        if not await self.store.matches.claim(ids, self.holder, now, now + CLAIM_SECONDS):
            return 0  # another process seats them (or one of them left)
        first = group.tickets[0]
        order = list(range(first.players))
        self._shuffle.shuffle(order)
        try:
            mean = sum(ticket.rating for ticket in group.tickets) / len(ids)
            level = await self._bot_level(first.game, mean) if group.bots else MATCH_BOT
            bots = {seat: level for seat in order[len(ids) :]}
            table, tokens = await self.hub.create(first.game, first.players, {}, bots, clock=json.loads(first.clock))
        except (LaroError, ValueError) as error:  # a Refusal or a StoreError is a LaroError too
            log.warning("quick match: cannot make a table for %d players: %s", len(ids), error)
            await self.store.matches.release(self.holder, ids)
            return 0
        seats: list[tuple[str, str, int, str]] = []
        for ticket, seat in zip(group.tickets, order, strict=False):
            token = tokens[seat]
            seats.append((ticket.account_id, table.meta.id, seat, token))
            await self._join(table.meta.id, ticket, seat, token)
        await self.store.matches.seat(self.holder, seats)
        log.info("quick match: table %s seats %d players and %d bots", table.meta.id, len(ids), group.bots)
        return len(ids)

    async def _bot_level(self, game: str, target: float) -> str:
        """The public bot level of the game rated closest to ``target`` in it (see :func:`closest_level`)."""
        ratings: dict[str, int] = {}
        for level in levels_of(game):
            rows = [row for row in await self.store.ratings.of(f"bot:{level}") if row.game == edition(game, {})]
            ratings[level] = shown(rows[0].mu, rows[0].sigma) if rows else shown(*NEW_SKILL)
        return closest_level(ratings, target)

    async def _join(self, table_id: str, ticket: Ticket, seat: int, token: str) -> None:
        """The player sits at their seat under their account's name, and the seat is kept on their account."""
        try:
            await self.hub.change(table_id, lambda t: commands.join(t, seat, token, ticket.name))
        except Refusal as refusal:  # the seat is theirs all the same: they join it when they open the table
            log.warning("quick match: table %s seat %d not joined: %s", table_id, seat, refusal)
        await self.store.accounts.hold_seat(ticket.account_id, table_id, seat, token, self.clock())

    async def wait(self, account_id: str, until: float) -> Ticket | None:
        """The account's ticket once it is seated, it has none, or ``until`` (on the event loop's clock) comes."""
        loop = asyncio.get_running_loop()
        while True:
            ticket = await self.store.matches.ticket(account_id)
            left = until - loop.time()
            if ticket is None or not ticket.waiting or left <= 0:
                return ticket
            news = self._news  # seated here: at once; seated by another process: at the next look
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(news.wait(), timeout=min(left, self.every))

    def poke(self) -> None:
        """Look at the queue now (someone came)."""
        self._poked.set()

    def start(self) -> None:
        self._task = spawn(self._run(), "matching")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)

    async def _run(self) -> None:
        while True:
            self._poked.clear()
            try:
                await self.match_once()
            except LaroError as error:  # the store is away: try again next time
                log.warning("quick match: %s", error)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), timeout=self.every)
