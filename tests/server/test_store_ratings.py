"""Ratings in SQLite and PostgreSQL: each finished game is looked at once, by one of the processes rating at once;
every change is kept with its game (ratings can be recomputed from them), the leaderboard is ordered by the
conservative rating, and a deleted account's ratings go while its games' changes stay, under no name."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from laro.server.ratings import Rater, levels_of, rate_skills, subject_of
from laro.server.store import Store, TableMeta, new_table_id
from laro.server.store.people import Account
from laro.server.store.ratings import NEW_SKILL, Placed

if TYPE_CHECKING:
    from conftest import Backend  # the fixture's type (tests/server/conftest.py)


def meta(seats: list[dict[str, object]]) -> TableMeta:
    return TableMeta(new_table_id(), "lama", "1.0", len(seats), {}, 12, seats, 1_700_000_000.0)


def run(backend: Backend, body: Callable[[Store], Awaitable[None]]) -> None:
    async def main() -> None:
        async with backend.make() as store:
            await body(store)

    asyncio.run(main())


PERSON = {"token_hash": "x", "bot": None}
GAMES = ("lama", "kamara")


async def finished(store: Store, seats: list[dict[str, object]], scores: list[int], winners: list[int]) -> str:
    table = meta(seats)
    await store.create_table(table)
    await store.finish(table.id, {"winners": winners, "scores": scores, "players": ["?"] * len(seats)})
    return table.id


def test_a_finished_game_is_rated_once_and_every_change_is_kept(backend: Backend) -> None:
    async def body(store: Store) -> None:
        await store.accounts.create(Account("ana", "Ana", 0.0), "ana", "h")
        rated = await finished(store, [PERSON, {"token_hash": None, "bot": "random"}], [3, 17], [0])
        await store.accounts.hold_seat("ana", rated, 0, "tok", 1.0)
        guests = await finished(store, [PERSON, {"token_hash": None, "bot": "random"}], [3, 17], [0])  # no account
        practice = await finished(store, [{**PERSON, "takebacks": True}, {"bot": "heuristic"}], [3, 17], [0])
        await store.accounts.hold_seat("ana", practice, 0, "tok2", 1.0)
        rater = Rater(store, batch=2)  # in batches smaller than what waits
        assert await rater.rate_pending() == 1
        assert await rater.rate_pending() == 0 and await store.ratings.unrated(10) == []
        for unrated in (guests, practice):
            assert await store.ratings.changes(table_id=unrated) == []
        changes = await store.ratings.changes(table_id=rated)
        assert {(c.seat, c.subject, c.name, c.place, c.before) for c in changes} == {
            (0, "person:ana", "Ana", 1, NEW_SKILL),
            (1, "bot:random", "random", 2, NEW_SKILL),
        }
        ana = next(c for c in changes if c.seat == 0)
        assert ana.after == rate_skills([None, None], [1, 2])[0] and ana.after[0] > NEW_SKILL[0]
        assert [(r.game, r.games) for r in await store.ratings.of("person:ana")] == [("lama", 1)]
        assert await store.ratings.rate(rated, "lama", 5.0, [Placed(0, "person:ana", 1)], rate_skills) is False

    run(backend, body)


def test_two_raters_at_once_rate_each_game_once(backend: Backend) -> None:
    async def body(store: Store) -> None:
        await store.accounts.create(Account("bo", "Bo", 0.0), "bo", "h")
        for _ in range(4):
            table = await finished(store, [PERSON, {"token_hash": None, "bot": "easy"}], [9, 2], [1])
            await store.accounts.hold_seat("bo", table, 0, "tok", 1.0)
        counts = await asyncio.gather(Rater(store, batch=1).rate_pending(), Rater(store, batch=1).rate_pending())
        assert sum(counts) == 4
        (bo,) = await store.ratings.of("person:bo")
        assert bo.games == 4 and bo.mu < NEW_SKILL[0]  # lost four times
        history = await store.ratings.changes(subject="person:bo")
        assert len(history) == 4
        chained = sorted(history, key=lambda change: change.before[1], reverse=True)  # sigma only shrinks
        assert all(a.after == b.before for a, b in itertools.pairwise(chained))  # each follows the last

    run(backend, body)


def test_the_leaderboard_and_a_deleted_account(backend: Backend) -> None:
    async def body(store: Store) -> None:
        for name in ("Ana", "Bo"):
            await store.accounts.create(Account(name.lower(), name, 0.0), name.lower(), "h")
        table = await finished(store, [PERSON, PERSON, {"token_hash": None, "bot": "hard"}], [1, 5, 9], [0])
        await store.accounts.hold_seat("ana", table, 0, "t0", 1.0)
        await store.accounts.hold_seat("bo", table, 1, "t1", 1.0)
        assert await Rater(store).rate_pending() == 1
        board = await store.ratings.board("lama", 10, 0)
        assert [row.name for row in board] == ["Ana", "Bo", "hard"]
        assert [row.name for row in await store.ratings.board("lama", 2, 1)] == ["Bo", "hard"]
        assert await store.ratings.board("kamara", 10, 0) == []
        await store.accounts.delete("bo")
        assert [row.name for row in await store.ratings.board("lama", 10, 0)] == ["Ana", "hard"]
        kept = await store.ratings.changes(table_id=table)
        assert len(kept) == 3 and next(c for c in kept if c.seat == 1).name == "former player"

    run(backend, body)


def test_a_bot_is_rated_under_the_level_it_is_in_its_game() -> None:
    """``ismcts`` is L.A.M.A.'s ``hard`` and Kamara's ``easy``; Kamara's ``turns`` is its ``hard``. Quick match
    chooses only among the levels that play the game."""
    rated = {game: [subject_of({"bot": bot}, None, game) for bot in ("ismcts", "turns", "hard")] for game in GAMES}
    assert rated == {"lama": ["bot:hard", None, "bot:hard"], "kamara": ["bot:easy", "bot:hard", "bot:hard"]}
    assert "learned" in levels_of("lama") and "learned" not in levels_of("kamara")
