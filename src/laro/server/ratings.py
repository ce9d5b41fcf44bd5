"""Ratings: OpenSkill's Plackett-Luce model (the ``openskill`` package, made for free-for-all games of 2 to 8) over
each finished game's places, per game and edition (``lama``, ``lama-party``, ``kamara``).

- A game is rated when it ended as its rules end it (not expired, abandoned, …), its table allowed no takebacks,
  every seat made for a person is held by an account (its player is placed as the seat finished, whoever played
  it to the end: a stand-in too), at least one is, and every bot is one of the public levels (:data:`LEVELS`,
  each a player with a profile of its own, ``bot:<level>``). A bot's other name is rated as the level it is in
  its game (:func:`laro.bots.base.level_of_bot`): ``ismcts`` as ``hard`` in L.A.M.A. and as ``easy`` in Kamara,
  ``turns`` as Kamara's ``hard``.
- Places come from the scores (the game's ``score_order``), the winners first; equal scores share a place.
- The rating shown is the conservative one, OpenSkill's ordinal mu - 3 sigma, scaled as its ``ordinal(alpha,
  target)`` allows: ``40 (mu - 3 sigma) + 1000``, so a new player shows 1000 and a well-known average one (mu 25,
  sigma 1) about 1880.
- :class:`Rater` rates what has finished, oldest first, in every process: the store lets one process rate each
  game (:meth:`laro.server.store.ratings.Ratings.rate`) and keeps every change with its game.

>>> places([12, 3, 3, 20], [1, 2], "low")
[3, 1, 1, 4]
>>> places([30, 41, 41], [1], "high")
[3, 1, 2]
>>> edition("lama", {"edition": "party"}), edition("lama", {}), shown(25.0, 25 / 3)
('lama-party', 'lama', 1000)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from openskill.models import PlackettLuce

from laro.bots import level_of_bot, offered_bots
from laro.core import JSONDict, LaroError, get_game
from laro.server.store import Store, TableSummary
from laro.server.store.ratings import Placed, Skill
from laro.server.tasks import cancel_and_wait, spawn

__all__ = [
    "LEVELS",
    "NEW_SKILL",
    "Rater",
    "edition",
    "levels_of",
    "placed",
    "places",
    "rate_skills",
    "shown",
    "subject_of",
]

log = logging.getLogger("laro.server.ratings")

# the bots rated as players, each with a profile
LEVELS = ("random", "heuristic", "easy", "medium", "hard", "learned")
ALPHA, TARGET = 40.0, 1000.0  # the shown rating: ALPHA * (mu - 3 sigma) + TARGET
NEW_SKILL = (25.0, 25.0 / 3)  # a new player's mu and sigma (OpenSkill's defaults)
_MODEL = PlackettLuce()


def edition(game: str, options: JSONDict) -> str:
    """The name a game is rated under: the game's, and its edition's if it is not the first one."""
    chosen = options.get("edition")
    return game if chosen in (None, "", "classic") else f"{game}-{chosen}"


def shown(mu: float, sigma: float) -> int:
    """The rating shown: the conservative one, scaled."""
    return round(_MODEL.rating(mu=mu, sigma=sigma).ordinal(z=3.0, alpha=ALPHA, target=TARGET))


def places(scores: Sequence[float], winners: Sequence[int], order: str) -> list[int]:
    """Each seat's place (1: first), the winners ahead of everyone, then by score; equal ones share a place."""
    sign = 1 if order == "low" else -1
    keys = [(0 if seat in winners else 1, sign * score) for seat, score in enumerate(scores)]
    return [1 + sum(other < key for other in keys) for key in keys]


def rate_skills(before: list[Skill | None], ranks: list[int]) -> list[Skill]:
    """Every seat's skill after a game: OpenSkill's Plackett-Luce update of one-player teams."""
    ratings = [_MODEL.rating() if skill is None else _MODEL.rating(mu=skill[0], sigma=skill[1]) for skill in before]
    after = _MODEL.rate([[rating] for rating in ratings], ranks=[float(rank) for rank in ranks])
    return [(team[0].mu, team[0].sigma) for team in after]


def levels_of(game: str) -> list[str]:
    """The public levels of bots that play ``game`` (each by the name it goes by there).

    >>> levels_of("lama")
    ['random', 'heuristic', 'easy', 'medium', 'hard', 'learned']
    >>> levels_of("kamara")
    ['random', 'heuristic', 'easy', 'medium', 'hard']
    """
    offered = offered_bots(game)
    return [level for level in LEVELS if level in offered]


def subject_of(seat: JSONDict, holder: str | None, game: str) -> str | None:
    """Who a seat's player is for ratings: the account holding a person's seat, a bot's level; None: no one.

    >>> subject_of({"bot": "ismcts"}, None, "lama"), subject_of({"bot": "ismcts"}, None, "kamara")
    ('bot:hard', 'bot:easy')
    """
    if seat.get("token_hash") is not None:
        return None if holder is None else f"person:{holder}"
    level = level_of_bot(str(seat.get("bot") or ""), game)
    return f"bot:{level}" if level in LEVELS else None


def placed(summary: TableSummary, holders: dict[int, str]) -> list[Placed] | None:
    """The seats of a finished table to rate, with their players and places; None if it is not rated."""
    meta, result = summary.meta, summary.result or {}
    if result.get("ended") or meta.num_players < 2 or any(seat.get("takebacks") for seat in meta.seats[:1]):
        return None
    try:
        order = get_game(meta.game).score_order
    except LaroError:
        return None
    subjects = [subject_of(seat, holders.get(index), meta.game) for index, seat in enumerate(meta.seats)]
    scores = result.get("scores")
    if None in subjects or not isinstance(scores, list) or len(scores) != meta.num_players:
        return None
    if not any(subject.startswith("person:") for subject in subjects if subject):
        return None  # bots alone are not rated
    ranks = places(scores, list(result.get("winners") or []), order)
    return [Placed(seat, str(subject), rank) for seat, (subject, rank) in enumerate(zip(subjects, ranks, strict=True))]


class Rater:
    """Rates the finished games of a store, every ``every`` seconds, in a task of its own."""

    def __init__(self, store: Store, every: float = 1.0, batch: int = 50) -> None:
        self.store = store
        self.every = every
        self.batch = batch
        self._task: asyncio.Task[None] | None = None

    async def rate_pending(self) -> int:
        """Look at every finished game not looked at yet, oldest first; how many this process rated."""
        rated = 0
        while True:
            found = await self.store.ratings.unrated(self.batch)
            for summary in found:
                holders = await self.store.ratings.holders(summary.meta.id)
                seats = placed(summary, holders)
                game = edition(summary.meta.game, summary.meta.options)
                if await self.store.ratings.rate(summary.meta.id, game, summary.updated, seats, rate_skills):
                    rated += seats is not None
            if len(found) < self.batch:
                return rated

    def start(self) -> None:
        self._task = spawn(self._run(), "ratings")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)

    async def _run(self) -> None:
        while True:
            try:
                await self.rate_pending()
            except LaroError as error:  # the store is away: try again next time
                log.warning("rating games: %s", error)
            await asyncio.sleep(self.every)
