"""The other server processes on the hub's store, as the hub sees them: a part it is given, chosen by its store.

A :class:`~laro.server.hub.Hub` asks its :class:`Peers` four things: whether this process drives a table (plays
its bots, runs its clocks, ends it when it expires), to drive a table just made here, how to tell the others how
many connections a seat has here, and what the others stored after a seq. The peers, once started, call the hub
back through its public methods when the others change something: :meth:`~laro.server.hub.Hub.follow` (a table
changed elsewhere), :meth:`~laro.server.hub.Hub.take_over` and :meth:`~laro.server.hub.Hub.let_go` (the driving
moved), :meth:`~laro.server.hub.Hub.set_presence` (connections elsewhere).

Which peers a hub gets is what its store supports (:func:`peers_of`): a store that one process alone serves (a
SQLite file) gives :class:`Alone`, where this process drives every table and nothing changes in the store but
what it stores; a store with :meth:`~laro.server.store.Store.shared_rows` (PostgreSQL) gives a
:class:`~laro.server.cluster.Cluster` of processes.

>>> from laro.server.store import open_store
>>> peers_of(open_store("sqlite::memory:")).alone, peers_of(open_store("postgresql://laro@db/laro")).alone
(True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from laro.core import JSONDict
from laro.server.cluster import Cluster
from laro.server.leases import LEASE_SECONDS
from laro.server.store import Store

if TYPE_CHECKING:
    from laro.server.hub import Hub

__all__ = ["Alone", "Peers", "peers_of"]


class Peers(Protocol):
    """The other server processes serving the hub's store: who drives which table, what they stored, and who is
    connected to them."""

    alone: bool  # no other process serves the store: nothing changes in it but what this process stores

    def drives(self, table_id: str) -> bool:
        """True if this process plays the table's bots, runs its clocks and ends it when it expires."""

    async def made(self, table_id: str) -> None:
        """A table was made here: drive it, if this process drives fewer than its share of the tables."""

    def connected(self, table_id: str, seat: int, connections: int) -> None:
        """This process now holds ``connections`` connections of the seat (the others are told)."""

    async def events_after(self, table_id: str, seq: int) -> list[JSONDict]:
        """The table's stored events after ``seq``: those that other processes stored since this one last read."""

    async def start(self, hub: Hub) -> None:
        """After the hub restored its tables: follow the others' changes and drive a share of the tables."""

    async def stop(self) -> None:
        """Before the hub stops: let go of the tables this process drives, for the others to drive them on."""


class Alone:
    """The peers of a process alone on its store: there are none. It drives every table, and nothing another
    process stored is ever to be read."""

    alone = True

    def drives(self, table_id: str) -> bool:
        return True

    async def made(self, table_id: str) -> None:
        return None

    def connected(self, table_id: str, seat: int, connections: int) -> None:
        return None

    async def events_after(self, table_id: str, seq: int) -> list[JSONDict]:
        return []

    async def start(self, hub: Hub) -> None:
        return None

    async def stop(self) -> None:
        return None


def peers_of(store: Store, lease_seconds: float = LEASE_SECONDS) -> Peers:
    """The peers a hub on ``store`` has: a :class:`~laro.server.cluster.Cluster` if several processes may share
    the store (their leases lasting ``lease_seconds``), else :class:`Alone`."""
    rows = store.shared_rows()
    return Alone() if rows is None else Cluster(rows, lease_seconds)
