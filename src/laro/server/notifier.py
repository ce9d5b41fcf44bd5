"""Turn notifications by Web Push (:mod:`laro.server.push`): a player without a connection to their table is told
when their turn comes, reminded before their seat's stand-in takes over, and told when the game ends.

The hub tells the notifier of every state of a table it tells its connections (:meth:`Notifier.seen`, called in the
event loop: it only looks and, when there is something to send, starts a task). A **turn** is a seat's turn
number (:func:`laro.server.undo.next_turn`): one notification per turn, when it starts while the seat has no
connection to the table on any process, or when the seat's last connection closes during it (a page closed as the
turn came); a seat connected throughout is told by its page. A **reminder** goes
``remind_before`` seconds before the stand-in would take over the turn of an absent player on a timed table
(``daily``: an hour before), if the turn is long enough for it to come after the turn's notification.
The **end** of a game that began goes to each person's seat without a connection. A table the notifier first
sees (after a restart, or read back from the store) has its turn taken as told already: a restart tells no turn
again.

Each notification has a number that grows with the game (turn ``n``: ``4n``, its reminder ``4n + 1``, the end
last), and a subscription is claimed for it in the store by one conditional statement
(:meth:`~laro.server.store.Store.claim_push`), which marks it as told. So a notification is sent once: after a
restart, and by one process of several on PostgreSQL, where turns and reminders are looked for only by the
process that drives the table. Sends run in threads of the notifier's own; a push service that answers 404 or 410
has the subscription dropped; any other failure is logged and the game goes on.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from laro.core import JSONDict
from laro.server.hub import Hub, LiveTable
from laro.server.push import GONE, PushSettings, left_text, send
from laro.server.store import StoreError
from laro.server.table import Table, views
from laro.server.table.seats import name_of
from laro.server.tasks import spawn
from laro.server.undo import next_turn

__all__ = ["END", "Notifier", "notice", "turn_to_notify"]

log = logging.getLogger("laro.server")

END = 2**62  # the number of a game's last notification: after every turn's
SENDERS = 4  # threads posting to push services at once
_ENDED = 4096  # finished tables remembered as told (older ones are claimed again, harmlessly)


def turn_to_notify(table: Table, now: float) -> tuple[int, int] | None:
    """``(seat, turn number)`` of the person whose turn it is at ``now`` (None: a bot's or a stand-in's turn, a
    round's end being shown, a table not playing)."""
    seat = table.state.current_player
    if table.over or not table.started or seat is None or table.paused(now):
        return None
    target = table.seats[seat]
    if target.bot is not None or not target.joined or target.played_by_standin:
        return None
    return seat, next_turn(table.game.name, table.moves, seat)


def notice(kind: str, table: Table, seat: int, now: float) -> JSONDict:
    """The payload of a notification to ``seat``: ``turn``, ``reminder`` or ``end``, with its data (for the
    browser to say in its language) and its English ``text``."""
    others = [name_of(table.seats, other.index) for other in table.seats if other.index != seat]
    title, names = table.game.title, ", ".join(others)
    table_id = table.meta.id
    payload: JSONDict = {
        "type": kind,
        "table": table_id,
        "url": f"/table/{table_id}",
        "game": table.game.name,
        "title": title,
        "seat": seat,
        "others": others,
    }
    if kind == "end":
        winners = (views.result(table) or {}).get("winners", [])
        payload["winners"] = [name_of(table.seats, winner) for winner in winners]
        payload["won"] = seat in winners
        said = " — you won" if seat in winners else f" — {', '.join(payload['winners'])} won" if winners else ""
        payload["text"] = f"The game of {title} with {names} is over{said}"
        return payload
    standin = views.standin_at(table) if table.clocks.turn_seat == seat else None
    left = max(0.0, standin - now) if standin is not None else table.clocks.remaining(seat, now)
    payload["left"] = None if left is None else int(left)
    if kind == "reminder":
        payload["text"] = f"Still your turn at {title} with {names} — {left_text(left or 0.0)} left before a bot plays"
    else:
        payload["text"] = f"Your turn at {title} with {names}" + ("" if left is None else f" — {left_text(left)} left")
    return payload


class Notifier:
    """Sends the turn notifications of ``hub``'s tables (``hub.on_told`` is :meth:`seen`)."""

    def __init__(self, hub: Hub, settings: PushSettings) -> None:
        self.hub = hub
        self.settings = settings
        self._turns: dict[str, tuple[int, int] | None] = {}  # table -> the turn last told (or first seen)
        self._ended: OrderedDict[str, None] = OrderedDict()  # finished tables whose end has been claimed
        self._reminders: dict[str, tuple[tuple[tuple[int, int], float], asyncio.Task[None]]] = {}
        self._senders = ThreadPoolExecutor(max_workers=SENDERS, thread_name_prefix="laro-push")
        self._closing = False

    def close(self) -> None:
        self._closing = True
        for _, task in self._reminders.values():
            task.cancel()
        self._reminders.clear()
        self._senders.shutdown(wait=False, cancel_futures=True)

    def seen(self, live: LiveTable) -> None:
        """A state of the table, as the hub tells its connections: notify what it starts. Never raises: a fault
        here is logged, and the game goes on."""
        if self._closing:
            return
        try:
            self._seen(live)
        except Exception:
            log.exception("table %s: push notifications failed", live.table.meta.id)

    def _seen(self, live: LiveTable) -> None:
        table = live.table
        table_id = table.meta.id
        if table.over:
            self._turns.pop(table_id, None)
            self._plan_reminder(live, None)
            if table_id not in self._ended:
                self._ended[table_id] = None
                while len(self._ended) > _ENDED:
                    self._ended.popitem(last=False)
                self._tell_end(table)
            return
        turn = turn_to_notify(table, self.hub.clock())
        if table_id not in self._turns:  # after a restart, or a table first read here: its turn counts as told
            self._turns[table_id] = turn
        untold = turn is not None and self._turns[table_id] != turn
        if untold and turn is not None and self.hub.drives(table_id) and table.seats[turn[0]].connections == 0:
            payload = notice("turn", table, turn[0], self.hub.clock())
            spawn(self._notify(table_id, turn[0], 4 * turn[1], payload), f"push of table {table_id}")
            self._turns[table_id] = turn
        self._plan_reminder(live, turn)

    def _tell_end(self, table: Table) -> None:
        if not table.started:  # expired before every seat was taken: there was no game to tell of
            return
        for seat in table.seats:
            if seat.token_hash is not None and seat.bot is None and seat.joined and seat.connections == 0:
                payload = notice("end", table, seat.index, self.hub.clock())
                spawn(self._notify(table.meta.id, seat.index, END, payload), f"push of table {table.meta.id}")

    # -- reminders ------------------------------------------------------------------------------------------------

    def _reminder_due(self, table: Table, turn: tuple[int, int] | None) -> tuple[tuple[int, int], float] | None:
        """``(turn, when)`` the absent player to act is to be reminded, if they are, by this process."""
        if turn is None or table.clocks.turn_seat != turn[0] or table.seats[turn[0]].connections > 0:
            return None
        standin = views.standin_at(table)
        if standin is None or not self.hub.drives(table.meta.id):
            return None
        at = standin - self.settings.remind_before
        return (turn, at) if at - table.clocks.turn_started >= self.settings.remind_before else None

    def _plan_reminder(self, live: LiveTable, turn: tuple[int, int] | None) -> None:
        table_id = live.table.meta.id
        due = self._reminder_due(live.table, turn)
        planned = self._reminders.get(table_id)
        if planned is not None and planned[0] == due:
            return
        if planned is not None:
            planned[1].cancel()
            del self._reminders[table_id]
        if due is not None:
            task = spawn(self._remind(live, due), f"push reminder of table {table_id}")
            self._reminders[table_id] = (due, task)

    async def _remind(self, live: LiveTable, due: tuple[tuple[int, int], float]) -> None:
        (seat, number), at = due
        await asyncio.sleep(max(0.0, at - self.hub.clock()))
        table = live.table
        if self._reminders.get(table.meta.id, (None,))[0] == due:
            del self._reminders[table.meta.id]
        if self._reminder_due(table, turn_to_notify(table, self.hub.clock())) == due:
            await self._notify(table.meta.id, seat, 4 * number + 1, notice("reminder", table, seat, self.hub.clock()))

    # -- sending --------------------------------------------------------------------------------------------------

    async def _notify(self, table_id: str, seat: int, told: int, payload: JSONDict) -> None:
        """Send ``payload`` to each subscription of the seat not yet told ``told`` (claimed in the store)."""
        store = self.hub.store
        try:
            claimed = await store.claim_push(table_id, seat, told)
        except StoreError as error:
            log.warning("table %s: no push notification now: %s", table_id, error)
            return
        loop = asyncio.get_running_loop()
        for endpoint, keys in claimed:
            try:
                status = await loop.run_in_executor(
                    self._senders, functools.partial(send, self.settings, endpoint, keys, payload)
                )
            except RuntimeError:  # the notifier closed meanwhile
                return
            outcome = "gone" if status in GONE else "sent" if 200 <= status < 300 else "failed"
            self.hub.metrics.pushes.labels(outcome).inc()
            if outcome == "gone":
                try:
                    await store.drop_push(endpoint)
                except StoreError as error:
                    log.warning("a gone push subscription is kept for now: %s", error)
            elif outcome == "failed":
                log.warning("table %s: a push service answered %d", table_id, status)
