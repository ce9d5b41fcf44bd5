"""Who may hold a WebSocket, and how many: per address, before ``hello``, and per table once it is said.

A connection is counted against its address from the start (``sockets_per_address``). Until its first message
(``hello``) says who it is, it is also counted as waiting: the first ``hellos_per_address`` waiting connections of
an address have ``HELLO_TIMEOUT`` seconds to say it (a silent one is then taken for a spectator); any more have
only ``HELLO_RUSH`` seconds, and a silent one is refused (``too_many``). A browser says hello as it connects, so
it never notices; strangers cannot pile up connections that would all become spectators at once. Once it is
known, a seat's own token always gets in (a player reloading the page, however many people watch); spectators are
the ones capped, ``sockets_per_table`` to a table. Pure bookkeeping: the app asks, and refuses on a
:class:`Refusal`.

>>> gate = Admission(ServerLimits(sockets_per_address=2, hellos_per_address=1))
>>> gate.enter("10.0.0.1"); gate.enter("10.0.0.1")
>>> gate.enter("10.0.0.1")
Traceback (most recent call last):
laro.server.errors.Refusal: at most 2 connections from one address
>>> gate.greeting("10.0.0.1"), gate.greeting("10.0.0.1")
(5.0, 1.0)
>>> gate.greeted("10.0.0.1"); gate.greeted("10.0.0.1"); gate.greeting("10.0.0.1")
5.0
"""

from __future__ import annotations

from collections import Counter

from laro.server.errors import Code, Refusal
from laro.server.limits import ServerLimits

__all__ = ["HELLO_RUSH", "HELLO_TIMEOUT", "Admission", "admit_spectator"]

HELLO_TIMEOUT = 5.0  # seconds a new WebSocket has to say hello before it is taken for a spectator
HELLO_RUSH = 1.0  # seconds, for an address that has ``hellos_per_address`` waiting already; then it is refused


class Admission:
    """The WebSocket connections of each address: all of them, and those that have not said hello yet."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self.sockets: Counter[str] = Counter()
        self.waiting: Counter[str] = Counter()

    def enter(self, address: str) -> None:
        """Count a new connection in; :class:`Refusal` ``too_many`` beyond ``sockets_per_address``."""
        if self.sockets[address] >= self.limits.sockets_per_address:
            raise Refusal(Code.TOO_MANY, f"at most {self.limits.sockets_per_address} connections from one address")
        self.sockets[address] += 1

    def leave(self, address: str) -> None:
        _less(self.sockets, address)

    def greeting(self, address: str) -> float:
        """A connection starts to wait for its hello: the seconds it has (``HELLO_RUSH`` beyond
        ``hellos_per_address``)."""
        rushed = self.waiting[address] >= self.limits.hellos_per_address
        self.waiting[address] += 1
        return HELLO_RUSH if rushed else HELLO_TIMEOUT

    def greeted(self, address: str) -> None:
        """The connection said who it is (or did not in time, or went)."""
        _less(self.waiting, address)


def admit_spectator(spectators: int, limits: ServerLimits) -> None:
    """Refuse (``busy``) one more spectator of a table that has ``spectators``; a seat is never refused here.

    >>> admit_spectator(63, ServerLimits())
    >>> admit_spectator(64, ServerLimits())
    Traceback (most recent call last):
    laro.server.errors.Refusal: this table has 64 spectators, its most; its players always get in
    """
    if spectators >= limits.sockets_per_table:
        most = limits.sockets_per_table
        raise Refusal(Code.BUSY, f"this table has {most} spectators, its most; its players always get in")


def _less(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]
