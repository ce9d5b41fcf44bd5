"""The quick-match queue without a server: the rating window widens with the wait (time given, not waited), the
groups it makes, and the store's queue on both stores — claimed by one of two stores racing for it, and kept over
a reopening."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from laro.server.matching import WINDOW_MOST, WINDOW_START, WINDOW_WIDENS, groups, window
from laro.server.store.matches import Ticket
from laro.server.store.people import Account

if TYPE_CHECKING:
    from conftest import Backend  # the fixture's type (tests/server/conftest.py)


def _ticket(who: str, rating: int, joined: float = 0.0, bots_after: float | None = None, **kind: object) -> Ticket:
    asked = {"game": "lama", "players": 2, "clock": "null"} | kind
    return Ticket(who, who.title(), str(asked["game"]), int(str(asked["players"])), str(asked["clock"]), rating,
                  bots_after, joined)  # fmt: skip


def _ids(found: list[object]) -> list[tuple[list[str], int]]:
    return [([t.account_id for t in group.tickets], group.bots) for group in found]  # type: ignore[attr-defined]


def test_the_rating_window_widens_with_the_wait() -> None:
    ticket = _ticket("ana", 1000, joined=100.0)
    assert window(ticket, now=100.0) == WINDOW_START
    assert window(ticket, now=110.0) == WINDOW_START + 10 * WINDOW_WIDENS
    assert window(ticket, now=99.0) == WINDOW_START  # a clock a little behind another process's
    assert window(ticket, now=100.0 + 10_000) == WINDOW_MOST
    ana, bo = _ticket("ana", 1000, joined=100.0), _ticket("bo", 1400, joined=100.0)
    gap_closes = 100.0 + (400 - WINDOW_START) / WINDOW_WIDENS
    assert _ids(groups([ana, bo], now=100.0)) == []
    assert _ids(groups([ana, bo], now=gap_closes - 1)) == []
    assert _ids(groups([ana, bo], now=gap_closes)) == [(["ana", "bo"], 0)]


def test_the_oldest_meets_the_closest_ratings_first() -> None:
    old, near, far = _ticket("old", 1000, joined=0.0), _ticket("near", 1050, 5.0), _ticket("far", 1090, 1.0)
    assert _ids(groups([far, near, old], now=5.0)) == [(["old", "near"], 0)]
    three = [_ticket(name, 1000, joined=n) for n, name in enumerate(["a", "b", "c", "d", "e"])]
    assert _ids(groups(three, now=5.0)) == [(["a", "b"], 0), (["c", "d"], 0)]  # "e" waits for another


def test_only_the_same_game_players_and_clock_meet() -> None:
    ana = _ticket("ana", 1000)
    others = [_ticket("bo", 1000, game="kamara"), _ticket("cy", 1000, players=3), _ticket("di", 1000, clock='"fast"')]
    assert _ids(groups([ana, *others], now=60.0)) == []


def test_bots_take_the_seats_once_the_chosen_wait_has_passed() -> None:
    ana = _ticket("ana", 1000, joined=0.0, bots_after=30.0, players=4)
    bo = _ticket("bo", 1020, joined=20.0, bots_after=10.0, players=4)
    cy = _ticket("cy", 1010, joined=10.0, bots_after=None, players=4)  # takes no bots, ever
    assert _ids(groups([ana, bo, cy], now=29.9)) == []
    assert _ids(groups([ana, bo, cy], now=30.0)) == [(["ana", "bo"], 2)]
    assert _ids(groups([bo, cy], now=30.0)) == [(["bo"], 3)]
    assert _ids(groups([cy], now=10_000.0)) == []


async def _race(backend: Backend, round_: int) -> tuple[list[bool], set[str]]:
    first, second = backend.make(), backend.make()
    await first.open()
    await second.open()
    try:
        game = f"game{round_}"  # each round's queue apart from the rounds before
        for n in range(4):
            who = f"r{round_}a{n}"
            await first.accounts.create(Account(who, who, 0.0), who, "$argon2id$…")
            await first.matches.enter(Ticket(who, who, game, 2, "null", 1000, None, float(n)))
        claims = await asyncio.gather(  # overlapping groups: a1 is in both
            first.matches.claim([f"r{round_}a0", f"r{round_}a1"], "one", now=10.0, until=40.0),
            second.matches.claim([f"r{round_}a1", f"r{round_}a2"], "two", now=10.0, until=40.0),
        )
        waiting = await second.matches.waiting(now=10.0)
        return list(claims), {t.account_id.removeprefix(f"r{round_}") for t in waiting if t.game == game}
    finally:
        await second.close()
        await first.close()


def test_of_two_stores_claiming_one_ticket_one_claims_all_and_the_other_none(backend: Backend) -> None:
    for round_ in range(5):
        claims, left = asyncio.run(_race(backend, round_))
        assert sorted(claims) == [False, True]
        assert left == ({"a2", "a3"} if claims[0] else {"a0", "a3"})  # the loser's tickets wait again at once


async def _seat_and_reopen(backend: Backend) -> tuple[Ticket | None, Ticket | None, list[Ticket], dict[str, int]]:
    async with backend.make() as store:
        for who in ("a0", "a1", "a2"):
            await store.accounts.create(Account(who, who.upper(), 0.0), who, "$argon2id$…")
            await store.matches.enter(Ticket(who, who.upper(), "lama", 2, "null", 1000, 10.0, 1.0))
        assert await store.matches.claim(["a0", "a1"], "me", now=2.0, until=30.0)
        await store.matches.seat("me", [("a0", "t1", 1, "secret0")])
        await store.matches.release("me", ["a1"])  # its table could not be made: it waits again
    async with backend.make() as store:  # a restart keeps the queue
        return (
            await store.matches.ticket("a0"),
            await store.matches.ticket("nobody"),
            await store.matches.waiting(now=3.0),
            await store.matches.counts(),
        )


def test_the_queue_survives_a_reopening_with_its_seats(backend: Backend) -> None:
    seated, nobody, waiting, counts = asyncio.run(_seat_and_reopen(backend))
    assert seated is not None and (seated.table_id, seated.seat, seated.token) == ("t1", 1, "secret0")
    assert not seated.waiting and nobody is None
    assert [t.account_id for t in waiting] == ["a1", "a2"] and counts == {"lama": 2}
