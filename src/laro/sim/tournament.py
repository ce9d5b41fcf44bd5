"""Tournaments: many seeded games of one lineup of bots, rotated through the seats, saved one JSON line per game
so that an interrupted run resumes where it stopped, and summarised per bot (win rate, its 95% interval, the fair
share, average score and a rating fitted to all the games at once).

A game is a pure function of the tournament (game, options, lineup, seed) and its index: the same result in any
process, with any executor and any number of jobs.

>>> tournament = Tournament.create("lama", ["heuristic", "random"], seed=1)
>>> results = run_tournament(tournament, games=4)
>>> [result.seats for result in results[:2]]
[('heuristic', 'random'), ('random', 'heuristic')]
>>> summary = summarize(tournament, results)
>>> [standing.games for standing in summary.standings]
[4, 4]
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from laro.bots import BotError, check_table, get_bot
from laro.core import LaroError, get_game, validate_options
from laro.core.rng import derive_seed, make_rng
from laro.sim.executors import Executor, get_executor
from laro.sim.ratings import (
    RATING_METHOD,
    START,
    PairOutcome,
    RatingsUnavailable,
    fit_ratings,
    pair_outcomes,
    wilson_interval,
)

__all__ = [
    "FORMAT",
    "BotStanding",
    "GameResult",
    "Plan",
    "Summary",
    "Tournament",
    "TournamentError",
    "play_game",
    "prepare",
    "run_tournament",
    "summarize",
]

FORMAT = 1  # the "tournament" field of a results file's header
_SETTINGS = ("game", "rules_version", "bots", "seed", "options")  # header fields a resumed run must match
_FSYNC_EVERY = 0.5  # seconds: lines are flushed at once and made durable at least this often, and at the end


class TournamentError(LaroError, ValueError):
    """A tournament that cannot be played as asked: a wrong lineup, a bot breaking the rules, a results file
    that belongs to another tournament."""


@dataclass(frozen=True, slots=True)
class Tournament:
    """What is played: a game, its options (defaults filled in), the lineup (one bot name per seat) and the
    tournament's seed."""

    game: str
    bots: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    rules_version: str = ""

    @classmethod
    def create(cls, game: str, bots: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> Tournament:
        """A checked tournament: raises ``UnknownGameError``, ``BotError`` (naming the bots available),
        ``OptionError``, or :class:`TournamentError` for a lineup the game cannot seat — before any game is played.

        >>> Tournament.create("lama", ["random"], seed=1)
        Traceback (most recent call last):
        ...
        laro.sim.tournament.TournamentError: L.A.M.A. takes 2 to 6 players; the lineup has 1 bot
        """
        the_game = get_game(game)
        lineup = tuple(name.strip() for name in bots)
        if not the_game.min_players <= len(lineup) <= the_game.max_players:
            raise TournamentError(
                f"{the_game.title} takes {the_game.min_players} to {the_game.max_players} players; "
                f"the lineup has {len(lineup)} {'bot' if len(lineup) == 1 else 'bots'}"
            )
        made = {}
        for name in dict.fromkeys(lineup):
            try:
                made[name] = get_bot(name, the_game.name)
            except ImportError as error:  # a registered bot whose module is missing or broken
                raise BotError(f"bot {name!r} cannot be loaded: {error}") from None
        filled = validate_options(the_game.option_specs, options)
        the_game.new_game(len(lineup), seed=0, options=filled)  # options that only clash together
        for bot in made.values():
            check_table(bot, len(lineup), filled)  # a trained policy plays only the tables it was trained for
        filled = json.loads(json.dumps(filled))  # as a results file holds them
        return cls(the_game.name, lineup, seed, filled, the_game.rules_version)

    @property
    def players(self) -> int:
        return len(self.bots)

    def game_seed(self, index: int) -> int:
        """The seed of game ``index``."""
        return derive_seed(self.seed, "game", index)

    def seats(self, index: int) -> tuple[str, ...]:
        """The bot at each seat in game ``index``: the lineup rotated, lineup position j at seat (j + index) % n.

        >>> Tournament("lama", ("a", "b", "c"), seed=0).seats(1)
        ('c', 'a', 'b')
        """
        n = len(self.bots)
        return tuple(self.bots[(seat - index) % n] for seat in range(n))

    def header(self, games: int) -> dict[str, Any]:
        """The first line of the results file."""
        return {
            "tournament": FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "bots": list(self.bots),
            "seed": self.seed,
            "options": self.options,
            "games": games,
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a tournament, as saved on one line of the results file."""

    index: int
    seed: int
    seats: tuple[str, ...]
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    result: tuple[float, ...]  # each seat's share of the win
    length: int  # actions played
    rounds: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "index": self.index,
            "seed": self.seed,
            "seats": list(self.seats),
            "bots": list(self.bots),
            "winners": list(self.winners),
            "scores": list(self.scores),
            "result": list(self.result),
            "length": self.length,
        }
        if self.rounds is not None:
            data["rounds"] = self.rounds
        return data

    def line(self) -> bytes:
        """The line saved in the results file."""
        return (json.dumps(self.to_json()) + "\n").encode()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        """Read a saved line back; ``KeyError``, ``TypeError`` or ``ValueError`` if it is not one."""
        rounds = data.get("rounds")
        return cls(
            index=int(data["index"]),
            seed=int(data["seed"]),
            seats=tuple(str(name) for name in data["seats"]),
            bots=tuple(str(name) for name in data["bots"]),
            winners=tuple(int(seat) for seat in data["winners"]),
            scores=tuple(int(score) for score in data["scores"]),
            result=tuple(float(share) for share in data["result"]),
            length=int(data["length"]),
            rounds=None if rounds is None else int(rounds),
        )


def play_game(tournament: Tournament, index: int) -> GameResult:
    """Play game ``index`` of ``tournament``: each seat's bot with its own generator, derived from the game's seed
    and the seat. A bot that chooses an action outside ``legal`` (or fails) is a :class:`TournamentError` naming it.

    >>> result = play_game(Tournament("lama", ("random", "random"), seed=3), 0)
    >>> result == play_game(Tournament("lama", ("random", "random"), seed=3), 0)
    True
    >>> sorted(result.result, reverse=True)
    [1.0, 0.0]
    """
    game = get_game(tournament.game)
    seed = tournament.game_seed(index)
    seats = tournament.seats(index)
    bots = [get_bot(name, game.name) for name in seats]
    rngs = [make_rng(seed, "seat", seat) for seat in range(len(seats))]
    state = game.new_game(len(seats), seed=seed, options=tournament.options)
    length = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        try:
            action = bots[seat].choose(state.observation(seat), legal, rngs[seat])
        except Exception as error:
            raise TournamentError(
                f"bot {seats[seat]!r} (seat {seat}) failed in game {index} after {length} actions: {error!r}"
            ) from error
        if action not in legal:
            raise TournamentError(
                f"bot {seats[seat]!r} (seat {seat}) chose {str(action)!r} in game {index} after {length} actions, "
                f"which is not legal; legal: {', '.join(str(a) for a in legal)}"
            )
        state = state.apply(action)
        length += 1
    winners = tuple(state.winners)
    rounds = getattr(state, "round", None)
    return GameResult(
        index=index,
        seed=seed,
        seats=seats,
        bots=tournament.bots,
        winners=winners,
        scores=tuple(state.scores),
        result=tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(len(seats))),
        length=length,
        rounds=rounds if isinstance(rounds, int) else None,
    )


# -- the results file ------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Plan:
    """A tournament ready to run: the games already saved in ``out`` (if any) and what remains to be played.
    Making a plan reads the file and changes nothing."""

    tournament: Tournament
    games: int
    out: Path | None = None
    done: list[GameResult] = field(default_factory=list)
    saved_header: dict[str, Any] | None = None
    good_bytes: int = 0  # the length of the file's header and complete game lines
    file_bytes: int = 0

    @property
    def missing(self) -> range:
        return range(len(self.done), self.games)

    @property
    def complete(self) -> bool:
        return not self.missing

    def run(
        self, executor: Executor | None = None, on_result: Callable[[GameResult], None] | None = None
    ) -> list[GameResult]:
        """Play the missing games, saving each one (in index order) as it comes; all the results, by index."""
        results = list(self.done)
        if self.out is None:
            for result in self._play(executor):
                results.append(result)
                if on_result is not None:
                    on_result(result)
            self.done = results
            return results
        self._repair()
        if self.complete:
            return results
        with self.out.open("ab") as file:
            synced = time.monotonic()
            try:
                for result in self._play(executor):
                    file.write(result.line())
                    file.flush()
                    if time.monotonic() - synced >= _FSYNC_EVERY:
                        os.fsync(file.fileno())
                        synced = time.monotonic()
                    results.append(result)
                    if on_result is not None:
                        on_result(result)
            finally:
                file.flush()
                os.fsync(file.fileno())
        self.done = results
        return results

    def _play(self, executor: Executor | None) -> Iterator[GameResult]:
        run = executor or get_executor("local", jobs=1)
        return run(functools.partial(play_game, self.tournament), self.missing)

    def _repair(self) -> None:
        """Bring the file to this run's header and the complete game lines (a line cut short by a killed
        process is dropped). A new header is written by replacing the file atomically, so a file always starts
        with a whole header."""
        assert self.out is not None
        header = self.tournament.header(self.games)
        if self.saved_header == header:
            if self.file_bytes > self.good_bytes:
                os.truncate(self.out, self.good_bytes)
                self.file_bytes = self.good_bytes
            return
        kept = b""
        if self.saved_header is not None:
            with self.out.open("rb") as file:
                file.readline()
                kept = file.read(self.good_bytes - file.tell())
        content = _header_line(header) + kept
        self.out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=self.out.parent, delete=False, suffix=".tmp") as tmp:
            tmp.write(content)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp.name, self.out)
        self.saved_header = header
        self.file_bytes = self.good_bytes = len(content)


def _header_line(header: Mapping[str, Any]) -> bytes:
    """The header's line in the results file."""
    return (json.dumps(header) + "\n").encode()


def prepare(tournament: Tournament, games: int, out: str | os.PathLike[str] | None = None) -> Plan:
    """Read what ``out`` already holds for this tournament; :class:`TournamentError` (and nothing changed) if it
    belongs to another tournament or holds more games than asked for.

    >>> plan = prepare(Tournament.create("lama", ["random", "random"], seed=1), games=3)
    >>> plan.missing
    range(0, 3)
    """
    if games < 1:
        raise TournamentError(f"a tournament plays at least one game; got {games}")
    plan = Plan(tournament, games, None if out is None else Path(out))
    if plan.out is None or not plan.out.exists():
        return plan
    try:
        data = plan.out.read_bytes()
    except OSError as error:
        raise TournamentError(f"cannot read {plan.out}: {error.strerror}") from None
    plan.file_bytes = len(data)
    header, results, plan.good_bytes = _parse(plan.out, data)
    if header is None:
        return plan
    wanted = tournament.header(games)
    different = [key for key in _SETTINGS if header.get(key) != wanted[key]]
    if different:
        told = "; ".join(f"{key} {header.get(key)!r} there, {wanted[key]!r} here" for key in different)
        raise TournamentError(
            f"{plan.out} holds another tournament ({told}); rerun with its settings to resume it, or choose "
            "another --out"
        )
    if len(results) > games:
        raise TournamentError(f"{plan.out} already holds {len(results)} games, more than the {games} asked for")
    plan.saved_header, plan.done = header, results
    return plan


def _parse(path: Path, data: bytes) -> tuple[dict[str, Any] | None, list[GameResult], int]:
    """The header, the complete game lines in index order and their length in bytes. What follows the last
    newline is a line cut short (a process killed while writing it) and is left out, as is a last line that does
    not read (damaged as it was written); anything else wrong is an error."""
    if not data:
        return None, [], 0
    lines = data.split(b"\n")
    try:
        header = json.loads(lines[0]) if len(lines) > 1 else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("tournament") != FORMAT:
        raise TournamentError(f"{path} is not a laro tournament results file; choose another --out")
    good = len(lines[0]) + 1
    results: list[GameResult] = []
    complete = lines[1:-1]
    for number, line in enumerate(complete):
        try:
            result = GameResult.from_json(json.loads(line))
        except (KeyError, TypeError, ValueError):
            if number == len(complete) - 1:
                break
            raise TournamentError(f"line {number + 2} of {path} is not a game record; the file is damaged") from None
        if result.index != len(results):
            raise TournamentError(f"line {number + 2} of {path} holds game {result.index}, not {len(results)}")
        results.append(result)
        good += len(line) + 1
    return header, results, good


def run_tournament(
    tournament: Tournament,
    games: int,
    executor: Executor | None = None,
    out: str | os.PathLike[str] | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play (or resume) ``games`` games of ``tournament``; every game's result, by index.

    >>> results = run_tournament(Tournament.create("lama", ["random", "heuristic"], seed=2), games=2)
    >>> [result.index for result in results]
    [0, 1]
    """
    return prepare(tournament, games, out).run(executor, on_result)


# -- the summary -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotStanding:
    """How one bot (all the seats with its name) did."""

    name: str
    games: int  # seat-games: a bot in two seats of a game counts two
    wins: float  # shared wins are split
    win_rate: float
    interval: tuple[float, float]  # 95% Wilson score interval of the win rate
    share: float  # the fair share: 1 / players
    average_score: float
    rating: float | None  # fitted to all the games (None without the ratings extra)

    def to_json(self) -> dict[str, Any]:
        """The standing as JSON-ready data.

        >>> BotStanding("a", 10, 7, 0.7, (0.4, 0.9), 0.5, 9.0, 1520.0).to_json()["win_rate_95"]
        [0.4, 0.9]
        """
        return {
            "bot": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_95": list(self.interval),
            "fair_share": self.share,
            "average_score": self.average_score,
            "rating": self.rating,
        }


@dataclass(frozen=True, slots=True)
class Summary:
    """Per-bot standings, best win rate first; ``pairs`` holds each game's pairwise outcomes (in index order), from
    which the ratings are fitted; ``rating_method`` says how (None: no ratings, the extra is not installed)."""

    game: str
    players: int
    games: int
    score_order: Literal["low", "high"]
    standings: tuple[BotStanding, ...]
    pairs: tuple[tuple[PairOutcome, ...], ...] = field(default=(), repr=False)
    rating_method: str | None = RATING_METHOD

    def verdict(self) -> str:
        """One sentence on what the table means: which bot is best and by how much, and whether that is clear.

        >>> summary = Summary("lama", 2, 10, "low", (BotStanding("a", 10, 7, 0.7, (0.4, 0.9), 0.5, 9.0, 1520.0),
        ...     BotStanding("b", 10, 3, 0.3, (0.1, 0.6), 0.5, 20.0, 1480.0)))
        >>> summary.verdict().startswith("a leads: it won 70.0% of its seats")
        True
        >>> summary.verdict().endswith("b is next at 30.0%, rated 40 points lower. The intervals overlap: play more "
        ...     "games to tell them apart.")
        True
        """
        first = self.standings[0]
        low, high = first.interval
        said = (
            f"it won {first.win_rate:.1%} of its seats (95% CI {100 * low:.1f}–{high:.1%}), "
            f"{first.win_rate / first.share:.2f}× the fair share of {first.share:.1%}"
        )
        if len(self.standings) == 1:
            return f"only {first.name} played: {said}."
        second = self.standings[1]
        said = f"{said}; {second.name} is next at {second.win_rate:.1%}"
        if first.rating is not None and second.rating is not None:
            gap = round(first.rating - second.rating)
            said += f", rated {abs(gap)} {'point' if abs(gap) == 1 else 'points'} {'lower' if gap >= 0 else 'higher'}"
        if low > second.interval[1]:
            return f"{first.name} is best: {said}. The intervals do not overlap: the lead is clear."
        return f"{first.name} leads: {said}. The intervals overlap: play more games to tell them apart."

    def rating_history(self, points: int = 40) -> list[tuple[int, dict[str, float]]]:
        """The ratings fitted to the first n games, for about ``points`` values of n from 0 to all (a picture of
        how they settled); empty without the ratings extra.

        >>> tournament = Tournament.create("lama", ["heuristic", "random"], seed=1)
        >>> history = summarize(tournament, run_tournament(tournament, games=3)).rating_history()
        >>> [games for games, _ in history], history[0][1]
        ([0, 1, 2, 3], {'heuristic': 1500.0, 'random': 1500.0})
        """
        if self.rating_method is None:
            return []
        names = [standing.name for standing in self.standings]
        counts = sorted({round(step * self.games / points) for step in range(points + 1)})
        return [(n, fit_ratings(names, [pair for game in self.pairs[:n] for pair in game])) for n in counts]

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data (``laro tournament --format json``)."""
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "score_order": self.score_order,
            "rating_method": self.rating_method,
            "standings": [standing.to_json() for standing in self.standings],
            "verdict": self.verdict(),
        }


def summarize(tournament: Tournament, results: Sequence[GameResult]) -> Summary:
    """The standings of ``results`` (taken in index order, so the same however they were played), rated from all
    the games at once when the ratings extra is installed.

    >>> tournament = Tournament.create("lama", ["heuristic", "random"], seed=1)
    >>> summary = summarize(tournament, run_tournament(tournament, games=2))
    >>> summary.standings[0].win_rate >= summary.standings[1].win_rate, len(summary.pairs)
    (True, 2)
    """
    game = get_game(tournament.game)
    names = tuple(dict.fromkeys(tournament.bots))
    seat_games = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0.0)
    points = dict.fromkeys(names, 0)
    pairs = []
    for result in sorted(results, key=lambda result: result.index):
        for name, share, score in zip(result.seats, result.result, result.scores, strict=True):
            seat_games[name] += 1
            wins[name] += share
            points[name] += score
        pairs.append(tuple(pair_outcomes(result.seats, result.winners, result.scores, game.score_order)))
    try:
        ratings: dict[str, float | None] = {**fit_ratings(names, [pair for game in pairs for pair in game])}
        method: str | None = RATING_METHOD
    except RatingsUnavailable:
        ratings, method = dict.fromkeys(names), None
    share = 1 / tournament.players
    standings = [
        BotStanding(
            name=name,
            games=seat_games[name],
            wins=wins[name],
            win_rate=wins[name] / seat_games[name] if seat_games[name] else 0.0,
            interval=wilson_interval(wins[name], seat_games[name]),
            share=share,
            average_score=points[name] / seat_games[name] if seat_games[name] else 0.0,
            rating=ratings[name],
        )
        for name in names
    ]
    standings.sort(key=lambda s: (-s.win_rate, -(s.rating or START), s.name))
    return Summary(
        game.name, tournament.players, len(results), game.score_order, tuple(standings), tuple(pairs), method
    )
