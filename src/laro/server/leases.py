"""Who drives a table: the rule of the leases that let several server processes share one database.

Every process may serve every table (its clients, their actions), but exactly one process *drives* a table: it
plays the table's bots, runs its clocks and ends it when nobody joined in time. It does so while it holds the
table's lease, a row in the database (``table_id``, ``holder``, ``expires``) that it renews by heartbeat. A process
that dies stops renewing; once the lease has expired, another process claims it and drives the table on. Two
processes that both believe they drive a table for a moment (a stalled process, a heartbeat late) can still never
both act for a seat: the store accepts only the event whose seq is the next one.

The processes share the driving fairly. Each knows the live processes (those whose heartbeat has not run out,
itself included) and every table to drive; none claims more than its fair share, the tables to drive divided by
the live processes, rounded up (:func:`fair_share`). A process above its share — another process started, or
the tables it drove ended while the others' did not — hands the surplus over: it lets go of tables at a quiet
moment (no bot thinking or moving for them, no change under way) and deletes their leases, and the processes
below their share claim them at their next heartbeat. So when a process dies, its tables end up spread over the
survivors, not all on the first to notice.

This module is the rule alone, a pure function of the leases as read and an injected ``now``; the cluster
(:mod:`laro.server.cluster`) reads and writes the rows, atomically, and tells the hub.

>>> leases = {"t1": Lease("t1", "a", expires=10.0), "t2": Lease("t2", "b", expires=4.0)}
>>> plan = plan_leases("a", tables={"t1", "t2", "t3"}, leases=leases, now=5.0)
>>> plan.renew, plan.claim, plan.release
(['t1'], ['t2', 't3'], [])
>>> plan_leases("a", tables={"t2"}, leases=leases, now=5.0).release
['t1']
>>> plan_leases("a", tables={"t1", "t2", "t3"}, leases=leases, now=5.0, processes={"a", "b"}).claim
['t2']
>>> holds(leases["t1"], "a", now=5.0), holds(leases["t1"], "a", now=10.0)
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["HEARTBEAT", "LEASE_SECONDS", "Lease", "LeasePlan", "beat_every", "fair_share", "holds", "plan_leases"]

LEASE_SECONDS = 3.0  # how long a lease lasts unless renewed: the longest a dead process's tables wait for a driver
HEARTBEAT = 1.0  # how often a process renews its leases and claims the orphaned ones (a third of the lease)


@dataclass(frozen=True, slots=True)
class Lease:
    """One table's lease as the database holds it: ``holder`` drives the table until ``expires`` (unix time)."""

    table_id: str
    holder: str
    expires: float


@dataclass(frozen=True, slots=True)
class LeasePlan:
    """What a process does at a heartbeat: leases to renew, to claim (missing or expired), to let go (tables over
    or unknown), and to hand over (tables beyond its fair share, let go of so that another process drives them)."""

    renew: list[str]
    claim: list[str]
    release: list[str]
    hand_over: list[str] = field(default_factory=list)


def holds(lease: Lease | None, me: str, now: float) -> bool:
    """True while ``me`` holds ``lease`` at ``now`` (an expired lease is nobody's, whoever last held it)."""
    return lease is not None and lease.holder == me and now < lease.expires


def fair_share(tables: int, processes: int) -> int:
    """The most tables one of ``processes`` live processes drives: all of them divided evenly, rounded up.

    >>> fair_share(7, 3), fair_share(6, 3), fair_share(0, 2), fair_share(5, 0)
    (3, 2, 0, 5)
    """
    return math.ceil(tables / max(1, processes))


def plan_leases(
    me: str,
    tables: Iterable[str],
    leases: Mapping[str, Lease],
    now: float,
    processes: Iterable[str] = (),
    quiet: Collection[str] | None = None,
) -> LeasePlan:
    """The heartbeat of process ``me``, knowing the ``tables`` it could drive (those not over), every lease and
    the live ``processes`` (``me`` counts, named or not): renew its own leases; claim tables whose lease is missing
    or expired, up to its fair share; release its leases of tables that are over (or that it no longer knows); and
    above its share, hand the surplus over, choosing among the ``quiet`` tables (where nothing is under way; every
    table when None). Each list is sorted, so every process claims in the same order."""
    wanted = set(tables)
    share = fair_share(len(wanted), len(set(processes) | {me}))
    renew, orphans = [], []
    for table_id in sorted(wanted):
        lease = leases.get(table_id)
        if holds(lease, me, now):
            renew.append(table_id)
        elif lease is None or now >= lease.expires:
            orphans.append(table_id)
    release = sorted(table_id for table_id, lease in leases.items() if lease.holder == me and table_id not in wanted)
    surplus = len(renew) - share
    movable = [table_id for table_id in renew if quiet is None or table_id in quiet]
    hand_over = movable[max(0, len(movable) - surplus) :] if surplus > 0 else []  # the last ones: any would do
    renew = [table_id for table_id in renew if table_id not in hand_over]
    return LeasePlan(renew, orphans[: max(0, share - len(renew))], release, hand_over)


def beat_every(lease_seconds: float) -> float:
    """The heartbeat's period for leases of ``lease_seconds``: a third of it, so that one late beat loses nothing.

    >>> beat_every(3.0), beat_every(0.3)
    (1.0, 0.1)
    """
    return round(lease_seconds / 3, 3)
