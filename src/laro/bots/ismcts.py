"""Information-set Monte Carlo tree search: one bot for every game, through the game contract alone.

Each simulation draws a determinisation of the bot's observation (``game.sampler``: the hidden cards dealt at
random, consistent with all the seat has seen), walks down one shared tree of actions choosing by UCT among the
actions legal in that determinisation (single-observer ISMCTS: a child's exploration term counts how often it
was *available*, not how often its parent was visited), adds one node, plays the rest out with the game's
:class:`~laro.bots.judges.Judge` and credits every node on the path with the value for the seat that chose it.
After the budget (a number of simulations, or seconds) the most visited action at the root is played.

>>> import random, laro
>>> state = laro.get_game("lama").new_game(num_players=3, seed=2)
>>> bot = IsmctsBot("easy")
>>> seat = state.current_player
>>> bot.choose(state.observation(seat), state.legal_actions(), random.Random(1)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

import numpy as np
import numpy.typing as npt

from laro.bots.judges import Judge, judge_for
from laro.core.errors import LaroError
from laro.core.game import Action, Game, GameState, JSONDict
from laro.core.registry import get_game

__all__ = [
    "LEVELS",
    "IsmctsBot",
    "Level",
    "Node",
    "SearchStats",
    "budgeted",
    "easy",
    "hard",
    "level_of",
    "medium",
    "parse_budget",
]

A = TypeVar("A", bound=Action)


@dataclass(frozen=True, slots=True)
class Level:
    """A named strength: simulations per decision, UCT's exploration constant, whether the other seats are
    searched in the tree or played by the judge's model of them, and how many of the bot's own decisions in a
    row the tree holds (``None``: no limit; below that the judge plays on).

    With a ``confidence``, the search is *paired* instead: every determinisation is played out from every action at
    hand (the same hidden hands, the same draw pile), the judge plays on from there, and the bot keeps the judge's
    own move unless another action beats it on average by more than ``confidence`` standard errors of the paired
    differences. The comparison is exact where the samples agree and only their spread is noise, so the judge's good
    default is left only for a real gain. A judge may name the moves worth comparing (its ``candidates``: its own
    move first) and look further ahead to compare them (its ``lookahead``). A close call (an action ahead of the
    default by more than half that margin, but not by all of it) gets more simulations, up to ``close_calls`` in
    all."""

    simulations: int
    exploration: float = 0.7
    opponents: str = "tree"
    depth: int | None = None
    confidence: float | None = None
    close_calls: int | None = None


# (game or "*", level) -> settings; a game may tune its own
LEVELS: dict[tuple[str, str], Level] = {
    ("*", "easy"): Level(simulations=30),
    ("*", "medium"): Level(simulations=300),
    ("*", "hard"): Level(simulations=1000),
    # L.A.M.A.: the other seats move as the heuristic would (the judge's model), so that every simulation
    # goes to the bot's own choices; a smaller exploration suits values that share 1 among the seats. Where a
    # game's judge models good play, ``hard`` is the paired search: the judge's move unless another is better
    # beyond doubt (a tree search leaves a good default on noise too often to beat it)
    ("lama", "easy"): Level(simulations=30, exploration=0.25, opponents="model"),
    ("lama", "medium"): Level(simulations=200, exploration=0.25, opponents="model"),
    ("lama", "hard"): Level(simulations=1000, confidence=2.0, close_calls=4500),
    # Kamara: a simulation is dearer (a turn of planned play), and its values are sharp win chances
    ("kamara", "easy"): Level(simulations=10, exploration=0.02),
    ("kamara", "medium"): Level(simulations=40, exploration=0.02),
    # hard: the heuristic's own move, but its card renewals weighed against keeping the card over four turns
    # of play (the judge's candidates and lookahead), 30 pairs each; the better on average is played. Kamara's
    # bots are its own (laro.bots.kamara_turns): ``easy`` is this search, ``medium`` and ``hard`` search whole
    # turns and leave it the other decisions; the tree levels above are the search's, for who asks for them
    ("kamara", "hard"): Level(simulations=60, confidence=0.0),
}


def level_of(game: str, level: str) -> Level:
    """The settings of ``level`` for ``game``.

    >>> level_of("lama", "hard").simulations >= level_of("lama", "easy").simulations
    True
    """
    found = LEVELS.get((game, level)) or LEVELS.get(("*", level))
    if found is None:
        names = sorted({name for _, name in LEVELS})
        raise ValueError(f"no ISMCTS level {level!r}; levels: {', '.join(names)}")
    return found


_FEWEST_PAIRS = 8  # a paired comparison needs this many samples before its spread means anything
_MORE = 300  # simulations added at a time to a close call
_BATCH = 128  # the fewest determinisations a batched search plays out between looks at the clock


class Node:
    """One action's statistics in the tree: visits, times available, and the summed value for the seat that
    chose the action."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 1
        self.total = 0.0


@dataclass(slots=True)
class SearchStats:
    """What the last search did: simulations run, seconds spent, and each root action's visits and mean value."""

    simulations: int = 0
    seconds: float = 0.0
    actions: tuple[tuple[str, int, float], ...] = ()


class IsmctsBot:
    """ISMCTS within a budget of ``simulations`` per decision, or of ``seconds`` when that is given."""

    def __init__(
        self,
        level: str = "medium",
        simulations: int | None = None,
        seconds: float | None = None,
        exploration: float | None = None,
        opponents: str | None = None,
        name: str = "ismcts",
        depth: int | None = None,
    ) -> None:
        level_of("*", level)  # a clear error now, not at the first move
        if simulations is not None and simulations < 1:
            raise ValueError(f"simulations must be at least 1; got {simulations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive; got {seconds}")
        if depth is not None and depth < 1:
            raise ValueError(f"the tree holds at least the decision at hand; got depth {depth}")
        if opponents not in (None, "tree", "model"):
            raise ValueError(f"other seats are searched in the 'tree' or played by the 'model'; got {opponents!r}")
        self.name = name
        self.level = level
        self.simulations = simulations
        self.seconds = seconds
        self.exploration = exploration
        self.opponents = opponents
        self.depth = depth
        self.stats = SearchStats()
        self.preferred: int | None = None  # the paired search's choice
        self.memory: dict[object, object] = {}  # what the judge keeps from one decision to the next

    def settings(self, game: str) -> Level:
        """This bot's settings for ``game``: its level's, with any explicit choice instead."""
        level = level_of(game, self.level)
        return Level(
            simulations=level.simulations if self.simulations is None else self.simulations,
            exploration=level.exploration if self.exploration is None else self.exploration,
            opponents=level.opponents if self.opponents is None else self.opponents,
            depth=level.depth if self.depth is None else self.depth,
            confidence=level.confidence,
            close_calls=level.close_calls if self.simulations is None else None,  # a budget given is kept exactly
        )

    def judge_of(self, game: Game) -> Judge:
        """The judge this bot searches ``game`` with: the game's own (a variant of the bot may bring another)."""
        return judge_for(game)

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A:
        game = get_game(observation["game"])
        judge = self.judge_of(game)
        sample = self.determinisations(game, judge, observation)
        if len(legal) == 1:
            return legal[0]
        settings = self.settings(game.name)
        shortlist = None
        candidates = getattr(judge, "candidates", None)
        if settings.confidence is not None and candidates is not None:  # the judge names the moves worth comparing
            shortlist = tuple(action.index for action in candidates(observation, legal, rng))
            if len(shortlist) == 1:
                self.stats = SearchStats()
                return next(action for action in legal if action.index == shortlist[0])
        root = self.search(sample, judge, rng, settings, shortlist)
        by_index = {action.index: action for action in legal}
        if self.preferred in by_index:
            return by_index[self.preferred]
        ranked = sorted(
            ((node.visits, node.total / max(node.visits, 1), index) for index, node in root.children.items()),
            reverse=True,
        )
        for _, _, index in ranked:
            if index in by_index:
                return by_index[index]
        raise LaroError("the search found none of the legal actions")  # pragma: no cover - samples share them

    def follow(self, observation: JSONDict) -> None:
        """Read an earlier decision's ``observation`` into :attr:`memory`, as :meth:`choose` does, without
        searching (see :class:`laro.bots.Follower`)."""
        game = get_game(observation["game"])
        self.determinisations(game, self.judge_of(game), observation)

    def determinisations(self, game: Game, judge: Judge, observation: JSONDict) -> Callable[[random.Random], GameState]:
        """The sampler of ``observation``'s information set: the game's own, or the judge's when it reads more
        into what the seat has seen (with what it kept in :attr:`memory` from the seat's earlier decisions)."""
        reader = getattr(judge, "sampler", None)
        if reader is None:
            return game.sampler(observation)
        return cast(Callable[[random.Random], GameState], reader(game, observation, self.memory))

    def search(
        self,
        sample: Callable[[random.Random], GameState],
        judge: Judge,
        rng: random.Random,
        settings: Level,
        shortlist: tuple[int, ...] | None = None,
    ) -> Node:
        """Run the budget's simulations from the information set ``sample`` draws from; the tree's root. The
        paired search compares only the actions in ``shortlist`` (the default first) when one is given."""
        root = Node()
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        limit = settings.simulations if deadline is None else 1 << 62
        self.preferred = None
        if settings.confidence is not None:
            done = self._compare(root, sample, judge, rng, settings, limit, deadline, shortlist)
        else:
            simulate = self._simulate
            done = 0
            while done < limit:
                simulate(root, sample(rng), judge, rng, settings)
                done += 1
                if deadline is not None and not done & 15 and time.perf_counter() >= deadline:
                    break
        seconds = time.perf_counter() - start
        actions = tuple(
            (str(index), node.visits, node.total / max(node.visits, 1)) for index, node in root.children.items()
        )
        self.stats = SearchStats(done, seconds, actions)
        return root

    def _compare(
        self,
        root: Node,
        sample: Callable[[random.Random], GameState],
        judge: Judge,
        rng: random.Random,
        settings: Level,
        limit: int,
        deadline: float | None,
        shortlist: tuple[int, ...] | None,
    ) -> int:
        """The paired search (see :class:`Level`): playouts of every action at hand (or in ``shortlist``) from the
        same samples; sets :attr:`preferred` and returns the number of playouts."""
        confidence: float = settings.confidence  # type: ignore[assignment]  # the caller checked
        most = max(limit, settings.close_calls or 0) if deadline is None else limit
        default: int | None = None if shortlist is None else shortlist[0]
        lookahead = getattr(judge, "lookahead", None)  # a judge may look further to compare a few moves
        play_each = getattr(judge, "play_each", None) if lookahead is None else None
        play_on = lookahead or judge.playout
        batches = getattr(judge, "batches", None) if lookahead is None else None
        if batches is not None and batches(sample):
            return self._compare_batched(root, sample, judge, rng, confidence, (limit, most), deadline, shortlist)
        gains: dict[int, list[float]] = {}  # action -> [pairs, summed gain, summed squared gain] over the default
        done = 0
        me: int | None = None
        while True:
            if done >= limit:  # the budget is spent: a close call may have more, up to ``most``
                preferred, strongest = _verdict(gains, default, confidence)
                if preferred != default or strongest < confidence / 2 or done >= most:
                    break
                limit = min(most, done + _MORE)
            state = sample(rng)
            me = state.current_player
            if default is None:
                default = judge.policy(state, rng).index
            actions = state.legal_actions()
            if shortlist is not None:
                actions = [action for action in actions if action.index in shortlist]
            if play_each is not None:
                outcomes = play_each(state, actions, rng)
            else:
                outcomes = [play_on(state.apply(action), rng) for action in actions]
            values: dict[int, float] = {}
            for action, outcome in zip(actions, outcomes, strict=True):
                value = outcome[me]
                child = root.children.get(action.index) or root.children.setdefault(action.index, Node())
                child.visits += 1
                child.total += value
                values[action.index] = value
            done += len(values) or 1  # a sample with none of the shortlist still spends the budget
            base = values.get(default)
            if base is not None:
                for index, value in values.items():
                    gain = value - base
                    paired = gains.setdefault(index, [0.0, 0.0, 0.0])
                    paired[0] += 1.0
                    paired[1] += gain
                    paired[2] += gain * gain
            if deadline is not None and time.perf_counter() >= deadline:
                preferred, _ = _verdict(gains, default, confidence)
                break
        self.preferred = preferred
        return done

    def _compare_batched(
        self,
        root: Node,
        sample: Callable[[random.Random], GameState],
        judge: Judge,
        rng: random.Random,
        confidence: float,
        budget: tuple[int, int],
        deadline: float | None,
        shortlist: tuple[int, ...] | None,
    ) -> int:
        """The paired search with a judge that plays many determinisations by actions at once (its ``play_batch``,
        which draws them from ``rng`` as :meth:`_compare` does): the same samples, statistics, additions in the same
        order and stopping rule, so the same search; a batch at a time (all that the budget left asks for; with a
        time budget, as many as fill most of the time left at the pace so far)."""
        limit, most = budget
        first: GameState | None = sample(rng)
        actions = first.legal_actions()  # type: ignore[union-attr]  # just drawn
        if shortlist is not None:
            actions = [action for action in actions if action.index in shortlist]
        default = shortlist[0] if shortlist is not None else judge.policy(first, rng).index  # type: ignore[arg-type]
        indices = [action.index for action in actions]
        base = indices.index(default) if default in indices else None
        play_batch = judge.play_batch  # type: ignore[attr-defined]  # the caller checked
        gains: dict[int, list[float]] = {}
        done = sampled = 0
        began = time.perf_counter()
        while True:
            if done >= limit:
                preferred, strongest = _verdict(gains, default, confidence)
                if preferred != default or strongest < confidence / 2 or done >= most:
                    break
                limit = min(most, done + _MORE)
            count = -(-(limit - done) // max(len(actions), 1))
            if deadline is not None:
                now = time.perf_counter()
                count = min(
                    count, max(_BATCH, int(0.8 * (deadline - now) * sampled / (now - began))) if sampled else _BATCH
                )
            values = play_batch(sample, actions, count, rng, first)
            first = None
            sampled += count
            for column, index in enumerate(indices):
                child = root.children.get(index) or root.children.setdefault(index, Node())
                child.visits += count
                child.total = _added(child.total, values[:, column])
                if base is not None:
                    gain = values[:, column] - values[:, base]
                    paired = gains.setdefault(index, [0.0, 0.0, 0.0])
                    paired[0] += count
                    paired[1] = _added(paired[1], gain)
                    paired[2] = _added(paired[2], gain * gain)
            done += count * (len(actions) or 1)
            if deadline is not None and time.perf_counter() >= deadline:
                preferred, _ = _verdict(gains, default, confidence)
                break
        self.preferred = preferred
        return done

    def _simulate(self, root: Node, state: GameState, judge: Judge, rng: random.Random, settings: Level) -> None:
        me = state.current_player
        modelled = settings.opponents == "model"
        node = root
        path: list[tuple[Node, int]] = []
        log = math.log
        sqrt = math.sqrt
        c = settings.exploration
        depth = settings.depth or 1 << 30  # own decisions the tree may still hold
        while (player := state.current_player) is not None:
            children = node.children
            if modelled and player != me:  # another seat moves as the judge's model says
                action = judge.policy(state, rng)
                node = children.get(action.index) or children.setdefault(action.index, Node())
                state = state.apply(action)
                continue
            if player == me:
                if not depth:
                    break
                depth -= 1
            legal = state.legal_actions()
            untried = []
            for action in legal:
                child = children.get(action.index)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                action = untried[int(rng.random() * len(untried))]
                child = children[action.index] = Node()
                path.append((child, player))
                state = state.apply(action)
                break
            best_score = -1.0
            for action in legal:
                child = children[action.index]
                score = child.total / child.visits + c * sqrt(log(child.available) / child.visits)
                if score > best_score:
                    node, best_action, best_score = child, action, score
            path.append((node, player))
            state = state.apply(best_action)
        values = judge.playout(state, rng)
        for visited, player in path:
            visited.visits += 1
            visited.total += values[player]


def _added(total: float, values: npt.NDArray[np.float64]) -> float:
    """``total`` plus every one of ``values``, one after the other (as a loop adds them, to the last bit)."""
    return float(np.add.accumulate(np.concatenate(([total], values)))[-1])


def _verdict(gains: dict[int, list[float]], default: int | None, confidence: float) -> tuple[int | None, float]:
    """The paired search's choice: the action whose mean gain over ``default`` is largest among those above
    ``confidence`` standard errors (else ``default``), and the largest gain in standard errors."""
    preferred = default
    best = 0.0
    strongest = 0.0
    for index, (pairs, total, squares) in gains.items():
        if pairs < _FEWEST_PAIRS:
            continue
        mean = total / pairs
        spread = math.sqrt(max(squares / pairs - mean * mean, 0.0) / pairs)
        if mean <= 0.0:
            continue
        strength = mean / spread if spread else math.inf
        strongest = max(strongest, strength)
        if mean > best and strength > confidence:
            preferred, best = index, mean
    return preferred, strongest


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """A budget written ``2000`` (simulations) or ``1.5s`` (seconds per decision).

    >>> parse_budget("500"), parse_budget("0.5s")
    ((500, None), (None, 0.5))
    """
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if seconds > 0:
                return None, seconds
        else:
            simulations = int(text)
            if simulations > 0:
                return simulations, None
    except ValueError:
        pass
    raise ValueError(f"an ISMCTS budget is a number of simulations (2000) or of seconds (1.5s); got {text!r}")


def easy() -> IsmctsBot:
    """The ``easy`` bot: a short search."""
    return IsmctsBot(level="easy", name="easy")


def medium() -> IsmctsBot:
    """The ``medium`` bot."""
    return IsmctsBot(level="medium", name="medium")


def hard() -> IsmctsBot:
    """The ``hard`` bot (also called ``ismcts``): the longest search of the levels (Kamara's bots are
    :mod:`laro.bots.kamara_turns`'s)."""
    return IsmctsBot(level="hard", name="hard")


def budgeted(budget: str) -> IsmctsBot:
    """An ISMCTS bot with the ``hard`` level's settings and its own budget: ``500`` simulations or ``2s``.

    >>> budgeted("2s").seconds, budgeted("500").simulations
    (2.0, 500)
    """
    simulations, seconds = parse_budget(budget)
    return IsmctsBot(level="hard", simulations=simulations, seconds=seconds, name=f"ismcts:{budget}")
